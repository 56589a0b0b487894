// Two jobs side by side (issue 31): both inputs as a diff of the keys that differ, both status lines and costs,
// their outputs next to each other (two images of one size also as a slider and an opacity flip, texts as a line
// diff). The webview may read each job's own outputs folder and nothing else of the disk.
import * as vscode from 'vscode';
import { diffInputs, diffLines } from '../core/grid/inputDiff';
import type { Logger } from '../core/log';
import { renderWebviewHtml, webviewOptions } from '../webview/html';
import { WebviewChannel } from '../webview/messages';
import { HostMessage, WebviewMessage, type CompareSideView } from './compareProtocol';
import type { CompareSide } from './compareSides';

export const COMPARE_VIEW_TYPE = 'serverlessGpu.compare';

export class ComparePanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly channel: WebviewChannel<WebviewMessage, HostMessage>;
  /** What was sent to the page (tests read it). */
  readonly message: Extract<HostMessage, { type: 'compare' }>;

  constructor(extensionUri: vscode.Uri, readonly a: CompareSide, readonly b: CompareSide, logger: Logger) {
    const roots = [a.folder, b.folder].flatMap((f) => (f ? [vscode.Uri.file(f)] : []));
    this.panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, 'Compare jobs', vscode.ViewColumn.Active, webviewOptions(extensionUri, ...roots));
    const view = (s: CompareSide): CompareSideView => ({
      title: s.title,
      status: s.status,
      cost: s.cost,
      costHow: s.costHow,
      media: s.media.map((m) => ({ kind: m.kind, uri: this.panel.webview.asWebviewUri(vscode.Uri.file(m.file)).toString() })),
      missing: s.missing,
      ...(s.text !== undefined ? { text: s.text } : {}),
      ...(s.error ? { error: s.error } : {}),
    });
    const textDiff = a.text !== undefined && b.text !== undefined ? diffLines(a.text, b.text) : undefined;
    this.message = { type: 'compare', a: view(a), b: view(b), changes: diffInputs(a.input, b.input), ...(textDiff ? { textDiff } : {}) };
    this.channel = new WebviewChannel(this.panel.webview, WebviewMessage, (m) => {
      if (m.type === 'ready') this.channel.post(this.message);
      else (m.side === 'a' ? a : b).open();
    }, logger, HostMessage);
    this.panel.webview.html = renderWebviewHtml({
      webview: this.panel.webview,
      extensionUri,
      title: 'Compare jobs',
      script: ['dist', 'webview', 'compare.js'],
      styles: [['media', 'compare', 'style.css']],
      body: PAGE,
    });
    this.panel.onDidDispose(() => this.dispose());
  }

  dispose(): void {
    this.channel.dispose();
  }
}

const PAGE = `<main>
  <section class="sides">
    <div class="side" id="side-a"><h2 class="title"></h2><div class="status"></div><div class="cost"></div><button class="open" data-side="a">Open job</button></div>
    <div class="side" id="side-b"><h2 class="title"></h2><div class="status"></div><div class="cost"></div><button class="open" data-side="b">Open job</button></div>
  </section>
  <h3>Input</h3>
  <table id="changes"><thead><tr><th>key</th><th>first job</th><th>second job</th></tr></thead><tbody></tbody></table>
  <div id="same" hidden>The two inputs are the same.</div>
  <h3>Outputs</h3>
  <div id="overlay" hidden>
    <div class="modes"><label><input type="radio" name="mode" value="side" checked> side by side</label>
    <label><input type="radio" name="mode" value="slider"> slider</label>
    <label><input type="radio" name="mode" value="opacity"> opacity</label>
    <input id="slider" type="range" min="0" max="100" value="50" hidden><button id="flip" hidden>Flip</button></div>
    <div id="stage" hidden><img id="under" alt="first job's image"><img id="over" alt="second job's image"></div>
  </div>
  <section class="sides" id="outputs"><div class="out" id="out-a"></div><div class="out" id="out-b"></div></section>
  <pre id="textdiff" hidden></pre>
</main>`;

// The Batch panel (issue 23 "Running"): one webview per batch with a live table of every job. The page draws only
// the rows in view; the host sends the whole table once (in chunks) when the page is ready, then only the rows
// that changed, gathered for ~200 ms, so a 10,000-job batch costs one message per beat rather than one per change.
// Its page also draws the batch's grid (issue 31) beside the rows: the grid's messages travel over this webview,
// tagged `grid`, to a GridView (src/batchGrid/gridView.ts) made on the first of them.
import * as vscode from 'vscode';
import { GridView } from '../batchGrid/gridView';
import type { HostMessage as GridHostMessage } from '../batchGrid/gridProtocol';
import type { JobRow } from '../core/batch';
import type { Logger } from '../core/log';
import { renderWebviewHtml, webviewOptions } from '../webview/html';
import { WebviewChannel } from '../webview/messages';
import { HostMessage, WebviewMessage, type BatchRowView, type BatchSummary } from './batchProtocol';
import { rowView } from './batchRowView';
import type { BatchSession } from './batchSession';
import { summaryOf } from './batchSummary';
import { thumbnailFile } from './batchThumbnail';
import { BATCH_PANEL_VIEW_TYPE } from './batchViewType';

export { BATCH_PANEL_VIEW_TYPE } from './batchViewType';
/** How long row changes gather before they are sent. */
export const FLUSH_MS = 200;
/**
 * Rows per message when many are sent (the whole table, or the rows a start changed): each message's views are
 * made, checked against the schema and serialized in one task of the shared host: a 2,000-row message was ~28 ms of
 * a busy stretch in the profile of a 10,000-job batch's start (issue 30). 250 rows make tasks an eighth of that,
 * with the page's receipt awaited between two.
 */
const CHUNK = 250;

export interface BatchPanelActions {
  openRow(session: BatchSession, index: number): void;
  cancel(session: BatchSession): void;
  retryFailed(session: BatchSession): void;
  exportCsv(session: BatchSession): void;
  resume(session: BatchSession): void;
  /** Two of its jobs side by side (the compare room); `inputOf`: the inputs as the grid read them. */
  compareRows(session: BatchSession, a: number, b: number, inputOf?: (index: number) => Record<string, unknown> | undefined): void;
}

export class BatchPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly channel: WebviewChannel<WebviewMessage, HostMessage>;
  private readonly dirty = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Rows whose view is on its way to the page (flushed, not yet delivered). */
  private readonly posting = new Set<number>();
  /** The whole table reached the page once (the rows are then current unless dirty or on their way). */
  private tableSent = false;
  /** How many row views were posted, in all (tests read it: a ticking "so far" must post none). */
  rowsPosted = 0;
  /** The header line last sent (tests read it). */
  lastSummary: BatchSummary | undefined;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  /** The batch as a grid in this page, made on the page's first grid message (tests and the bench read it). */
  grid: GridView | undefined;
  /** Show Batch as Grid asked for the grid: said again at the page's next `ready` until a page took it. */
  private gridWanted = false;

  /** `restored`: the panel VS Code brought back after a reload (its page keeps its view and axes through getState). */
  constructor(extensionUri: vscode.Uri, readonly session: BatchSession, private readonly actions: BatchPanelActions, private readonly logger: Logger, restored?: vscode.WebviewPanel) {
    // The batch's folder is the one extra root: the rows' thumbnails and the grid's cells are its saved images, and nothing else.
    const options = webviewOptions(extensionUri, vscode.Uri.file(session.o.dir));
    if (restored) {
      restored.webview.options = options;
      restored.title = `Batch: ${session.name}`;
    }
    this.panel = restored ?? vscode.window.createWebviewPanel(BATCH_PANEL_VIEW_TYPE, `Batch: ${session.name}`, { viewColumn: vscode.ViewColumn.Active, preserveFocus: true }, options);
    this.channel = new WebviewChannel(this.panel.webview, WebviewMessage, (m) => this.onMessage(m, actions), logger, HostMessage);
    this.panel.webview.html = renderWebviewHtml({
      webview: this.panel.webview,
      extensionUri,
      title: 'Batch',
      script: ['dist', 'webview', 'batchPanel.js'],
      styles: [['media', 'batchPanel', 'style.css'], ['media', 'batchGrid', 'style.css']],
      body: PAGE,
    });
    this.subscriptions.push(
      session.onDidChangeRow((row) => this.markDirty(row.index)),
      session.onDidChangeState(() => this.schedule()),
      session.onDidChangeSnapshot(() => this.schedule()),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  /** Shows the grid (Show Batch as Grid): the page switches to it, as its own Grid button does. */
  showGrid(): void {
    // The grid made now: its reading of the manifest overlaps the page's loading when the panel is new.
    this.gridOf();
    this.panel.reveal(undefined, false);
    // Now to a page that is there; a new page, or one VS Code dropped while its tab was hidden and loads again as it
    // is revealed, gets it after its `ready`.
    this.gridWanted = true;
    this.tellGrid();
  }

  /** The page told to show its grid; kept as wanted until a page took the message (postMessage says so). */
  private tellGrid(): void {
    void this.channel.postNow({ type: 'view', view: 'grid' }).then((delivered) => {
      if (delivered) this.gridWanted = false;
    });
  }

  /**
   * Lets go of the webview without closing it, for a resumed batch to take it over (BatchManager.resume): its page
   * keeps its view, axes and size through getState, where a new panel would start on its rows.
   */
  release(): vscode.WebviewPanel {
    this.dispose();
    return this.panel;
  }

  dispose(): void {
    this.grid?.dispose();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.channel.dispose();
    this.closed.fire();
    this.closed.dispose();
  }

  private onMessage(m: WebviewMessage, actions: BatchPanelActions): void {
    switch (m.type) {
      case 'ready':
        void this.channel.postNow({ type: 'manifest', path: this.session.manifestPath });
        if (this.gridWanted) this.tellGrid();
        void this.sendAll();
        return;
      case 'openRow':
        actions.openRow(this.session, m.index);
        return;
      case 'cancelBatch':
        actions.cancel(this.session);
        return;
      case 'pause':
        this.session.pause();
        return;
      case 'resume':
        actions.resume(this.session);
        return;
      case 'retryFailed':
        actions.retryFailed(this.session);
        return;
      case 'exportCsv':
        actions.exportCsv(this.session);
        return;
      case 'tuneEndpoint':
        void vscode.commands.executeCommand('serverlessGpu.tuneEndpoint', this.session.endpointId);
        return;
      case 'compareRows':
        actions.compareRows(this.session, m.a, m.b);
        return;
      case 'grid':
        void this.gridOf().onMessage(m.m).catch((e: unknown) => this.logger.warn(`grid: ${String(e)}`));
        return;
    }
  }

  private gridOf(): GridView {
    if (this.grid) return this.grid;
    const page = { webview: this.panel.webview, post: (m: GridHostMessage) => this.channel.postNow({ type: 'grid', m }) };
    const session = this.session;
    this.grid = new GridView(page, session.manifestPath, {
      openJob: (row) => this.actions.openRow(session, row.index),
      compare: (a, b, inputs) => this.actions.compareRows(session, a.index, b.index, (i) => inputs.get(i)),
    }, this.logger);
    return this.grid;
  }

  private markDirty(index: number): void {
    this.dirty.add(index);
    this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_MS);
  }

  /**
   * The rows as the page now has them, derived on demand from the runner's rows (the host keeps no view of its
   * own per row: a 10,000-job batch would hold every row twice): those posted and not changed since.
   */
  shownRows(): BatchRowView[] {
    if (!this.tableSent) return [];
    return this.session.rows().flatMap((r) => (this.dirty.has(r.index) || this.posting.has(r.index) ? [] : [this.view(r)]));
  }

  /** What the page was sent, for tests that must say why a row is not on it. */
  pageState(): { ready: boolean; tableSent: boolean; dirty: number; posting: number; visible: boolean } {
    return { ready: this.channel.isReady, tableSent: this.tableSent, dirty: this.dirty.size, posting: this.posting.size, visible: this.panel.visible };
  }

  /** The whole table, in chunks (a reloaded or newly opened page); views made a chunk at a time. */
  private async sendAll(): Promise<void> {
    this.dirty.clear();
    this.tableSent = false;
    const rows = this.session.rows();
    for (let i = 0; i === 0 || i < rows.length; i += CHUNK) {
      if (!(await this.post(rows.slice(i, i + CHUNK), i === 0))) return;
    }
    this.tableSent = true;
    await this.sendSummary();
  }

  private async flush(): Promise<void> {
    if (!this.channel.isReady) return;
    if (this.dirty.size > 0) {
      const rows = this.session.rows().filter((r) => this.dirty.has(r.index));
      this.dirty.clear();
      for (let i = 0; i < rows.length; i += CHUNK) await this.post(rows.slice(i, i + CHUNK), false);
    }
    await this.sendSummary();
  }

  private async post(rows: readonly JobRow[], reset: boolean): Promise<boolean> {
    for (const r of rows) this.posting.add(r.index);
    try {
      const delivered = await this.channel.postNow({ type: 'rows', reset, rows: rows.map((r) => this.view(r)) });
      if (delivered) this.rowsPosted += rows.length;
      return delivered;
    } finally {
      for (const r of rows) this.posting.delete(r.index);
    }
  }

  private async sendSummary(): Promise<void> {
    this.lastSummary = summaryOf(this.session);
    await this.channel.postNow({ type: 'summary', summary: this.lastSummary });
  }

  private view(row: JobRow): BatchRowView {
    const image = thumbnailFile(row.outputs, this.session.o.dir);
    return rowView(row, image && this.panel.webview.asWebviewUri(vscode.Uri.file(image)).toString());
  }
}

/** Static markup of the page (no data: the script fills it with textContent). */
const PAGE = `<header>
  <div class="title-line"><h1 id="title">Batch</h1><span id="counts"></span><span id="spent"></span><span id="billed"></span></div>
  <div id="notice" hidden></div>
  <div id="bill-check" hidden><span id="bill-words"></span> <button id="tune-endpoint" data-action="tuneEndpoint" title="See the endpoint's hours: workers, idle time and every job billed">Tune Endpoint…</button></div>
  <div class="toolbar">
    <button id="pause" data-action="pause">Pause</button>
    <button id="resume" data-action="resume" hidden>Resume</button>
    <button id="retry" data-action="retryFailed">Retry Failed</button>
    <button id="cancel" data-action="cancelBatch">Cancel Batch</button>
    <button id="export" data-action="exportCsv">Export CSV</button>
    <span class="switch" role="group" aria-label="View"><button id="view-rows" data-view="rows" aria-pressed="true" title="The jobs as rows">Rows</button><button id="grid" data-view="grid" aria-pressed="false" title="The jobs as an X/Y grid by the keys that vary">Grid</button></span>
    <span class="rows-only"><button id="compare" disabled title="Ctrl/Cmd-click two rows to compare their jobs">Compare</button>
    <label>Show <select id="filter">
      <option value="all">all</option><option value="waiting">not sent</option><option value="running">running</option>
      <option value="completed">completed</option><option value="failed">failed</option><option value="stopped">cancelled</option>
    </select></label>
    <span id="shown"></span></span>
  </div>
</header>
<section id="rowsview">
<div class="head row" id="head">
  <span data-sort="index">#</span><span>Input</span><span data-sort="status">Status</span>
  <span data-sort="delay">Delay</span><span data-sort="execution">Execution</span><span data-sort="cost">Cost</span><span>Output</span>
</div>
<div id="viewport" tabindex="0"><div id="spacer"></div><div id="rows"></div></div>
</section>
<section id="gridview" hidden>
  <div class="gridbar">
    <label>X <select id="x"></select></label>
    <label>Y <select id="y"></select></label>
    <label>Z <select id="z"></select></label>
    <span id="zpager" hidden><button id="zprev" title="Previous page">&lt;</button><span id="zvalue"></span><button id="znext" title="Next page">&gt;</button></span>
    <label>Size <select id="size"><option value="small">small</option><option value="medium">medium</option><option value="large">large</option></select></label>
    <button id="exportPng">Export PNG</button>
    <button id="exportHtml">Export HTML</button>
    <button id="gridcompare" disabled title="Ctrl/Cmd-click two cells to compare their jobs">Compare</button>
  </div>
  <div id="gridnotice" hidden></div>
  <div id="corner"></div><div id="colhead"><div id="colinner"></div></div><div id="rowhead"><div id="rowinner"></div></div>
  <div id="gridport" tabindex="0"><div id="gridspacer"></div><div id="cells"></div></div>
  <span id="perf" hidden></span>
</section>`;

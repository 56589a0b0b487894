// "Show Cost Chart": one webview panel drawing the tree's billing window as stacked bars, for all endpoints
// or one. It follows the tree (same response, same window: no request of its own), survives hiding through
// the page's getState/setState, and a reload through the serializer.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { formatUsd } from '../core/billing/usd';
import { describeWindow } from '../endpoints/billingWindow';
import type { EndpointsTree, LoadedBilling } from '../endpoints/endpointsTree';
import { renderWebviewHtml, webviewOptions } from '../webview/html';
import { WebviewChannel } from '../webview/messages';
import { buildChartData } from './chartData';
import { ChartState, FromWebview, ToWebview } from './protocol';
import { COST_CHART_VIEW_TYPE } from './viewType';

export { COST_CHART_VIEW_TYPE };

type Drawn = Extract<FromWebview, { type: 'drawn' }>;
type Hover = Extract<FromWebview, { type: 'hover' }>;

export class CostChartPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private channel: WebviewChannel<FromWebview, ToWebview> | undefined;
  private endpointId: string | undefined;
  /** The account's chart (view title): all endpoints stacked by endpoint. */
  private byEndpoint = false;
  private readonly drawnEmitter = new vscode.EventEmitter<Drawn>();
  /** What the page reported it drew (tests wait on it). */
  readonly onDidDraw = this.drawnEmitter.event;
  lastDrawn: Drawn | undefined;
  /** The hover box the page showed last (tests read the exact amounts from it). */
  lastHover: Hover | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly extensionUri: vscode.Uri, private readonly tree: EndpointsTree, private readonly logger: Logger) {
    this.disposables.push(this.drawnEmitter, tree.onDidLoad(() => this.update()));
  }

  /** Opens (or reveals and retargets) the chart: all endpoints, or the one given; `byEndpoint`: the account's, stacked by endpoint. */
  async show(endpointId?: string, byEndpoint = false): Promise<void> {
    this.endpointId = endpointId;
    this.byEndpoint = endpointId === undefined && byEndpoint;
    if (!this.panel) {
      this.attach(vscode.window.createWebviewPanel(COST_CHART_VIEW_TYPE, 'Cost Chart', vscode.ViewColumn.Active, webviewOptions(this.extensionUri)));
    } else {
      this.panel.reveal();
    }
    if (!this.tree.loaded) await this.tree.refresh();
    this.update();
  }

  /** A panel restored after a reload (WebviewPanelSerializer): same page, fresh channel. */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const parsed = ChartState.safeParse(state);
    this.endpointId = parsed.success ? parsed.data.endpointId : undefined;
    this.byEndpoint = parsed.success && parsed.data.byEndpoint === true;
    this.panel?.dispose();
    this.attach(panel);
    if (this.tree.loaded) this.update();
    else void this.tree.refresh();
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icons', 'serverless-gpu.svg');
    this.channel = new WebviewChannel<FromWebview, ToWebview>(panel.webview, FromWebview, (m) => this.onMessage(m), this.logger, ToWebview);
    panel.webview.html = renderWebviewHtml({
      webview: panel.webview,
      extensionUri: this.extensionUri,
      title: 'Cost Chart',
      script: ['dist', 'webview', 'costChart.js'],
      styles: [['media', 'costChart', 'style.css']],
      body: '<header><h1 id="title"></h1><p id="subtitle"></p></header><p id="notice" hidden></p><div class="chart-box"><canvas id="chart" role="img" aria-label="Stacked bar chart of costs per bucket"></canvas></div>',
    });
    const channel = this.channel;
    panel.onDidDispose(() => {
      channel.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.channel = undefined;
      }
    });
  }

  private onMessage(m: FromWebview): void {
    switch (m.type) {
      case 'ready':
        this.update();
        break;
      case 'drawn':
        this.lastDrawn = m;
        this.drawnEmitter.fire(m);
        break;
      case 'hover':
        this.lastHover = m;
        break;
      case 'error':
        this.logger.warn(`Cost chart: ${m.message}`);
        break;
    }
  }

  /** Sends the tree's current data (or why there is none) to the page; queued until it is ready. */
  private update(): void {
    if (!this.channel || !this.panel) return;
    const loaded = this.tree.loaded;
    // An open chart is a view of ours in sight: it may ask for data the hidden Endpoints view dropped.
    if (!loaded) this.tree.loadIfIdle();
    const message = loaded ? this.dataMessage(loaded) : this.noticeMessage();
    this.panel.title = message.type === 'data' ? `Cost Chart: ${message.data.title}` : 'Cost Chart';
    this.channel.post(message);
  }

  private dataMessage(loaded: LoadedBilling): ToWebview {
    const id = this.endpointId;
    const node = id ? loaded.model.endpoints.find((e) => e.id === id) : undefined;
    const total = id ? (node?.amounts.total ?? 0) : loaded.model.totals.total;
    const subtitle = describeWindow(loaded.window, loaded.model.window, formatUsd(total));
    const endpoint = id ? { id, ...(node?.displayName ? { displayName: node.displayName } : {}) } : undefined;
    const names = this.byEndpoint ? new Map(loaded.model.endpoints.map((e) => [e.id, e.displayName ?? e.id])) : undefined;
    const data = buildChartData(loaded.result.table, subtitle, endpoint, names);
    if (this.byEndpoint) data.title = 'Account, by endpoint';
    return { type: 'data', data };
  }

  private noticeMessage(): ToWebview {
    const s = this.tree.current;
    if (s.kind === 'noKey') return { type: 'notice', title: 'Cost Chart', message: 'Set an API key (or try the local emulator) to see costs.' };
    if (s.kind === 'error') return { type: 'notice', title: 'Cost Chart', message: s.error.message };
    return { type: 'notice', title: 'Cost Chart', message: 'Loading…' };
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

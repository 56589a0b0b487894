// "Tune Endpoint…" (issue 29): one webview per endpoint replaying this workspace's jobs of a window under the
// current settings and candidates (src/core/tune/), in the replay's worker thread: a table and a chart of cost
// against p95 wait, the cheapest within the user's p95 limit marked. Every figure says it is a replay, of how
// many jobs, over which window. Apply sends exactly the changed settings through the endpoint-edit path
// (`applyEndpointSettings`: issue 28's forms, serverlessGpu.applyEndpointChange, which PATCHes /v2/serverless/{id}).
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { Logger } from '../core/log';
import { formatUsd } from '../core/billing/usd';
import { billedAmount } from '../core/cost/billedAmount';
import { endpointPrice } from '../core/cost/priceTable';
import { poolPricePerHour } from '../core/serverless/endpointMoney';
import type { ServiceClient } from '../core/service';
import { changeLabel, tuneCandidates } from '../core/tune/candidates';
import type { ReplayResult, ReplaySettings, ReplayTraffic } from '../core/tune/replay';
import { startReplays, type ReplayRun } from '../core/tune/replayThread';
import { changedSettings, settingsOf, syntheticArrivals, trafficOf, type JobSample } from '../core/tune/traffic';
import { renderWebviewHtml, webviewOptions } from '../webview/html';
import { WebviewChannel } from '../webview/messages';
import { FromWebview, ToWebview, type TuneRow, type TuneWindow } from './protocol';
import { moneySplit, tuneWindow, utcRange, workerFlags } from '../core/tune/flags';

export const TUNE_VIEW_TYPE = 'serverlessGpu.tune';
const WINDOW_MS: Record<TuneWindow, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
/** The window's words; with the current hour so far (tuneWindow), and its real range beside them. */
const WINDOW_WORDS: Record<TuneWindow, string> = {
  '1h': 'the last whole hour and this one so far', '24h': 'the last 24 whole hours and this one so far', '7d': 'the last 7 days of whole hours and this one so far',
};

export interface TuneDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  client: () => Promise<ServiceClient | undefined>;
  /** This workspace's jobs (the Jobs history and the batch manifests' rows). */
  jobs: () => Promise<readonly JobSample[]>;
  gpuPrices: () => Readonly<Record<string, number>>;
  /**
   * The endpoint-edit path (issue 28's forms): the one confirmation (the readable diff and its money, `note`
   * under them), PATCH, rollout. True when the change was applied.
   */
  applyEndpointSettings: (client: ServiceClient, endpointId: string, change: Record<string, unknown>, note: readonly string[]) => Promise<boolean>;
}

type Drawn = Extract<FromWebview, { type: 'drawn' }>;

export class TunePanel implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly channel: WebviewChannel<FromWebview, ToWebview>;
  private run: ReplayRun | undefined;
  private window: TuneWindow = '24h';
  private current: ReplaySettings | undefined;
  private candidates: ReplaySettings[] = [];
  private results: ReplayResult[] = [];
  private readonly drawnEmitter = new vscode.EventEmitter<Drawn>();
  /** What the page last drew (real-editor tests wait on it). */
  readonly onDidDraw = this.drawnEmitter.event;
  lastRows: TuneRow[] = [];
  lastDrawn: Drawn | undefined;
  lastHeader: Extract<ToWebview, { type: 'header' }> | undefined;
  private lastReplayOf: string | undefined;

  constructor(readonly endpointId: string, private readonly d: TuneDeps, onDispose: () => void) {
    this.panel = vscode.window.createWebviewPanel(TUNE_VIEW_TYPE, `Tune: ${endpointId}`, vscode.ViewColumn.Active, webviewOptions(d.extensionUri));
    this.panel.iconPath = vscode.Uri.joinPath(d.extensionUri, 'media', 'icons', 'serverless-gpu.svg');
    this.channel = new WebviewChannel<FromWebview, ToWebview>(this.panel.webview, FromWebview, (m) => this.onMessage(m), d.logger, ToWebview);
    this.panel.webview.html = renderWebviewHtml({
      webview: this.panel.webview, extensionUri: d.extensionUri, title: `Tune ${endpointId}`,
      script: ['dist', 'webview', 'tunePanel.js'], styles: [['media', 'tunePanel', 'style.css']],
      body: '<main id="root"></main>',
    });
    this.panel.onDidDispose(() => {
      this.run?.cancel();
      this.channel.dispose();
      this.drawnEmitter.dispose();
      onDispose();
    });
  }

  reveal(): void {
    this.panel.reveal();
  }

  dispose(): void {
    this.panel.dispose();
  }

  private async onMessage(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready': return this.load();
      case 'window':
        this.window = m.window;
        return this.load();
      case 'synthetic': return this.replaySynthetic(m.jobs, m.perMinute, m.executionSeconds * 1000);
      case 'cancel':
        this.run?.cancel();
        return;
      case 'apply':
        await this.applyRow(m.row);
        return;
      case 'drawn':
        this.lastDrawn = m;
        this.drawnEmitter.fire(m);
        return;
      case 'error':
        this.d.logger.warn(`Tune view: ${m.message}`);
    }
  }

  /** Reads the endpoint's settings, price and billed amount, gathers the window's jobs, and replays them. */
  private async load(): Promise<void> {
    const client = await this.d.client();
    if (!client) return this.post({ type: 'notice', message: 'Set an API key (or try the local emulator) first.' });
    let endpoint;
    try {
      endpoint = await client.getEndpoint(this.endpointId);
    } catch (err) {
      return this.post({ type: 'notice', message: `Could not read the endpoint's settings: ${(err as Error).message}` });
    }
    this.current = settingsOf(endpoint);
    const price = endpointPrice(endpoint, this.d.gpuPrices(), await catalogPerHour(client));
    if (!price) return this.post({ type: 'notice', message: 'No price is known for this endpoint\'s GPUs: set one in serverlessGpu.batch.gpuPrices.' });
    // One window for the replay and the bill: whole UTC hours, the current one so far (the billing route's buckets).
    const { fromMs, toMs } = tuneWindow(Date.now(), WINDOW_MS[this.window]);
    const traffic = trafficOf(await this.d.jobs(), this.endpointId, fromMs, toMs, this.current.idleTimeoutMs);
    const range = utcRange(fromMs, toMs);
    const replayOf = describeReplay(traffic.arrivals.length, range, WINDOW_WORDS[this.window], traffic.leftOut);
    const billed = await billedAmount(client, this.endpointId, fromMs, toMs).catch(() => undefined);
    const workers = await client.listEndpointWorkers(this.endpointId).catch(() => undefined);
    this.lastHeader = {
      type: 'header', endpoint: endpoint.name || this.endpointId, window: this.window, replayOf, price: price.source,
      money: billed ? moneySplit(billed, traffic.arrivals, price.usdPerSecond, toMs) : undefined,
      flags: workerFlags(this.current, workers, traffic.arrivals.length),
    };
    this.post(this.lastHeader);
    if (!traffic.arrivals.length) {
      return this.post({ type: 'noHistory', message: `No job of this workspace ran on ${this.endpointId} from ${range}: run some jobs first, or replay a burst you describe.` });
    }
    this.replay({ arrivals: traffic.arrivals, coldStartMs: traffic.coldStartMs, pricePerWorkerSecond: price.usdPerSecond, windowEndMs: toMs }, replayOf);
  }

  private async replaySynthetic(jobs: number, perMinute: number, executionMs: number): Promise<void> {
    if (!this.current) return;
    const client = await this.d.client();
    const endpoint = client && await client.getEndpoint(this.endpointId).catch(() => undefined);
    const price = endpoint && endpointPrice(endpoint, this.d.gpuPrices(), await catalogPerHour(client));
    if (!price) return this.post({ type: 'notice', message: 'No price is known for this endpoint\'s GPUs.' });
    const arrivals = syntheticArrivals(jobs, perMinute, executionMs, Date.now());
    this.replay({ arrivals, coldStartMs: 0, pricePerWorkerSecond: price.usdPerSecond }, `Replay of a synthetic burst: ${jobs} jobs, ${perMinute} a minute, ${executionMs / 1000} s each (no cold start known)`);
  }

  private replay(traffic: ReplayTraffic, replayOf: string): void {
    this.run?.cancel();
    this.candidates = tuneCandidates(this.current!);
    const total = this.candidates.length * traffic.arrivals.length;
    let done = 0;
    const run = startReplays(join(this.d.extensionUri.fsPath, 'dist', 'replayWorker.js'), traffic, this.candidates, (m) => {
      done = m.kind === 'result' ? (m.candidate + 1) * traffic.arrivals.length : m.candidate * traffic.arrivals.length + m.arrivals;
      this.post({ type: 'progress', done, total });
    });
    this.run = run;
    run.results.then((results) => {
      if (this.run !== run) return;
      this.results = results;
      this.lastRows = results.map((r, i) => rowOf(r, changeLabel(this.current!, this.candidates[i]!), i === 0));
      this.lastReplayOf = replayOf;
      this.post({ type: 'rows', rows: this.lastRows, replayOf });
    }, (err: Error) => {
      if (this.run === run) this.post({ type: 'notice', message: err.message });
    });
  }

  /**
   * Apply (the row's button; public for the real-editor tests): the endpoint-edit path asks the one question
   * (Edit Endpoint's readable diff with its money, and what the replay says of the row), then sends exactly the
   * changed settings. Returns the change sent, if it was applied.
   */
  async applyRow(row: number): Promise<Record<string, unknown> | undefined> {
    const next = this.candidates[row];
    if (!this.current || !next) return undefined;
    const change = changedSettings(this.current, next);
    if (!Object.keys(change).length) {
      void vscode.window.showInformationMessage('These are the endpoint\'s current settings: nothing to change.');
      return undefined;
    }
    const r = this.results[row];
    const now = this.results[0];
    const figures = (x: ReplayResult): string => `${formatUsd(x.costUsd)}, p95 wait ${(x.waitP95Ms / 1000).toFixed(1)} s`;
    const note = r && now ? [`${this.lastReplayOf ?? 'A replay'}: ${figures(r)} with this change, ${figures(now)} with the current settings.`] : [];
    const client = await this.d.client();
    if (!client) return undefined;
    if (!(await this.d.applyEndpointSettings(client, this.endpointId, change, note))) return undefined;
    await this.load();
    return change;
  }

  private post(m: ToWebview): void {
    this.channel.post(m);
  }
}

/**
 * The service's GPU catalog, pool -> USD per GPU per hour (its dearest type), as a job's estimate and Edit
 * Endpoint read it: the replay is priced, and its price credited, as they are; the price table stays the fallback.
 */
async function catalogPerHour(client: ServiceClient): Promise<ReadonlyMap<string, number> | undefined> {
  const gpus = await client.listGpuTypes().then((r) => r.gpus, () => undefined);
  if (!gpus) return undefined;
  const pools = new Set(gpus.flatMap((g) => (g.pool ? [g.pool] : [])));
  const out = new Map<string, number>();
  for (const pool of pools) {
    const p = poolPricePerHour(gpus, pool);
    if (p !== undefined) out.set(pool, p);
  }
  return out;
}

function describeReplay(jobs: number, range: string, words: string, leftOut: number): string {
  const left = leftOut ? `; ${leftOut} job${leftOut === 1 ? '' : 's'} left out (no execution time from the service)` : '';
  return `Replay of ${jobs} job${jobs === 1 ? '' : 's'} this workspace sent from ${range} (${words}; other traffic on the endpoint is not in it)${left}`;
}

function rowOf(r: ReplayResult, label: string, current: boolean): TuneRow {
  return {
    label, current, costUsd: r.costUsd, startUsd: r.startUsd, executionUsd: r.executionUsd, idleUsd: r.idleUsd,
    waitP50Ms: r.waitP50Ms, waitP95Ms: r.waitP95Ms, waitMaxMs: r.waitMaxMs, coldStarts: r.coldStarts, peakWorkers: r.peakWorkers,
  };
}

// Starting and resuming batches in this window (issue 23): the inputs read and checked (bad ones marked, nothing
// sent unless skipped), one endpoint picked as for single jobs, the job count and the estimated cost range shown,
// always a confirmation (in a modal: anything that spends money asks first), then the batch's session, its panel and its
// progress notification. The batch logic itself is the core's (src/core/batch/).
import * as path from 'node:path';
import { newBatchDir } from '../core/batch/batchDir';
import * as vscode from 'vscode';
import { changedInputs, loadBatchInputs, ManifestWriter, MANIFEST_FILE, MANIFEST_VERSION, readManifest, withoutProblems, type BatchItem, type BatchSource, type GuardLimits, type ManifestHeader, type ManifestState } from '../core/batch';
import type { Logger } from '../core/log';
import type { JobDurationModel } from '../core/jobs';
import type { ServiceClient } from '../core/service';
import type { Settings } from '../config/settings';
import type { HistoryStore } from '../history/historyStore';
import type { EndpointMemory } from '../jobs/endpointMemory';
import { pickEndpoint, type EndpointSource } from '../jobs/endpointPicker';
import type { WorkspaceOutputsWriter } from '../jobs/jobOutputs';
import type { ClientSource } from '../jobs/runnerTypes';
import { BatchPanel } from './batchPanel';
import { planBatch, rangeText, type BatchPlanFacts } from './batchPlanning';
import { formatUsd } from '../core/billing/usd';
import { BatchProblems } from './batchProblems';
import { BatchSession } from './batchSession';
import { batchTitle } from './batchTitle';
import { BatchUi } from './batchUi';
import { createFileThread } from '../core/outputs/fileThread';

export interface BatchManagerDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  settings: Settings;
  clients: () => ClientSource;
  memory: EndpointMemory;
  endpointSources: EndpointSource[];
  durations: JobDurationModel;
  history: HistoryStore;
  outputs: WorkspaceOutputsWriter;
  /** Shows a job of a batch in its job panel (the record is put in the history first). */
  panels: { open(key: string, options?: { preserveFocus?: boolean }): void };
}

/** What a caller (a command, a test) may decide ahead instead of being asked. */
export interface StartOptions {
  endpointId?: string;
  /** Skip the bad inputs without asking (tests; the user is asked otherwise). */
  skipProblems?: boolean;
  /** The user already confirmed (tests; the user is asked above the setting otherwise). */
  confirmed?: boolean;
  /** Limits instead of the settings' (tests). */
  guards?: GuardLimits;
  concurrency?: number;
}

export const SEND = 'Send';

export class BatchManager implements vscode.Disposable {
  readonly sessions: BatchSession[] = [];
  private readonly startedEmitter = new vscode.EventEmitter<BatchSession>();
  /** A batch started or resumed in this window (the Jobs view lists it). */
  readonly onDidStart = this.startedEmitter.event;
  readonly problems = new BatchProblems();
  readonly ui: BatchUi;
  /** Every batch's job files go through one thread of ours (core/outputs/fileThread.ts, issue 30). */
  private readonly files: ReturnType<typeof createFileThread>;
  /** Batches of earlier windows shown read-only, by manifest path (closed with their panel). */
  private readonly past = new Map<string, BatchSession>();

  constructor(private readonly d: BatchManagerDeps) {
    this.files = createFileThread(path.join(d.extensionUri.fsPath, 'dist', 'fileWorker.js'), (m) => d.logger.warn(m));
    this.ui = new BatchUi(d);
    this.ui.resumePast = (manifestPath) => this.resume(manifestPath);
  }

  dispose(): void {
    this.files.stop();
    this.problems.dispose();
    this.startedEmitter.dispose();
    this.ui.dispose();
    for (const s of this.sessions.splice(0)) s.dispose();
    for (const s of this.past.values()) s.dispose();
    this.past.clear();
  }

  panelOf(session: BatchSession): BatchPanel | undefined {
    return this.ui.panelOf(session);
  }

  /** Reads, checks, confirms and starts a batch; undefined when nothing was sent (bad inputs, no endpoint, declined). */
  async start(source: BatchSource, anchor: vscode.Uri, options: StartOptions = {}): Promise<BatchSession | undefined> {
    const plan = await loadBatchInputs(source);
    this.problems.show(sourceFiles(source), plan.problems);
    if (plan.problems.length > 0 && !(options.skipProblems ?? (await this.problems.askToSkip(plan.problems, plan.items.length)))) return undefined;
    const items = plan.problems.length > 0 ? withoutProblems(plan) : plan.items;
    if (items.length === 0) {
      void vscode.window.showWarningMessage(`No inputs to send in ${vscode.workspace.asRelativePath(anchor)} (a folder batch takes its *.input.json files).`);
      return undefined;
    }
    const endpointId = options.endpointId ?? this.d.memory.endpointFor(anchor) ?? (await this.pickEndpoint(anchor));
    if (!endpointId) return undefined;
    await this.d.memory.rememberEndpoint(anchor, endpointId);
    const client = await this.client();
    if (!client) return undefined;
    const facts = await this.facts(client, endpointId, items.length, options);
    const title = vscode.workspace.asRelativePath(anchor);
    if (!(options.confirmed ?? (await this.confirm(`${items.length} jobs from ${title} to ${endpointId}`, facts, [])))) return undefined;

    const { batchId, dir } = await newBatchDir(path.join(this.d.outputs.rootFor(anchor.toString()).fsPath, 'batches'),
      `${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}-${path.basename(anchor.fsPath).replace(/[^\w.-]+/g, '_')}`);
    const header: ManifestHeader = {
      type: 'batch', version: MANIFEST_VERSION, batchId, endpointId, service: client.settings.jobsBaseUrl, createdAt: new Date().toISOString(),
      jobs: items.length, source, ...(plan.problems.length > 0 ? { skippedProblems: plan.problems.length } : {}),
    };
    return this.launch({ dir, title, client, items, header, facts, options });
  }

  /** Resumes being asked for, by manifest: a second ask while one is on its way is the same resume. */
  private readonly resuming = new Map<string, Promise<BatchSession | undefined>>();

  /**
   * Resumes a batch from its manifest: sent jobs followed by id, never sent twice; unsent ones sent. Once only: a
   * second Resume (the panel's clicked twice, the offer's beside it) while the first is asked or running gets the
   * same batch, never a second runner on the same manifest that would send its unsent jobs again.
   */
  resume(manifestPath: string, options: StartOptions = {}): Promise<BatchSession | undefined> {
    const live = this.sessions.find((s) => s.manifestPath === manifestPath && !s.finished);
    if (live) {
      this.ui.show(live);
      return Promise.resolve(live);
    }
    const asked = this.resuming.get(manifestPath);
    if (asked) return asked;
    const resumed = this.resumeOnce(manifestPath, options).finally(() => this.resuming.delete(manifestPath));
    this.resuming.set(manifestPath, resumed);
    return resumed;
  }

  private async resumeOnce(manifestPath: string, options: StartOptions): Promise<BatchSession | undefined> {
    const state = await readManifest(manifestPath);
    const header = state.header;
    if (!header?.source) {
      void vscode.window.showErrorMessage(`${manifestPath} does not say where its inputs came from: it cannot be resumed.`);
      return undefined;
    }
    const plan = await loadBatchInputs(header.source);
    const items = header.skippedProblems ? withoutProblems(plan) : plan.items;
    if (items.length !== header.jobs) {
      void vscode.window.showErrorMessage(`The batch's inputs changed since it began (${header.jobs} jobs then, ${items.length} now): it cannot be resumed safely.`);
      return undefined;
    }
    const client = await this.client();
    if (!client) return undefined;
    if (client.settings.jobsBaseUrl !== header.service) {
      void vscode.window.showErrorMessage(`This batch was sent to ${header.service}; the connection now points at ${client.settings.jobsBaseUrl}. Switch back to resume it.`);
      return undefined;
    }
    const changed = changedInputs(state, new Map(items.map((i) => [i.index, i.digest])));
    const facts = await this.facts(client, header.endpointId, items.length, options);
    const notes = changed.length ? [`${changed.length} unsent inputs changed since the batch began; they are sent as they are now.`] : [];
    if (!(options.confirmed ?? (await this.confirm(`Resume the batch of ${header.jobs} jobs on ${header.endpointId}`, facts, notes, false)))) return undefined;
    const title = batchTitle(header);
    // Its read-only panel (shown, or restored after the reload) is taken over by the resumed batch, so it stays in
    // the view it showed (a grid stays a grid, with its axes), in its place among the tabs.
    const past = this.past.get(manifestPath);
    const panel = past && this.ui.panelOf(past)?.release();
    return this.launch({ dir: path.dirname(manifestPath), title, client, items, header, facts, options, prior: state, ...(panel ? { panel } : {}) });
  }

  /**
   * Opens the panel of a batch of an earlier window, read-only (issue: past batches could be listed after a reload
   * but not reopened): its rows as its manifest left them, Export CSV, the grid and, when the connection is the
   * batch's service, the billed amount. Nothing is sent or written; an unfinished one has Resume (BatchUi.resume: the way of the offer's Resume Batch).
   */
  async showPast(manifestPath: string, restored?: vscode.WebviewPanel): Promise<BatchSession | undefined> {
    const live = this.sessions.find((s) => s.manifestPath === manifestPath) ?? this.past.get(manifestPath);
    if (live) {
      this.ui.show(live, restored);
      return live;
    }
    const state = await readManifest(manifestPath);
    const header = state.header;
    if (!header) {
      restored?.dispose();
      void vscode.window.showErrorMessage(`${manifestPath} has no batch header: it cannot be shown.`);
      return undefined;
    }
    // The runner the view is built on needs a client, though it sends nothing.
    const client = await this.client();
    if (!client) {
      restored?.dispose();
      return undefined;
    }
    const title = batchTitle(header);
    const ended = state.events.some((e) => e.event === 'finished') ? (state.events.some((e) => e.event === 'cancelled') ? 'cancelled' : 'finished') : 'unfinished';
    const manifest = await ManifestWriter.open(manifestPath);
    const session = new BatchSession({
      dir: path.dirname(manifestPath), title, client, items: [], header, prior: state, manifest, concurrency: 1,
      guards: {}, secrets: () => this.d.clients().secrets(), outputs: this.d.settings, readOnly: { ended },
    });
    this.past.set(manifestPath, session);
    const panel = this.ui.show(session, restored);
    panel.onDidClose(() => {
      this.past.delete(manifestPath);
      session.dispose();
    });
    // The bill of its hours, from the service it ran on only (another connection's billing is another account's).
    if (ended !== 'unfinished' && client.settings.jobsBaseUrl === header.service) void session.readBilled();
    return session;
  }

  private async launch(a: { dir: string; title: string; client: ServiceClient; items: BatchItem[]; header: ManifestHeader; facts: BatchPlanFacts; options: StartOptions; prior?: ManifestState; panel?: vscode.WebviewPanel }): Promise<BatchSession> {
    const manifest = await ManifestWriter.open(path.join(a.dir, MANIFEST_FILE));
    const clients = this.d.clients();
    const session = new BatchSession({
      dir: a.dir, title: a.title, client: a.client, items: a.items, header: a.header, manifest,
      ...(a.prior ? { prior: a.prior } : {}),
      concurrency: a.options.concurrency ?? a.facts.concurrency,
      ...(a.facts.price ? { price: a.facts.price } : {}),
      guards: a.options.guards ?? this.d.settings.batchGuards(),
      secrets: () => clients.secrets(),
      outputs: this.d.settings,
      files: this.files,
      durations: this.d.durations,
    });
    this.sessions.push(session);
    this.startedEmitter.fire(session);
    this.ui.show(session, a.panel);
    this.ui.follow(session, session.start());
    return session;
  }

  private async facts(client: ServiceClient, endpointId: string, jobs: number, options: StartOptions): Promise<BatchPlanFacts> {
    const reportedCosts = this.d.history.all().filter((r) => r.endpointId === endpointId && typeof r.cost === 'number').slice(0, 20).map((r) => r.cost!);
    return planBatch({
      client, endpointId, jobs, reportedCosts, durations: this.d.durations,
      concurrencySetting: options.concurrency ?? this.d.settings.batchConcurrency(),
      gpuPrices: this.d.settings.batchGpuPrices(),
    });
  }

  /**
   * The endpoint, the job count and the range, always asked (anything that spends money asks first: a re-run of a
   * folder whose range was under `batch.confirmAboveUsd` used to start at once, saying so only in the status bar).
   * Above that setting the question also warns that the batch may cost more.
   */
  private async confirm(what: string, facts: BatchPlanFacts, notes: string[], always = true): Promise<boolean> {
    const limit = this.d.settings.batchConfirmAboveUsd();
    const text = [`${what}, ${facts.concurrency} at a time. Estimated cost: ${rangeText(facts.range, facts.price)}.`, ...notes].join(' ');
    // A resume (`always` false) was asked for by the user's own Resume Batch on this very batch, whose sending
    // they confirmed when it started: it asks again only when it may cost more than the setting or its inputs
    // changed (a second question there also stopped the kill-and-resume test's resumes, which answered one).
    if (!always && facts.range && facts.range.highUsd <= limit && notes.length === 0) {
      void vscode.window.setStatusBarMessage(`$(run-all) ${text}`, 8000);
      return true;
    }
    const why = facts.range && facts.range.highUsd > limit ? ` It may cost more than ${formatUsd(limit)} (serverlessGpu.batch.confirmAboveUsd).` : '';
    const how = facts.range ? ` How: ${facts.range.how}.` : '';
    // A modal (issue 27 item 8): a toast that timed out left a batch that never started, and nothing said so.
    const send = await this.ui.confirm(text, `${why}${how}`.trim(), SEND);
    if (!send) void vscode.window.setStatusBarMessage('$(circle-slash) Batch not sent.', 8000);
    return send;
  }

  private async pickEndpoint(anchor: vscode.Uri): Promise<string | undefined> {
    return pickEndpoint({ title: `Endpoint for the batch ${vscode.workspace.asRelativePath(anchor)}`, used: this.d.memory.usedEndpoints(), sources: this.d.endpointSources });
  }

  private async client(): Promise<ServiceClient | undefined> {
    const client = await this.d.clients().getClient();
    if (!client) void vscode.window.showWarningMessage('Connect first (Set API Key, or Use Local Emulator): a batch needs the service.');
    return client;
  }
}

function sourceFiles(source: BatchSource): string[] {
  return source.kind === 'files' ? source.paths : source.kind === 'jsonl' ? [source.path] : [];
}


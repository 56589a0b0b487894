// One batch in this window: the core's runner (src/core/batch/batchRunner.ts) with its manifest open, the outputs
// of each completed job saved under the batch's folder by the single job's saver, and what the views need: the
// rows as they change, the first line of each text answer, and the batch's notice (a wait, a pause). The Batch
// panel and the progress notification listen; nothing here draws.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BatchRunner, batchName, rowsToCsv, type BatchTally, type BatchEvent, type BatchItem, type SavedBatchOutputs, type GuardLimits, type JobRow, type ManifestHeader, type ManifestState, type ManifestWriter } from '../core/batch';
import { billedAmount, checkBill, type BillCheck, type BilledAmount, type PricePerSecond } from '../core/cost';
import { parseOutputs } from '../core/outputs/outputs';
import { saveJobOutputs } from '../core/outputs/saveOutputs';
import type { SmallFileWriter } from '../core/outputs/fileThread';
import type { JobDurationModel } from '../core/jobs';
import type { Job } from '../core/schemas';
import type { ServiceClient } from '../core/service';
import type { JobOutputSettings } from '../jobs/jobOutputs';
import type { BatchSnapshot } from './batchSummary';

export type { BatchSnapshot } from './batchSummary';
import { countsText } from './batchSummary';


/** How often the views' one reading of the batch is renewed while it changes (the panel's beat too). */
export const SNAPSHOT_MS = 200;

export interface BatchSessionOptions {
  /** The batch's folder (manifest, outputs). */
  dir: string;
  title: string;
  client: ServiceClient;
  items: readonly BatchItem[];
  header: ManifestHeader;
  prior?: ManifestState;
  manifest: ManifestWriter;
  concurrency: number;
  price?: PricePerSecond;
  guards: GuardLimits;
  secrets: () => readonly string[];
  outputs: JobOutputSettings;
  /** Writes each job's small files in one request (core/outputs/fileThread.ts); absent, on this thread. */
  files?: SmallFileWriter;
  /** The editor's learned durations: batch jobs are followed as single jobs are, and teach it too. */
  durations?: JobDurationModel;
  /**
   * A batch of an earlier window, opened from the Jobs view or Show Batch Panel after a reload: its rows as the
   * manifest (`prior`) left them, never started, nothing sent or written; how it ended, from its manifest.
   */
  readOnly?: { ended: 'finished' | 'cancelled' | 'unfinished' };
}

export class BatchSession implements vscode.Disposable {
  readonly runner: BatchRunner;
  readonly batchId: string;
  readonly endpointId: string;
  private readonly rowEmitter = new vscode.EventEmitter<JobRow>();
  /** A row changed (each change, in order). */
  readonly onDidChangeRow = this.rowEmitter.event;
  private readonly stateEmitter = new vscode.EventEmitter<void>();
  /** The notice, the pause or the running state changed. */
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly pauseEmitter = new vscode.EventEmitter<BatchEvent & { kind: 'paused' }>();
  readonly onDidPause = this.pauseEmitter.event;
  private readonly snapshotEmitter = new vscode.EventEmitter<BatchSnapshot>();
  /** A new reading of the batch (at most once per SNAPSHOT_MS while it changes, and at once when a run ends). */
  readonly onDidChangeSnapshot = this.snapshotEmitter.event;
  private snap: BatchSnapshot;
  private beat: ReturnType<typeof setTimeout> | undefined;
  private working = false;
  private currentLimits: GuardLimits;
  /** What the billing route said about the batch's hours, once it ended (undefined before, or if it could not say). */
  billed: BilledAmount | undefined;
  /** The bill against the rows' estimate, when they differ by more than 25% (read with `billed`). */
  billCheck: BillCheck | undefined;

  constructor(readonly o: BatchSessionOptions) {
    this.batchId = o.header.batchId;
    this.endpointId = o.header.endpointId;
    this.currentLimits = o.guards;
    this.runner = new BatchRunner({
      client: o.client,
      endpointId: o.header.endpointId,
      items: o.items,
      manifest: o.manifest,
      header: o.header,
      ...(o.prior ? { prior: o.prior } : {}),
      concurrency: o.concurrency,
      ...(o.price ? { price: o.price } : {}),
      guards: o.guards,
      onEvent: (e) => this.onEvent(e),
      saveOutputs: (item, job) => this.save(item, job),
      ...(o.durations ? { wait: { durations: o.durations } } : {}),
    });
    if (o.readOnly && o.prior) this.runner.showRows(o.prior);
    this.snap = this.read();
    this.runner.life.onChange(() => this.stateEmitter.fire());
    this.onDidChangeRow(() => this.changed());
    this.onDidChangeState(() => this.changed());
  }

  /** The reading every view of this beat shows. */
  get snapshot(): BatchSnapshot {
    return this.snap;
  }

  private changed(): void {
    this.beat ??= setTimeout(() => this.renew(), SNAPSHOT_MS);
  }

  /** A new reading now (the end of a run: its last words must not wait for the beat). */
  renew(): void {
    if (this.beat) clearTimeout(this.beat);
    this.beat = undefined;
    this.snap = this.read();
    this.snapshotEmitter.fire(this.snap);
  }

  private read(): BatchSnapshot {
    const life = this.runner.life;
    const t = this.runner.tally;
    const past = this.o.readOnly;
    // Shown, not run: no button that sends or stops. An unfinished one has Resume: it goes the way the offer's Resume
    // Batch goes (BatchManager.resume: it asks first, then a live batch takes this panel over), so a user who missed
    // the offer's toast is not left without a way on.
    if (past) return { tally: { ...t }, state: past.ended === 'cancelled' ? 'cancelled' : 'finished', notice: this.notice, canPause: false, canResume: past.ended === 'unfinished', canCancel: false, canRetryFailed: false, active: false };
    return {
      tally: { ...t }, state: life.state.kind, notice: this.notice,
      canPause: life.canPause, canResume: life.canResume, canCancel: life.canCancel, canRetryFailed: life.canRetryFailed(t.failed) && !this.working,
      active: life.active || this.working,
    };
  }

  /** "batch (started 08:45:26)": what the user ran and when, telling two runs of one folder apart (tabs, picks, rows). */
  get name(): string {
    return batchName(this.o.title, this.o.header.createdAt);
  }

  get manifestPath(): string {
    return path.join(this.o.dir, 'batch.jsonl');
  }

  /** Whether jobs are still being sent or followed (false once idle: done, or cancelled). */
  get running(): boolean {
    return this.working;
  }

  /** Why the batch waits (a 429, the service down), is paused or was cancelled, in words (its life's); undefined when it just runs. */
  get notice(): string | undefined {
    const past = this.o.readOnly;
    if (past) return `A batch of an earlier window, shown as its manifest left it${past.ended === 'cancelled' ? ' (cancelled)' : past.ended === 'unfinished' ? ' (unfinished: Resume sends the rest, and follows the sent jobs by id)' : ''}.`;
    const s = this.runner.life.state;
    if (s.kind === 'waiting') return Date.now() < s.until ? s.message : undefined;
    if (s.kind === 'paused' || s.kind === 'cancelling' || s.kind === 'cancelled' || (s.kind === 'finished' && s.afterPause)) return this.runner.life.words;
    return undefined;
  }

  rows(): JobRow[] {
    return this.runner.rowList();
  }

  /** The batch has ended (finished, or cancelled): nothing is still to send or to follow. */
  get finished(): boolean {
    if (this.o.readOnly) return true;
    const k = this.runner.life.state.kind;
    return k === 'finished' || k === 'cancelled';
  }

  /** The counts and the spend, kept by the runner's rows as they change. */
  tally(): Readonly<BatchTally> {
    return this.runner.tally;
  }

  /** Starts (or resumes) the batch; resolves once nothing is left to send or follow. */
  start(): Promise<void> {
    return this.track(this.runner.start());
  }

  retryFailed(): Promise<void> {
    return this.track(this.runner.retryFailed());
  }

  cancel(): Promise<void> {
    return this.track(this.runner.cancel());
  }

  /** Resolves when no slot works any more (done, or all that is left waits for a resume). */
  untilIdle(): Promise<void> {
    return this.runner.whenIdle();
  }

  /** The rows whose /run answer was lost: their job may or may not exist on the service. */
  unknownRows(): JobRow[] {
    return this.rows().filter((r) => r.phase === 'unknown');
  }

  /** Sends the unknown rows' inputs again: only ever the user's explicit choice (each may now run twice). */
  resendUnknown(): Promise<void> {
    return this.track(this.runner.resendUnknown(this.unknownRows().map((r) => r.index)));
  }

  pause(): void {
    this.runner.pause('Paused from the Batch panel.');
    this.stateEmitter.fire();
  }

  /** The guards' limits now (the settings', or raised since by the user). */
  get limits(): GuardLimits {
    return this.currentLimits;
  }

  resume(limits?: GuardLimits): void {
    if (limits) this.currentLimits = limits;
    const idle = !this.working;
    this.runner.resume(limits);
    // A resume with nothing to send ends the batch at once: its end is written and its bill read as any end's.
    if (idle && this.finished) void this.track(Promise.resolve());
    this.stateEmitter.fire();
  }

  /** The table as CSV, ending with the total the header says (the same tally). */
  csv(): string {
    // The reading the header shows now (the same beat), so the total line says what the panel says.
    this.renew();
    const t = this.snapshot.tally;
    return rowsToCsv(this.rows(), { counts: countsText(t), usd: t.usd, estimated: t.estimated > 0 });
  }

  dispose(): void {
    this.runner.dispose();
    this.rowEmitter.dispose();
    this.stateEmitter.dispose();
    this.pauseEmitter.dispose();
    this.snapshotEmitter.dispose();
    if (this.beat) clearTimeout(this.beat);
    void this.o.manifest.close();
  }

  private async track(work: Promise<void>): Promise<void> {
    this.working = true;
    this.stateEmitter.fire();
    try {
      await work;
    } finally {
      this.working = false;
      if (this.finished) await this.o.manifest.write({ type: 'event', at: Date.now(), event: 'finished' }).catch(() => undefined);
      this.renew();
      this.stateEmitter.fire();
      if (this.finished) void this.readBilled();
    }
  }

  /** The billed amount beside the estimate: one billing request after the batch, over the hours its jobs ran. */
  async readBilled(): Promise<void> {
    const rows = this.rows().filter((r) => r.submittedAt !== undefined);
    if (rows.length === 0) return;
    const from = Math.min(...rows.map((r) => r.submittedAt!));
    const to = Math.max(...rows.map((r) => r.endedAt ?? r.at));
    try {
      this.billed = await billedAmount(this.o.client, this.endpointId, from, to);
      const t = this.tally();
      // Only an estimate can be off: reported costs are the service's own.
      this.billCheck = t.estimated > 0 ? checkBill(this.billed.usd, t.usd, { endpointId: this.endpointId, cancelled: this.snapshot.state === 'cancelled' }) : undefined;
      this.stateEmitter.fire();
    } catch {
      // No billing scope, or the service cannot say yet: the estimate stays the only figure, as it is labelled.
    }
  }

  private onEvent(e: BatchEvent): void {
    switch (e.kind) {
      case 'row':
        this.rowEmitter.fire(e.row);
        return;
      case 'wait':
        break;
      case 'paused':
        this.pauseEmitter.fire(e);
        break;
      default:
        break;
    }
    this.stateEmitter.fire();
  }

  /** A completed job's outputs, under the batch's folder, by the single job's saver; the first line of its text. */
  private async save(item: BatchItem, job: Job): Promise<SavedBatchOutputs> {
    const secrets = this.o.secrets();
    const parts = parseOutputs(job.output, { secrets });
    const text = parts.find((p) => p.kind === 'text' || p.kind === 'transcript');
    const firstLine = text && 'text' in text ? text.text.trim().split('\n')[0]!.slice(0, 200) : undefined;
    const saved = await saveJobOutputs({
      dir: this.o.dir,
      endpointId: this.endpointId,
      job,
      input: item.input,
      ...(item.ref.line === undefined ? { inputFile: item.ref.file } : {}),
      parts,
      download: this.o.outputs.downloadOutputs(),
      maxDownloadBytes: this.o.outputs.maxDownloadBytes(),
      downloadTimeoutMs: this.o.outputs.downloadTimeoutMs(),
      secrets,
      ...(this.o.files ? { files: this.o.files } : {}),
    });
    return { files: saved.files.map((f) => f.path), ...(firstLine !== undefined ? { firstLine } : {}) };
  }
}

// A batch run (issue 23 "Running", docs/batches.md): N jobs in flight, each submitted once and followed to its
// end as a single job is, every change written to the manifest as it happens; Pause/Resume, Cancel (on the
// service), Retry Failed, the spend and failure guards, and a resume that follows what was already sent.
// The slots pull work from one list; a submission passes the gate (batchGate.ts) first, a follow never does.
import { ForbiddenError, UnauthorizedError } from '../http/errors';
import { systemClock, type Clock } from '../http/clock';
import { isTerminalStatus, type Job } from '../schemas';
import type { ServiceClient } from '../service';
import type { WaitOptions } from '../jobs/waitForJob';
import { cancelJob, retryJob } from '../jobs/jobControl';
import type { BatchItem } from './batchInputs';
import { BatchGate, type PauseReason, type WaitReason } from './batchGate';
import { BatchRows } from './batchRows';
import type { BatchTally } from './batchTally';
import { BatchGuards, type GuardLimits } from './guards';
import { followBatchJob } from './followBatchJob';
import type { PricePerSecond } from '../cost/jobCost';
import { FAILED_STATUSES, jobEnd, type SavedBatchOutputs } from './jobEnd';
import { countPhases, type ManifestState, type ManifestWriter } from './manifestFile';
import type { JobRow, ManifestHeader, RowPhase } from './manifestFormat';
import { retryableOnService } from './retryRoute';
import { startRows, type Work } from './startRows';
import { SendingLine } from './sendingLine';
import { classifySubmitFailure } from './submitOutcome';

export type BatchEvent =
  | { kind: 'row'; row: JobRow }
  | { kind: 'wait'; reason: WaitReason; until: number; message: string }
  | { kind: 'paused'; reason: PauseReason; message: string }
  | { kind: 'resumed' }
  | { kind: 'idle'; counts: Record<RowPhase, number> };

export interface BatchRunnerOptions {
  client: ServiceClient;
  endpointId: string;
  /** Every input of the batch, by index (a resume expands the same sources again). */
  items: readonly BatchItem[];
  manifest: ManifestWriter;
  /** Written first for a new batch; a resumed one has it in `prior`. */
  header: ManifestHeader;
  /** What the manifest said when the batch is resumed. */
  prior?: ManifestState;
  concurrency: number;
  price?: PricePerSecond;
  guards?: GuardLimits;
  clock?: Clock;
  onEvent?: (e: BatchEvent) => void;
  /** Saves a COMPLETED job's outputs (the editor's saveOutputs, under the batch folder): the files, the first line. */
  saveOutputs?: (item: BatchItem, job: Job) => Promise<SavedBatchOutputs>;
  wait?: Pick<WaitOptions, 'durations' | 'routeSupport' | 'statusSyncWaitMs'>;
  /** Between two follows of a job while the service does not answer (default 2 s). */
  retryMs?: number;
  /** Between two probes before sending again while the service is down (default SERVICE_DOWN_PROBE_MS). */
  probeMs?: number;
}

export class BatchRunner {
  private readonly clock: Clock;
  private readonly rows: BatchRows;
  private readonly gate: BatchGate;
  private readonly guards: BatchGuards;
  private readonly work: Work[] = [];
  private slots = 0;
  /** Slots working on an item (the others are about to take one, or to stop). */
  private busy = 0;
  private unlisten: (() => void) | undefined;
  private idleWaiters: Array<() => void> = [];
  private cancelled = false;
  private readonly retryMs: number;

  constructor(private readonly o: BatchRunnerOptions) {
    this.clock = o.clock ?? systemClock;
    this.retryMs = o.retryMs ?? 2000;
    const emit = (e: BatchEvent): void => o.onEvent?.(e);
    this.rows = new BatchRows(o.manifest, this.clock, (row) => emit({ kind: 'row', row }));
    this.guards = new BatchGuards(o.guards ?? {});
    this.gate = new BatchGate(o.client, o.endpointId, this.clock, {
      onWait: (reason, until, message) => emit({ kind: 'wait', reason, until, message }),
      onPause: (reason, message) => {
        void o.manifest.write({ type: 'event', at: this.clock.now(), event: 'paused', reason: message }).catch(() => undefined);
        emit({ kind: 'paused', reason, message });
      },
    }, o.probeMs);
  }

  /** Starts (or resumes) the batch; resolves when no work is left (a paused batch with jobs to send is not done). */
  async start(): Promise<void> {
    const { prior, items } = this.o;
    if (prior?.header && prior.header.service !== this.o.header.service) {
      throw new Error(`This batch was sent to ${prior.header.service}, not ${this.o.header.service}: its jobs cannot be followed here.`);
    }
    if (!prior?.header) await this.o.manifest.write(this.o.header);
    this.unlisten ??= this.gate.forwardClientWaits();
    this.work.push(...(await startRows(this.rows, this.guards, items, prior, () => this.clock.now())));
    this.ensureSlots();
    return this.whenIdle();
  }

  /** Stops listening to the client (the batch is closed; its runner is not used again). */
  dispose(): void {
    this.unlisten?.();
    this.unlisten = undefined;
  }

  get paused(): { reason: PauseReason; message: string } | undefined {
    return this.gate.paused;
  }

  get spentUsd(): number {
    return this.guards.spentUsd;
  }

  rowList(): JobRow[] {
    return [...this.rows.all()];
  }

  /** The counts and spend of the rows, kept as they change (read it; do not change it). */
  get tally(): Readonly<BatchTally> {
    return this.rows.tally;
  }

  pause(message = 'Paused.'): void {
    this.gate.pause('user', message);
  }

  /** Resumes submissions; new `limits` replace the guards' (after "raise the limit"); the failure streak starts again. */
  resume(limits?: GuardLimits): void {
    this.guards.resumed(limits);
    if (!this.gate.resume()) return;
    void this.o.manifest.write({ type: 'event', at: this.clock.now(), event: 'resumed' }).catch(() => undefined);
    this.o.onEvent?.({ kind: 'resumed' });
  }

  /** Resolves when every slot has stopped (all work done, or everything left waits for a resume). */
  whenIdle(): Promise<void> {
    if (this.slots === 0 && this.work.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops sending; cancels every job queued or running on the service; unsent rows become `skipped`. */
  async cancel(): Promise<void> {
    if (this.cancelled) return this.whenIdle();
    this.cancelled = true;
    this.gate.close();
    // Cancel works even when the manifest cannot be written any more (it is what the user does then).
    const ignore = (): undefined => undefined;
    await this.o.manifest.write({ type: 'event', at: this.clock.now(), event: 'cancelled' }).catch(ignore);
    for (const w of this.work.splice(0)) {
      if (w.action === 'follow') this.work.push(w);
      // A failed job not retried stays failed, an unknown one unknown: only what was never sent is skipped.
      else if (this.rows.get(w.index).phase === 'pending') await this.rows.update(w.index, { phase: 'skipped' }).catch(ignore);
    }
    const running = this.rowList().filter((r) => r.phase === 'active' && r.jobId);
    await Promise.all(running.map((r) => this.cancelOnService(r.index)));
    this.ensureSlots();
    return this.whenIdle();
  }

  /** Runs the failed jobs again: /retry within the retention window, else a new submission. */
  retryFailed(): Promise<void> {
    this.guards.setLimits(this.o.guards ?? {});
    for (const r of this.rows.all()) if (r.phase === 'ended' && FAILED_STATUSES.has(r.status ?? '')) this.work.push({ index: r.index, action: 'retry' });
    this.ensureSlots();
    return this.whenIdle();
  }

  /** The user chose to send again jobs whose /run answer was lost (they may now exist twice). */
  resendUnknown(indices: readonly number[]): Promise<void> {
    for (const i of indices) if (this.rows.get(i).phase === 'unknown') this.work.push({ index: i, action: 'submit' });
    this.ensureSlots();
    return this.whenIdle();
  }

  private ensureSlots(): void {
    while (this.slots < Math.max(1, this.o.concurrency) && this.work.length > this.slots - this.busy) {
      this.slots++;
      void this.slot().finally(() => {
        this.slots--;
        if (this.work.length > 0 && !this.gate.paused) this.ensureSlots();
        if (this.slots === 0) this.settle();
      });
    }
    if (this.slots === 0) this.settle();
  }

  private settle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    this.o.onEvent?.({ kind: 'idle', counts: countPhases({ rows: new Map([...this.rows.all()].map((r) => [r.index, r])) }) });
    for (const w of waiters) w();
  }

  private async slot(): Promise<void> {
    for (let w = this.work.shift(); w; w = this.work.shift()) {
      this.busy++;
      try {
        if (w.action === 'follow') await this.follow(w.index);
        else if (w.action === 'retry') await this.retry(w.index);
        else await this.submitAndFollow(w.index);
      } catch (e) {
        await this.stopOnError(w.index, e);
      } finally {
        this.busy--;
      }
    }
  }

  private async submitAndFollow(index: number): Promise<void> {
    if (!(await this.gate.pass())) {
      if (this.rows.get(index).phase === 'pending') await this.rows.update(index, { phase: 'skipped' });
      return;
    }
    const job = await this.submit(index);
    if (job) await this.follow(index, job);
  }

  /** One /run. Returns the accepted job, or undefined (requeued, paused, rejected or unknown: see submitOutcome.ts). */
  private async submit(index: number): Promise<Job | undefined> {
    const item = this.o.items[index]!;
    const row = this.rows.get(index);
    const previous = row.jobId ? [...(row.previousJobIds ?? []), row.jobId] : row.previousJobIds;
    // `submitting` is written at the last moment before the request's first byte leaves (sendingLine.ts): a crash
    // after it leaves `submitting`, which a resume turns into `unknown` rather than send it twice.
    const line = new SendingLine(
      () => this.rows.update(index, { phase: 'submitting', digest: item.digest, previousJobIds: previous, jobId: undefined, status: undefined, error: undefined, endedAt: undefined, cost: undefined, outputs: undefined }, { now: true }),
      () => this.cancelled || this.gate.paused !== undefined,
    );
    const submittedAt = this.clock.now();
    try {
      // No abort signal: a /run cut off mid-way is a job that may exist. Cancel waits for its answer instead.
      const job = await this.o.client.run(this.o.endpointId, item.input, { ...(item.request ? { request: item.request } : {}), onSending: line.hook });
      await this.rows.update(index, { phase: 'active', jobId: job.id, status: job.status, submittedAt });
      if (this.cancelled) await this.cancelOnService(index);
      return job;
    } catch (e) {
      if (line.heldBack) {
        if (!this.cancelled && !this.gate.paused) throw line.stopped; // the manifest failed: stopOnError puts it back
        if (this.cancelled) await this.rows.update(index, { phase: 'skipped' });
        else this.work.unshift({ index, action: 'submit' });
        return undefined;
      }
      const f = classifySubmitFailure(e, line.sent);
      if (f.kind === 'rateLimited' || f.kind === 'notSent' || f.kind === 'auth') {
        await this.rows.update(index, { phase: 'pending', error: f.message });
        this.work.unshift({ index, action: 'submit' });
        if (f.kind === 'rateLimited') this.gate.hold(f.retryAfterMs, 'rateLimited', f.message);
        else if (f.kind === 'notSent') this.gate.markDown(f.message);
        else this.gate.pause('auth', f.message);
        return undefined;
      }
      if (f.kind === 'rejected') {
        await this.end(index, { phase: 'ended', status: 'REJECTED', error: f.message, endedAt: this.clock.now() }, 0, true);
        return undefined;
      }
      await this.rows.update(index, { phase: 'unknown', error: `The answer to /run was lost (${f.message}); the job may exist on the service, so it is not resent by itself.` });
      if (f.serviceDown) this.gate.markDown(f.message);
      return undefined;
    }
  }

  private async follow(index: number, initial?: Job): Promise<void> {
    const row = this.rows.get(index);
    const end = await followBatchJob({
      client: this.o.client,
      endpointId: this.o.endpointId,
      jobId: row.jobId!,
      clock: this.clock,
      ...(initial ? { initial } : {}),
      ...(row.submittedAt !== undefined ? { submittedAt: row.submittedAt } : {}),
      wait: this.o.wait ?? {},
      retryMs: this.retryMs,
      hooks: {
        onStatus: (job) => {
          if (!isTerminalStatus(job.status)) void this.rows.update(index, { status: job.status, delayTime: job.delayTime });
        },
        onAuthFailure: async (message) => {
          this.gate.pause('auth', message);
          await this.untilResumed();
        },
        onServiceDown: (message) => this.gate.markDown(message),
      },
    });
    if (end.kind === 'lost') {
      await this.rows.update(index, { phase: 'lost', error: end.message });
      return;
    }
    await this.finish(index, end.job);
  }

  private async finish(index: number, job: Job): Promise<void> {
    const { change, usd, failed } = await jobEnd(job, this.o.items[index]!, this.clock.now(), this.o.price, this.o.saveOutputs);
    await this.end(index, change, usd, failed);
  }

  private async end(index: number, change: Partial<JobRow>, usd: number, failed: boolean): Promise<void> {
    const row = await this.rows.update(index, change);
    const trip = this.guards.noteEnd(this.clock.now(), usd, failed, row.error);
    if (trip && !this.cancelled) this.gate.pause(trip.kind, trip.message);
  }

  private async retry(index: number): Promise<void> {
    const row = this.rows.get(index);
    const fresh = retryableOnService(row, this.clock.now());
    if (fresh && (await this.gate.pass())) {
      try {
        const outcome = await retryJob(this.o.client, this.o.endpointId, row.jobId!);
        if (outcome.kind === 'retried') {
          await this.rows.update(index, { phase: 'active', status: outcome.response.status, retries: (row.retries ?? 0) + 1, submittedAt: this.clock.now(), endedAt: undefined, error: undefined, cost: undefined });
          return this.follow(index);
        }
      } catch (e) {
        if (e instanceof UnauthorizedError || e instanceof ForbiddenError) {
          this.gate.pause('auth', e.message);
          this.work.unshift({ index, action: 'retry' });
          return;
        }
        // Anything else (the job expired, the service refused): a new submission below.
      }
    }
    await this.rows.update(index, { phase: 'pending' });
    return this.submitAndFollow(index);
  }

  /**
   * Something that is not the service's doing failed (the manifest could not be written: a full disk, a removed
   * folder): the batch cannot stay durable, so it pauses with the reason, and the job is put back where it was.
   */
  private async stopOnError(index: number, e: unknown): Promise<void> {
    this.gate.pause('error', `The batch stopped: ${e instanceof Error ? e.message : String(e)}`);
    const phase = this.rows.get(index).phase;
    if (phase === 'active') this.work.unshift({ index, action: 'follow' });
    else if (phase === 'pending') this.work.unshift({ index, action: 'submit' });
    else if (phase === 'submitting') await this.rows.update(index, { phase: 'unknown', error: 'The batch stopped while this job was being sent; it may have been created.' }).catch(() => undefined);
  }

  private async cancelOnService(index: number): Promise<void> {
    const row = this.rows.get(index);
    if (!row.jobId) return;
    try {
      await cancelJob(this.o.client, this.o.endpointId, row.jobId);
    } catch (e) {
      await this.rows.update(index, { error: `Cancel failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  private untilResumed(): Promise<void> {
    return this.gate.pass().then(() => undefined);
  }
}

// A batch run (issue 23 "Running", docs/batches.md): N jobs in flight, each submitted once and followed to its
// end as a single job is, every change written to the manifest as it happens; Pause/Resume, Cancel (on the
// service), Retry Failed, the spend and failure guards, and a resume that follows what was already sent.
// The slots pull work from one list; a submission passes the gate (batchGate.ts) first, a follow never does.
// What may happen next is the batch's life's (batchLife.ts): this file asks it, and tells it what happened.
import { ForbiddenError, UnauthorizedError } from '../http/errors';
import { systemClock, type Clock } from '../http/clock';
import { isTerminalStatus, type Job } from '../schemas';
import { cancelJob, retryJob } from '../jobs/jobControl';
import { durationKey } from '../jobs/durationModel';
import { BatchGate, type PauseReason } from './batchGate';
import { BatchRows } from './batchRows';
import type { BatchTally } from './batchTally';
import { BatchGuards, nextJobUsd, type GuardLimits } from './guards';
import { BatchLife } from './batchLife';
import { LoopTurns } from './loopTurns';
import { watchBatchQueue, type QueueWatch } from './queueWatch';
import { newAttempt } from './rowCost';
import { followBatchJob } from './followBatchJob';
import { FAILED_STATUSES, jobEnd } from './jobEnd';
import { countPhases, type ManifestState } from './manifestFile';
import type { JobRow } from './manifestFormat';
import type { BatchEvent, BatchRunnerOptions } from './runnerOptions';
export type { BatchEvent, BatchRunnerOptions } from './runnerOptions';
import { retryableOnService } from './retryRoute';
import { startRows, type Work } from './startRows';
import { submitRow } from './submission';

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
  /** Slots on their way to a /run (between taking a submission and sending it): work still to send. */
  private sending = 0;
  private readonly retryMs: number;
  /** One step of one slot per turn of the event loop (loopTurns.ts). */
  private readonly turns = new LoopTurns();
  /** The batch's own life: sending, waiting, paused, cancelled, finished (batchLife.ts). */
  readonly life = new BatchLife();
  private readonly queue: QueueWatch | undefined;

  constructor(private readonly o: BatchRunnerOptions) {
    this.clock = o.clock ?? systemClock;
    this.retryMs = o.retryMs ?? 2000;
    const emit = (e: BatchEvent): void => o.onEvent?.(e);
    this.rows = new BatchRows(o.manifest, this.clock, (row) => emit({ kind: 'row', row }));
    this.guards = new BatchGuards(o.guards ?? {});
    this.gate = new BatchGate(o.client, o.endpointId, this.clock, this.life, {
      onWait: (reason, until, message) => emit({ kind: 'wait', reason, until, message }),
      onPause: (reason, message) => {
        void o.manifest.write({ type: 'event', at: this.clock.now(), event: 'paused', reason: message }).catch(() => undefined);
        const s = this.life.state;
        emit({ kind: 'paused', reason, message, id: s.kind === 'paused' ? s.id : 0 });
      },
    }, o.probeMs);
    this.queue = o.queueWatchMs === 0 ? undefined : watchBatchQueue(o, this.clock, this.rows, () => this.gate.serviceDown);
  }

  /** Starts (or resumes) the batch; resolves when no work is left (a paused batch with jobs to send is not done). */
  async start(): Promise<void> {
    const { prior, items } = this.o;
    if (prior?.header && prior.header.service !== this.o.header.service) {
      throw new Error(`This batch was sent to ${prior.header.service}, not ${this.o.header.service}: its jobs cannot be followed here.`);
    }
    // At once, before any await: a Pause right after the start is a pause of this batch, not refused as too early.
    this.life.start(prior?.header ? 'resumed' : 'first');
    if (!prior?.header) await this.o.manifest.write(this.o.header);
    this.unlisten ??= this.gate.forwardClientWaits();
    this.work.push(...(await startRows(this.rows, this.guards, items, prior, () => this.clock.now())));
    this.ensureSlots();
    return this.whenIdle();
  }

  /** A batch of an earlier window, shown and never run: its rows as its manifest left them (nothing written). */
  showRows(prior: ManifestState): void {
    for (const row of prior.rows.values()) this.rows.adopt(row);
  }

  /** Stops listening to the client (the batch is closed; its runner is not used again). */
  dispose(): void {
    this.queue?.stop();
    this.unlisten?.();
    this.unlisten = undefined;
  }

  get paused(): { reason: PauseReason; message: string } | undefined {
    return this.gate.paused;
  }

  /** What every attempt of the batch cost so far (the tally's: one number for every view). */
  get spentUsd(): number {
    return this.rows.tally.usd;
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
    // Nothing to send and nothing followed: the resume finishes the batch (it stayed "Running" with Pause and
    // Cancel Batch offered, and Cancel asked to cancel 0 jobs).
    if (this.slots === 0) this.ensureSlots();
  }

  /** Resolves when every slot has stopped (all work done, or everything left waits for a resume). */
  whenIdle(): Promise<void> {
    if (this.slots === 0 && this.work.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops sending; cancels every job queued or running on the service; unsent rows become `skipped`. */
  async cancel(): Promise<void> {
    if (!this.life.cancel()) return this.whenIdle();
    this.gate.close();
    // Cancel works even when the manifest cannot be written any more (it is what the user does then).
    const ignore = (): undefined => undefined;
    await this.o.manifest.write({ type: 'event', at: this.clock.now(), event: 'cancelled' }).catch(ignore);
    // Every unsent row is marked at once, nothing awaited in between: a slot finding the work empty meanwhile ends
    // the batch, and rows marked one write at a time read "not sent yet" in a batch already Cancelled (seen under load).
    const left = this.work.splice(0);
    this.work.push(...left.filter((w) => w.action === 'follow'));
    // A failed job not retried stays failed, an unknown one unknown: only what was never sent is skipped.
    const unsent = left.filter((w) => w.action !== 'follow' && this.rows.get(w.index).phase === 'pending');
    await Promise.all(unsent.map((w) => this.rows.update(w.index, { phase: 'skipped' }).catch(ignore)));
    const running = this.rowList().filter((r) => r.phase === 'active' && r.jobId);
    await Promise.all(running.map((r) => this.cancelOnService(r.index)));
    this.ensureSlots();
    return this.whenIdle();
  }

  /**
   * Runs the failed jobs again (after the end or after a cancel alike): /retry within the retention window, else a
   * new submission. A failed row stays failed until its new attempt is on its way.
   */
  retryFailed(): Promise<void> {
    if (!this.life.rerun('retryFailed')) return this.whenIdle();
    this.gate.reopen();
    this.guards.setLimits(this.o.guards ?? {});
    for (const r of this.rows.all()) if (r.phase === 'ended' && FAILED_STATUSES.has(r.status ?? '')) this.work.push({ index: r.index, action: 'retry' });
    this.ensureSlots();
    return this.whenIdle();
  }

  /** The user chose to send again jobs whose /run answer was lost (they may now exist twice). */
  resendUnknown(indices: readonly number[]): Promise<void> {
    if (!this.life.rerun('resendUnknown')) return this.whenIdle();
    this.gate.reopen();
    for (const i of indices) if (this.rows.get(i).phase === 'unknown') this.work.push({ index: i, action: 'submit' });
    this.ensureSlots();
    return this.whenIdle();
  }

  private ensureSlots(): void {
    if (this.work.length > 0) this.queue?.start();
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
    this.queue?.stop();
    // A paused batch with work still to send waits for its resume; with none left, it has ended (batchLife.ts).
    if (!(this.life.paused && this.work.length > 0)) this.life.idle();
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
    if (!(await this.maySend())) {
      if (this.life.closed && this.rows.get(index).phase === 'pending') await this.rows.update(index, { phase: 'skipped' });
      return;
    }
    const job = await this.submit(index);
    if (job) await this.follow(index, job);
  }

  /**
   * Waits at the gate, then checks the spend limits with this job counted: false when the batch was cancelled, or
   * when this job could take it past a limit (the batch pauses, the job goes back to the head of the work).
   */
  private async maySend(): Promise<boolean> {
    this.sending++;
    try {
      await this.turns.next();
      for (;;) {
        if (!(await this.gate.pass())) return false;
        const t = this.rows.tally;
        // The jobs on the service and this one, each at the estimate of a job of this batch: committed money.
        const trip = this.guards.beforeSend(this.clock.now(), t.usd, (t.running + 1) * this.jobEstimateUsd());
        if (!trip) return true;
        this.gate.pause(trip.kind, trip.message);
      }
    } finally {
      this.sending--;
    }
  }

  /** The learned duration is asked for only where it decides: it sorts the endpoint's samples (issue 30). */
  private jobEstimateUsd(t = this.rows.tally): number {
    return nextJobUsd(t, this.o.price, t.priced === 0 && this.o.price ? this.o.wait?.durations?.estimate(durationKey(this.o.client.settings.jobsBaseUrl, this.o.endpointId)) : undefined);
  }

  /** Work that would still send a job (a guard's pause means nothing once every job was sent). */
  private hasWorkToSend(): boolean {
    return this.sending > 0 || this.work.some((w) => w.action !== 'follow');
  }

  /** One /run (submission.ts); a job accepted after a cancel began is cancelled at once. */
  private async submit(index: number): Promise<Job | undefined> {
    const job = await submitRow({ o: this.o, rows: this.rows, gate: this.gate, clock: this.clock, closed: () => this.life.closed, requeue: (w) => this.work.unshift(w), end: (i, change) => this.end(i, change, 0, true) }, index);
    if (job && this.life.closed) await this.cancelOnService(index);
    return job;
  }

  private async follow(index: number, initial?: Job): Promise<void> {
    await this.turns.next();
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
          const now = this.rows.get(index);
          if (isTerminalStatus(job.status) || (now.status === job.status && now.delayTime === job.delayTime)) return;
          void this.rows.update(index, { status: job.status, delayTime: job.delayTime });
        },
        onAuthFailure: async (message) => {
          this.gate.pause('auth', message);
          await this.gate.pass();
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
    // A streak pauses only what is still to send: a batch whose every job was sent has nothing to stop.
    if (trip && this.hasWorkToSend()) this.gate.pause(trip.kind, trip.message);
  }

  /** A failed row's new attempt; the row stays failed (never "pending", never skipped by a cancel) until it goes. */
  private async retry(index: number): Promise<void> {
    if (!(await this.maySend())) return;
    const row = this.rows.get(index);
    if (retryableOnService(row, this.clock.now())) {
      try {
        const outcome = await retryJob(this.o.client, this.o.endpointId, row.jobId!);
        if (outcome.kind === 'retried') {
          await this.rows.update(index, { phase: 'active', status: outcome.response.status, retries: (row.retries ?? 0) + 1, submittedAt: this.clock.now(), endedAt: undefined, error: undefined, delayTime: undefined, executionTime: undefined, ...newAttempt(row) });
          if (this.life.closed) await this.cancelOnService(index);
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
    const job = await this.submit(index);
    if (job) await this.follow(index, job);
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
}

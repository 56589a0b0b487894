// The job runner: starts jobs, follows each until it ends (several at once, each cancellable), saves its
// outputs the moment it completes, and feeds every answer of the service to the job's life (the cancel's and
// the retry's answers too, at once: src/core/jobs/jobLife.ts holds the transitions). The panel, the Jobs view,
// the status bar and job.json render that life from the history; none of them talk to the service. A job still
// running when the window closed is followed again on the next start if the service still keeps it (SPEC 8.6).
import * as vscode from 'vscode';
import { CancelledError } from '../core/http/errors';
import { cancelJob, endedJob, JobDurationModel, retryJob, runJob, sharedStreamingEndpoints, StreamingEndpoints, waitForJob } from '../core/jobs';
import { answerPatch, cancelAnswerPatch, costPatch, describeJob, endPatch, retryAnswerPatch, type LifePatch } from '../core/jobs/jobLife';
import { isTerminalStatus, type Job } from '../core/schemas';
import type { ServiceClient } from '../core/service';
import type { RetryWait } from '../core/http/request';
import { WaitCountdown } from '../connection/waitCountdown';
import { describeError, type ErrorAction } from '../errors/describeError';
import type { HistoryStore } from '../history/historyStore';
import { isFinished, JobRecord, LocalStatus, newJobKey } from './jobRecord';
import { JobSideWatch } from './jobSideWatch';
import type { JobOutputsWriter } from './jobOutputs';
import { whyNotResumed } from './resumeCheck';
import { REPORTED_COSTS_ONLY, type ClientSource, type JobPriceSource, type StartRequest } from './runnerTypes';
import { isWaitOf, NO_CANCEL_ROUTE_NOTE, NO_KEY_ACTIONS, NO_KEY_ERROR, STOPPED_WAITING_NOTE, type CancelResult } from './jobNotes';

/** Why a follow was aborted when the service itself ended the job (the cancel's answer): its end is recorded. */
const ENDED_ON_SERVICE = Symbol('ended on the service');

export class JobRunner implements vscode.Disposable {
  private readonly active = new Map<string, AbortController>();
  /** The newest follow of each job (its controller): an older one winding down writes nothing over it. */
  private readonly owners = new Map<string, AbortController>();
  /** How news reaches each followed job's record (in order, persisted), by key. */
  private readonly appliers = new Map<string, (news: (current: JobRecord) => LifePatch) => Promise<void>>();
  private disposed = false;
  private readonly actions = new Map<string, ErrorAction[]>();
  /** Why a job is being stopped (Stop Waiting, or Cancel Job on a service without the route), by key. */
  private readonly stopNotes = new Map<string, string>();
  private readonly finishEmitter = new vscode.EventEmitter<JobRecord>();
  private readonly runningEmitter = new vscode.EventEmitter<number>();
  /** A job reached its end (any terminal state, stopped, or an error on our side). */
  readonly onDidFinish = this.finishEmitter.event;
  /** The number of jobs being followed changed. */
  readonly onDidChangeRunning = this.runningEmitter.event;
  /** Jobs whose status poll (or submission) waits before a retry, by record key (issue 12: said out loud). */
  private readonly waits = new WaitCountdown<string>();
  /** A job's wait began, counted down a second, or ended: the panel and the Jobs view redraw. */
  readonly onDidChangeWaits = this.waits.onDidTick;

  constructor(
    private readonly history: HistoryStore,
    private clients: ClientSource,
    private readonly outputs: JobOutputsWriter,
    /** What the poller has learned of each endpoint's durations (kept across restarts by registerJobs). */
    readonly durations: JobDurationModel = new JobDurationModel(),
    /** Which endpoints stream their text (learned by trying, kept across restarts by registerJobs). */
    readonly streaming: StreamingEndpoints = sharedStreamingEndpoints,
    private readonly prices: JobPriceSource = REPORTED_COSTS_ONLY,
  ) {}

  /** Where clients come from (the tests point the runner at their own emulator client). */
  setClientSource(source: ClientSource): void {
    this.clients = source;
  }

  dispose(): void {
    // The window is closing: stop following without touching the records, so the next start resumes them.
    this.disposed = true;
    for (const controller of this.active.values()) controller.abort();
    this.active.clear();
    this.finishEmitter.dispose();
    this.runningEmitter.dispose();
    this.waits.dispose();
  }

  /** The wait before the next retry of this job's request, while there is one. */
  retryWait(key: string): RetryWait | undefined {
    return this.waits.get(key);
  }

  isRunning(key: string): boolean {
    return this.active.has(key);
  }

  runningCount(): number {
    return this.active.size;
  }

  /** The keys to scrub from any error text shown about jobs (describeError's `secrets`). */
  secrets(): readonly string[] {
    return this.clients.secrets();
  }

  /** The buttons for a record's error (not persisted: they name commands of this session). */
  errorActions(key: string): ErrorAction[] {
    return this.actions.get(key) ?? [];
  }

  /** Starts a job and returns its record at once; the job is followed in the background. */
  async start(request: StartRequest): Promise<JobRecord> {
    const record = JobRecord.parse({
      key: newJobKey(),
      endpointId: request.endpointId,
      mode: request.mode,
      inputFile: request.inputFile?.toString(),
      input: request.input,
      ...(request.request ? { request: request.request } : {}),
      status: LocalStatus.submitting,
      submittedAt: Date.now(),
      outputs: [],
    });
    await this.history.upsert(record);
    this.follow(record, (client, signal, onUpdate) =>
      runJob(client, request.endpointId, request.input, {
        mode: request.mode, signal, onUpdate, onSubmitted: onUpdate, durations: this.durations, ...(request.request ? { request: request.request } : {}),
      }),
    );
    return record;
  }

  /** Stop Waiting: stops following a job and leaves it to the service; the record says it may still run. */
  stopWaiting(key: string, note = STOPPED_WAITING_NOTE): boolean {
    const controller = this.active.get(key);
    // Once the service has said the job ended there is nothing left to stop: stopping now would only lose
    // the outputs being saved.
    if (!controller || this.history.get(key)?.status === LocalStatus.saving) return false;
    this.stopNotes.set(key, note);
    controller.abort(new CancelledError());
    return true;
  }

  /**
   * Cancel Job: POST /cancel. Its answer is news at once: a job the service says is CANCELLED is shown so now,
   * and a status wait still held is let go (its late answer would say "running"). The job's times and
   * job.json are then kept like any other end. A service without the route gets Stop Waiting instead, said so.
   */
  async cancelJob(key: string): Promise<CancelResult> {
    const record = this.history.get(key);
    if (!record) return { kind: 'notCancellable', reason: 'The job is no longer in the history.' };
    if (!record.jobId) return { kind: 'notCancellable', reason: 'The service has not answered the submission yet, so the job has no id to cancel. Try again in a moment.' };
    // A job only stopped being followed may still run on the service: that one can still be cancelled.
    if ((isFinished(record) && record.status !== LocalStatus.stopped) || record.status === LocalStatus.saving) {
      return { kind: 'alreadyEnded', status: record.status === LocalStatus.saving ? 'ended' : record.status };
    }
    const client = await this.clients.getClient();
    if (!client) return { kind: 'error', message: 'No API key is set for the active connection.' };
    try {
      const outcome = await cancelJob(client, record.endpointId, record.jobId);
      if (outcome.kind === 'noRoute') {
        this.stopWaiting(key, NO_CANCEL_ROUTE_NOTE);
        return { kind: 'noRoute' };
      }
      if (outcome.kind === 'alreadyEnded') return { kind: 'alreadyEnded', status: outcome.job.status };
      this.onCancelAnswer(key, record.jobId, outcome.response);
      return { kind: 'cancelled' };
    } catch (err) {
      const described = describeError(err, { secrets: this.secrets(), operation: 'status', endpointId: record.endpointId, jobId: record.jobId });
      return { kind: 'error', message: described.message };
    }
  }

  private onCancelAnswer(key: string, jobId: string, answer: Pick<Job, 'status'>): void {
    const controller = this.active.get(key);
    const following = controller && !controller.signal.aborted;
    if (following) {
      void this.appliers.get(key)?.((r) => cancelAnswerPatch(r, answer));
      if (isTerminalStatus(answer.status)) controller.abort(ENDED_ON_SERVICE);
      return;
    }
    // Not followed (stopped earlier, or its Stop Waiting still winding down): followed again from the cancel's
    // answer, so its end and job.json are recorded too.
    const record = this.history.get(key)!;
    this.followAgain(key, jobId, { ...cancelAnswerPatch(record, answer) });
  }

  /** Retry: POST /retry queues a FAILED or TIMED_OUT job again under the same id: attempt n + 1, followed at once. */
  async retry(key: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const record = this.history.get(key);
    if (!record?.jobId) return { ok: false, message: 'The job has no id on the service, so it cannot be retried: use Run again.' };
    if (this.active.has(key)) return { ok: false, message: 'The job is still being followed.' };
    if (record.status !== 'FAILED' && record.status !== 'TIMED_OUT') {
      return { ok: false, message: `Only a failed or timed-out job can be retried (this one is ${describeJob(record).statusText.toLowerCase()}): use Run again.` };
    }
    const client = await this.clients.getClient();
    if (!client) return { ok: false, message: 'No API key is set for the active connection.' };
    try {
      const outcome = await retryJob(client, record.endpointId, record.jobId);
      if (outcome.kind === 'noRoute') return { ok: false, message: 'This service has no retry route (it answered /retry with "not found" for a job its /status still knows): use Run again.' };
      this.followAgain(key, record.jobId, retryAnswerPatch(record, outcome.response));
    } catch (err) {
      return { ok: false, message: describeError(err, { secrets: this.secrets(), operation: 'status', endpointId: record.endpointId, jobId: record.jobId }).message };
    }
    return { ok: true };
  }

  /** Follows a job of the history again from what the service just answered (after cancel or retry). */
  private followAgain(key: string, jobId: string, patch: LifePatch): void {
    const record = this.history.get(key);
    // A follow being stopped gives way: the new one takes the key, and the old one writes nothing more.
    if (!record || (this.active.has(key) && !this.active.get(key)!.signal.aborted)) return;
    const again = JobRecord.parse({ ...record, ...patch });
    this.follow(again, (client, signal, onUpdate) =>
      waitForJob(client, record.endpointId, jobId, { signal, onUpdate, submittedAt: again.submittedAt, durations: this.durations }),
    );
  }

  /** Follows again the jobs that were running when the window closed, if the service still keeps them. */
  async resumeInterrupted(now = Date.now()): Promise<number> {
    let resumed = 0;
    for (const record of [...this.history.all()]) {
      if (isFinished(record) || this.active.has(record.key)) continue;
      const refused = whyNotResumed(record, now);
      if (refused) {
        await this.finish(record, { ...endPatch(record, LocalStatus.error), error: refused });
      } else {
        const jobId = record.jobId!;
        resumed++;
        this.follow({ ...record, note: 'Resumed after the window was reopened.' }, (client, signal, onUpdate) =>
          waitForJob(client, record.endpointId, jobId, { signal, onUpdate, submittedAt: record.submittedAt, durations: this.durations }),
        );
      }
    }
    return resumed;
  }

  private follow(
    initial: JobRecord,
    wait: (client: ServiceClient, signal: AbortSignal, onUpdate: (job: Job) => void) => Promise<Job>,
  ): void {
    const controller = new AbortController();
    let record = initial;
    // The record as it stands is published before the job counts as followed (never "followed" beside a retried
    // job's old failure). Updates are applied in order, each persisted before the next (a handful per job).
    let chain: Promise<unknown> = this.history.upsert(record).catch(() => undefined);
    // A patch may be worked out from the record as it is when its turn comes (news that came before the cancel's
    // answer was applied is judged against the cancelled record).
    const apply = (news: LifePatch | ((current: JobRecord) => LifePatch)): Promise<void> => {
      const next = chain.then(async () => {
        const patch = typeof news === 'function' ? news(record) : news;
        if (Object.keys(patch).length === 0) return;
        record = { ...record, ...patch };
        await this.history.upsert(record);
      });
      chain = next.catch(() => undefined);
      return next;
    };
    this.active.set(initial.key, controller);
    this.owners.set(initial.key, controller);
    this.appliers.set(initial.key, apply);
    this.runningEmitter.fire(this.active.size);

    let offWaits: (() => void) | undefined;
    let side: JobSideWatch | undefined;
    let client: ServiceClient | undefined;
    void (async () => {
      try {
        client = await this.clients.getClient();
        if (!client) {
          this.actions.set(record.key, NO_KEY_ACTIONS);
          await chain;
          await this.finish(record, { ...endPatch(record, LocalStatus.error), error: NO_KEY_ERROR }, controller);
          return;
        }
        // Its price, if not known yet, is read now in the background: the cost at the end never waits on it.
        this.prices.learn(client, record.endpointId);
        // The id from the submission's answer at once: the ordered updates give it to the record after a first 429.
        let answeredId = initial.jobId;
        offWaits = client.onRetryWait((w) => {
          if (isWaitOf({ ...record, jobId: record.jobId ?? answeredId }, w)) this.waits.set(record.key, w);
        });
        // Beside the wait: the text a streaming worker writes, and why a queued job waits (./jobSideWatch.ts).
        // Its news is old once the job ended for us (a stream's late "in progress" after the cancel's answer).
        const watch = new JobSideWatch(client, record.endpointId, (patch) => void apply((r) => (describeJob(r).live ? patch : {})), this.streaming);
        side = watch;
        if (initial.jobId && !isFinished(initial)) watch.onJob({ id: initial.jobId, status: initial.status });
        const job = await wait(client, controller.signal, (update) => {
          answeredId = update.id;
          void apply((r) => answerPatch(r, update, this.clients.secrets()));
          watch.onJob(update);
        });
        const streamed = await watch.stop();
        await apply((r) => answerPatch(r, job, this.clients.secrets()));
        await this.completeWithOutputs(client, record, job, controller, streamed);
      } catch (err) {
        await side?.stop();
        await chain;
        if (this.disposed) return; // the record stays "running": resumeInterrupted picks it up next time
        // Stop Waiting then Cancel Job can follow the job again before this follow has wound down (or even after
        // the newer follow ended): the newer one owns the record, and this one's "stopped" must not be written.
        if (this.owners.get(initial.key) !== controller) return;
        if (controller.signal.reason === ENDED_ON_SERVICE && client && record.jobId) {
          await this.completeWithOutputs(client, record, await endedJob(client, record.endpointId, record.jobId, record.status), controller);
        } else if (controller.signal.aborted || (err instanceof CancelledError)) {
          await this.finish(record, { ...endPatch(record, LocalStatus.stopped), note: this.stopNotes.get(initial.key) ?? STOPPED_WAITING_NOTE }, controller);
        } else {
          // The service's detail is shown as it came: scrub the key from it by value, not only as a bearer token.
          const at = record.jobId ? { operation: 'status' as const, jobId: record.jobId } : { operation: 'run' as const };
          const described = describeError(err, { secrets: this.secrets(), endpointId: record.endpointId, ...at });
          this.actions.set(record.key, described.actions);
          await this.finish(record, { ...endPatch(record, LocalStatus.error), error: [described.message, ...(described.details ?? [])].join('\n') }, controller);
        }
      } finally {
        offWaits?.();
        // Only this follow's own entries: a newer follow of the same job keeps its controller and its waits.
        const superseded = this.owners.get(initial.key) !== controller;
        this.release(initial.key, controller);
        if (!superseded) {
          this.stopNotes.delete(initial.key);
          this.appliers.delete(initial.key);
          this.waits.clear(initial.key);
        }
        if (!this.disposed) this.runningEmitter.fire(this.active.size);
      }
    })();
  }

  /** Saves every output (and job.json) before the job counts as finished: nothing is lost (issue 5). */
  private async completeWithOutputs(client: ServiceClient, record: JobRecord, job: Job, controller: AbortController, streamedText = ''): Promise<void> {
    const signal = controller.signal;
    // The record already holds answerPatch(job): the times, a failure's reason. The cost first: job.json has it.
    let patch: Partial<JobRecord> = {
      ...costPatch(job, this.prices.priceOf(client, record.endpointId)),
      status: job.status,
      ...(typeof job.delayTime === 'number' ? { delayTime: job.delayTime } : {}),
      ...(typeof job.executionTime === 'number' ? { executionTime: job.executionTime } : {}),
    };
    try {
      const saved = await this.outputs.save({ ...record, ...patch }, job, signal, this.clients.secrets(), streamedText || undefined);
      patch = { ...patch, outputsFolder: saved.folder, outputs: saved.outputs, ...(saved.thumbnail ? { thumbnail: saved.thumbnail } : {}) };
      // The saved text (output.txt) takes the place of the live one in the panel.
      if (saved.outputs.some((o) => o.kind === 'text')) patch.streamText = undefined;
    } catch (err) {
      patch.note = `The outputs could not be saved. ${describeError(err, { secrets: this.secrets() }).message}`;
    }
    await this.finish(record, patch, controller);
  }

  /** Ends `key`'s follow by `controller` (any follow when none is given); false when another follow owns it. */
  private release(key: string, controller: AbortController | undefined): boolean {
    if (controller !== undefined && this.active.get(key) !== controller) return false;
    return this.active.delete(key);
  }

  private async finish(record: JobRecord, patch: Partial<JobRecord>, controller?: AbortController): Promise<void> {
    const done: JobRecord = { ...record, ...patch, finishedAt: record.finishedAt ?? Date.now() };
    // No longer running *before* the final record is published: the panel and the Jobs view render on that
    // change, and would otherwise show a finished job with "Stop waiting" until something else redraws them.
    if (this.release(record.key, controller) && !this.disposed) this.runningEmitter.fire(this.active.size);
    await this.history.upsert(done);
    this.finishEmitter.fire(done);
  }
}

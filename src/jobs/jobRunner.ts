// The job runner: starts jobs, follows each until it ends (several at once, each cancellable), saves its
// outputs the moment it completes, and keeps the history record up to date. The panel, the Jobs view, the
// status bar and the notifications all watch the history and `onDidFinish`; none of them talk to the
// service. A job still running when the window closed is followed again on the next start if the service
// still keeps it (SPEC 8.6: 30 minutes).
import * as vscode from 'vscode';
import { CancelledError } from '../core/http/errors';
import { Commands } from '../connection/commandIds';
import { cancelJob, JobDurationModel, RESULT_RETENTION_MINUTES, retryJob, runJob, sharedStreamingEndpoints, StreamingEndpoints, waitForJob } from '../core/jobs';
import type { RequestOptions } from '../core/runtime/schemas';
import { isTerminalStatus, type Job, type JobInput } from '../core/schemas';
import type { ServiceClient } from '../core/service';
import { outputCost } from '../core/outputs/outputs';
import { checkId } from '../core/ids';
import type { RetryWait } from '../core/http/request';
import { WaitCountdown } from '../connection/waitCountdown';
import { redact } from '../core/log';
import { describeError, type ErrorAction } from '../errors/describeError';
import type { HistoryStore } from '../history/historyStore';
import { isFinished, JobRecord, LocalStatus, newJobKey, statusWords as statusWordsOf } from './jobRecord';
import { JobSideWatch } from './jobSideWatch';
import type { JobOutputsWriter } from './jobOutputs';

/** SPEC 8.6: results of a dedicated endpoint stay readable through /status for 30 minutes (the core's one constant). */
export const RETENTION_MS = RESULT_RETENTION_MINUTES * 60 * 1000;

export interface ClientSource {
  /** The client of the active connection, or undefined when there is no key (the user is told how to set one). */
  getClient(): Promise<ServiceClient | undefined>;
  /** The keys its clients carry, scrubbed by value from any error text shown (the Connection's `secrets()`). */
  secrets(): readonly string[];
}

export interface StartRequest {
  endpointId: string;
  input: JobInput;
  mode: 'async' | 'sync';
  inputFile?: vscode.Uri;
  /** Request options from the input file (webhook, policy, s3Config), sent as given. */
  request?: RequestOptions;
}

/** Stop Waiting: the lesser action, which leaves the job to the service. */
export const STOPPED_WAITING_NOTE =
  'Stopped waiting. The job may still run on the service and be billed (Cancel Job ends it there); its result ' +
  'stays readable through /status for 30 minutes.';

/** Cancel Job on a service without the platform's cancel route (SPEC 4 lists only run, runsync and status). */
export const NO_CANCEL_ROUTE_NOTE =
  'Not cancelled: this service has no cancel route (it answered /cancel with "not found" for a job its /status ' +
  'still knows), so the job may still run and be billed. Stopped waiting; its result stays readable through ' +
  '/status for 30 minutes.';

/** What Cancel Job did, for the command to say. */
export type CancelResult =
  | { kind: 'cancelled' }
  | { kind: 'alreadyEnded'; status: string }
  | { kind: 'noRoute' }
  | { kind: 'notCancellable'; reason: string }
  | { kind: 'error'; message: string };

export class JobRunner implements vscode.Disposable {
  private readonly active = new Map<string, AbortController>();
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
   * Cancel Job: POST /cancel, so the job ends CANCELLED on the service; the wait sees that end, and the record
   * and job.json are kept like any other end. A service without the route gets Stop Waiting instead, said so.
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
      // A job no longer followed (stopped earlier, or its Stop Waiting still winding down) is followed again,
      // so its CANCELLED end is recorded too.
      if (!this.active.get(key) || this.active.get(key)!.signal.aborted) this.followAgain(key, record.jobId);
      return { kind: 'cancelled' };
    } catch (err) {
      const described = describeError(err, { secrets: this.secrets(), operation: 'status', endpointId: record.endpointId, jobId: record.jobId });
      return { kind: 'error', message: described.message };
    }
  }

  /** Retry: POST /retry queues a FAILED or TIMED_OUT job again under the same id, and it is followed again. */
  async retry(key: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const record = this.history.get(key);
    if (!record?.jobId) return { ok: false, message: 'The job has no id on the service, so it cannot be retried: use Run again.' };
    if (this.active.has(key)) return { ok: false, message: 'The job is still being followed.' };
    if (record.status !== 'FAILED' && record.status !== 'TIMED_OUT') {
      return { ok: false, message: `Only a failed or timed-out job can be retried (this one is ${statusWordsOf(record.status)}): use Run again.` };
    }
    const client = await this.clients.getClient();
    if (!client) return { ok: false, message: 'No API key is set for the active connection.' };
    try {
      const outcome = await retryJob(client, record.endpointId, record.jobId);
      if (outcome.kind === 'noRoute') return { ok: false, message: 'This service has no retry route (it answered /retry with "not found" for a job its /status still knows): use Run again.' };
    } catch (err) {
      return { ok: false, message: describeError(err, { secrets: this.secrets(), operation: 'status', endpointId: record.endpointId, jobId: record.jobId }).message };
    }
    this.followAgain(key, record.jobId, 'Retried: the service queued the same job again.');
    return { ok: true };
  }

  /** Follows a job of the history again from its current state on the service (after cancel or retry). */
  private followAgain(key: string, jobId: string, note?: string): void {
    const record = this.history.get(key);
    // A follow being stopped gives way: the new one takes the key, and the old one writes nothing more.
    if (!record || (this.active.has(key) && !this.active.get(key)!.signal.aborted)) return;
    const now = Date.now();
    const { finishedAt: _f, error: _e, queueReason: _q, streamText: _s, startedAt: _st, ...rest } = record;
    const again: JobRecord = { ...rest, status: 'IN_QUEUE', submittedAt: now, ...(note ? { note } : {}) };
    this.follow(again, (client, signal, onUpdate) =>
      waitForJob(client, record.endpointId, jobId, { signal, onUpdate, submittedAt: now, durations: this.durations }),
    );
  }

  /** Follows again the jobs that were running when the window closed, if the service still keeps them. */
  async resumeInterrupted(now = Date.now()): Promise<number> {
    let resumed = 0;
    for (const record of [...this.history.all()]) {
      if (isFinished(record) || this.active.has(record.key)) continue;
      // A record read back from workspaceState is not trusted to build a route (issue 12): say why, send nothing.
      const refused = checkId(record.endpointId, 'endpoint') ?? (record.jobId ? checkId(record.jobId, 'job') : undefined);
      if (refused) {
        await this.finish(record, { status: LocalStatus.error, error: `Not resumed: ${refused}. Nothing was sent.` });
      } else if (!record.jobId) {
        await this.finish(record, {
          status: LocalStatus.error,
          error: 'The window closed before the service answered the submission, so the job id is unknown. Check the endpoint before running it again.',
        });
      } else if (now - record.submittedAt > RETENTION_MS) {
        await this.finish(record, {
          status: LocalStatus.error,
          error: 'The window closed while this job was running, and it is now older than the 30 minutes the service keeps results (SPEC 8.6).',
        });
      } else {
        const jobId = record.jobId;
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
    this.active.set(initial.key, controller);
    this.runningEmitter.fire(this.active.size);
    let record = initial;
    // Updates are applied in order, each persisted before the next (cheap: a handful per job).
    let chain: Promise<unknown> = Promise.resolve();
    const apply = (patch: Partial<JobRecord>): Promise<void> => {
      const next = chain.then(async () => {
        record = { ...record, ...patch };
        await this.history.upsert(record);
      });
      chain = next.catch(() => undefined);
      return next;
    };

    let offWaits: (() => void) | undefined;
    let side: JobSideWatch | undefined;
    void (async () => {
      try {
        const client = await this.clients.getClient();
        if (!client) {
          this.actions.set(record.key, [
            { title: 'Set API Key', command: Commands.setApiKey },
            { title: 'Use Local Emulator', command: Commands.useLocalEmulator },
          ]);
          await chain;
          await this.finish(record, {
            status: LocalStatus.error,
            error: 'No API key is set for the active connection, so nothing was sent. Set a key, or try the local emulator.',
          }, controller);
          return;
        }
        offWaits = client.onRetryWait((w) => {
          if (isWaitOf(record, w)) this.waits.set(record.key, w);
        });
        // Beside the wait: the text a streaming worker writes, and why a queued job waits (./jobSideWatch.ts).
        const watch = new JobSideWatch(client, record.endpointId, (patch) => void apply(patch), this.streaming);
        side = watch;
        if (initial.jobId && !isFinished(initial)) watch.onJob({ id: initial.jobId, status: initial.status });
        const job = await wait(client, controller.signal, (update) => {
          void apply(patchFromJob(record, update, this.clients.secrets()));
          watch.onJob(update);
        });
        const streamed = await watch.stop();
        await chain;
        record = { ...record, ...patchFromJob(record, job, this.clients.secrets()), queueReason: undefined };
        await this.history.upsert(record);
        await this.completeWithOutputs(record, job, controller, streamed);
      } catch (err) {
        await side?.stop();
        await chain;
        if (this.disposed) return; // the record stays "running": resumeInterrupted picks it up next time
        // Stop Waiting then Cancel Job can follow the job again before this follow has wound down: the newer
        // follow owns the record now, and this one's "stopped" must not be written over it.
        if (this.active.has(initial.key) && this.active.get(initial.key) !== controller) return;
        if (controller.signal.aborted || (err instanceof CancelledError)) {
          await this.finish(record, { status: LocalStatus.stopped, note: this.stopNotes.get(initial.key) ?? STOPPED_WAITING_NOTE, queueReason: undefined }, controller);
        } else {
          // The service's detail is shown as it came: scrub the key from it by value, not only as a bearer token.
          const described = describeError(err, {
            secrets: this.secrets(),
            operation: record.jobId ? 'status' : 'run',
            endpointId: record.endpointId,
            ...(record.jobId ? { jobId: record.jobId } : {}),
          });
          this.actions.set(record.key, described.actions);
          await this.finish(record, { status: LocalStatus.error, error: [described.message, ...(described.details ?? [])].join('\n') }, controller);
        }
      } finally {
        offWaits?.();
        // Only this follow's own entries: a newer follow of the same job keeps its controller and its waits.
        const superseded = this.active.has(initial.key) && this.active.get(initial.key) !== controller;
        this.release(initial.key, controller);
        if (!superseded) {
          this.stopNotes.delete(initial.key);
          this.waits.clear(initial.key);
        }
        if (!this.disposed) this.runningEmitter.fire(this.active.size);
      }
    })();
  }

  /** Saves every output (and job.json) before the job counts as finished: nothing is lost (issue 5). */
  private async completeWithOutputs(record: JobRecord, job: Job, controller: AbortController, streamedText = ''): Promise<void> {
    const signal = controller.signal;
    // The record already holds patchFromJob(job): the status and, for a failed job, its reason.
    let patch: Partial<JobRecord> = { status: job.status };
    try {
      const saved = await this.outputs.save(record, job, signal, this.clients.secrets(), streamedText || undefined);
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

/** Whether a transport's wait is this job's: its status poll, or its submission before the job has an id. */
function isWaitOf(record: JobRecord, wait: RetryWait): boolean {
  const { kind, endpointId, jobId } = wait.route;
  if (endpointId !== record.endpointId) return false;
  if (kind === 'status') return jobId !== undefined && jobId === record.jobId;
  return (kind === 'run' || kind === 'runsync') && record.jobId === undefined;
}

/** What a job object from the service changes in our record. */
function patchFromJob(record: JobRecord, job: Job, secrets: readonly string[]): Partial<JobRecord> {
  // The service's terminal status is published by completeWithOutputs once the outputs are on disk; until
  // then the record says "saving outputs", so nothing shows a finished job without its files (issue 15).
  const status = isTerminalStatus(job.status) ? LocalStatus.saving : job.status;
  const patch: Partial<JobRecord> = { jobId: job.id, status };
  if (job.status !== 'IN_QUEUE' && record.startedAt === undefined) patch.startedAt = Date.now();
  if (typeof job.delayTime === 'number') patch.delayTime = job.delayTime;
  if (typeof job.executionTime === 'number') patch.executionTime = job.executionTime;
  if (typeof job.workerId === 'string') patch.workerId = job.workerId;
  const cost = outputCost(job.output);
  if (cost !== undefined) patch.cost = cost;
  // The record published while the outputs are still being saved carries a FAILED job's reason already, so
  // the panel can say why as soon as the final status appears.
  // A worker's error text is shown and stored as it came: scrub the key from it by value, in case it echoes it.
  const failure = failureOf(job);
  if (failure !== undefined) patch.error = redact(failure, secrets);
  return patch;
}

/** Why a job failed, in the service's words, when it did. */
function failureOf(job: Job): string | undefined {
  if (job.status !== 'FAILED' && job.error === undefined) return undefined;
  return errorText(job.error) ?? 'The job failed; the service gave no reason.';
}

/** The service's error of a failed job: usually a string, sometimes an object (kept readable as JSON). */
export function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null || error === '') return undefined;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error, null, 2);
  } catch {
    return String(error);
  }
}

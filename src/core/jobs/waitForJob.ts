// Following a job until it ends (SPEC 3, 4.4): COMPLETED, FAILED, CANCELLED or TIMED_OUT. Where the service
// offers the platform's long poll (GET /status-sync/{job}?wait=), each question is held by the service until
// the job ends or the wait is over, so the end is known within a round trip with a handful of requests. A
// service without it (learned once, see runtime/routeSupport.ts) is polled on /status when pollPlan.ts says
// (adaptive polling, the strategy is described there). This file does the asking, reports changes, learns
// durations, and turns the service's answers into what a UI can explain.
import { CancelledError, NotFoundError, RateLimitedError, ServiceError } from '../http/errors';
import { systemClock, type Clock } from '../http/clock';
import { isTerminalStatus, type Job } from '../schemas';
import type { ServiceClient } from '../service';
import { durationKey, sharedDurationModel, type JobDurationModel } from './durationModel';
import { nextPollDelayMs, MAX_POLL_MS, type PollState } from './pollPlan';
import { rateLimitWaitMs } from '../http/rateLimit';
import { mayBeMissingRoute, sharedRouteSupport, type RouteSupport } from '../runtime/routeSupport';
import { clampStatusSyncWait } from '../runtime/client';

/** SPEC 8.6: the status route keeps a dedicated endpoint's results for 30 minutes after the job ends. */
export const RESULT_RETENTION_MINUTES = 30;

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called with the job each time its status changes (not for the `initial` job, which the caller has). */
  onUpdate?: (job: Job) => void;
  /** The job as last seen (the answer of /run or /runsync): the wait starts from it instead of asking at once. */
  initial?: Job;
  /** When the job was submitted (epoch ms, same clock): lets the queue wait in `delayTime` pin its start. */
  submittedAt?: number;
  clock?: Clock;
  /** What is known of job durations; defaults to the one shared by this process. */
  durations?: JobDurationModel;
  /** Status requests that fail in a row (after the HTTP layer's own retries) before the wait gives up. */
  maxConsecutiveFailures?: number;
  /** Which services offer status-sync; defaults to the one shared by this process. */
  routeSupport?: RouteSupport;
  /** How long each status-sync asks the service to hold (ms). */
  statusSyncWaitMs?: number;
}

/**
 * The hold asked of status-sync: short enough that a job's move from the queue to a worker shows within
 * seconds, long enough that a job of up to this length is followed with one or two requests.
 */
export const STATUS_SYNC_WAIT_MS = 10_000;
/**
 * The hold for a job once it has shown a progress update (an IN_PROGRESS answer with `output`): a held
 * status-sync answers only at the job's end or the hold's, so a worker's progress_update would show 10 s late,
 * or never for most jobs. Only jobs that report progress pay the extra questions.
 */
export const PROGRESS_WAIT_MS = 2_000;
/** Unfinished status-sync answers in a row, each back in under half its hold, before the service is polled instead. */
const UNHELD_BEFORE_POLLING = 3;

const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;
/** A submission younger than this is "just submitted" (the /run answer may take a while under load). */
const RECENT_SUBMISSION_MS = 30_000;
/** Below this many requests left in a rate-limit window, polls are spread over the rest of the window. */
const LOW_QUOTA = 5;

/** Failures worth another try after a pause: the service or the network hiccuped, the job is still there. */
function isTransient(e: unknown): boolean {
  return e instanceof ServiceError && (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'server' || e.kind === 'rateLimited');
}

/** With few requests left in a window, stretch the interval so this wait does not use them all up at once. */
function quotaFriendlyDelay(client: ServiceClient, delay: number, now: number): number {
  let stretched = delay;
  for (const state of Object.values(client.rateLimits)) {
    if (!state || state.remaining > LOW_QUOTA || state.resetAt <= now) continue;
    stretched = Math.max(stretched, (state.resetAt - now) / (state.remaining + 1));
  }
  return stretched;
}

function expiredMessage(jobId: string, lastStatus: string | undefined): string {
  // A job last seen moving cannot have outlived the 30 minutes kept after its end: the service lost it (a
  // restart, a purge), and saying "expired" would blame a rule that did not apply (issue 22).
  if (lastStatus !== undefined && !isTerminalStatus(lastStatus)) {
    const where = lastStatus === 'IN_QUEUE' ? 'in its queue' : 'running';
    return `Job ${jobId} was ${where} when last seen, and the service no longer knows it: it lost the job (restarted, or purged it), so no result will come from it: run it again.`;
  }
  return `Job ${jobId} is no longer known to the service. Results are kept for ${RESULT_RETENTION_MINUTES} minutes after a job ends (SPEC 8.6), so this one has expired.`;
}

/**
 * Polls GET /status until the job reaches a terminal state and returns that job. Throws CancelledError as
 * soon as `signal` aborts (no request is sent after that), NotFoundError if a job we had seen disappears
 * (its message says results are kept for 30 minutes), or the error of the last failure when the service
 * cannot be reached several times in a row.
 */
export async function waitForJob(client: ServiceClient, endpointId: string, jobId: string, options: WaitOptions = {}): Promise<Job> {
  const { signal, onUpdate, initial } = options;
  const clock = options.clock ?? systemClock;
  const durations = options.durations ?? sharedDurationModel;
  const key = durationKey(client.settings.jobsBaseUrl, endpointId);
  const maxFailures = options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
  if (signal?.aborted) throw new CancelledError();

  const state: PollState = { now: clock.now(), startedWatchingAt: clock.now() };
  if (options.submittedAt !== undefined) state.submittedAt = options.submittedAt;
  let last: Job | undefined = initial;
  // A job we were handed or have seen existed: a later 404 means it expired, not that the id is wrong.
  let seen = initial !== undefined;
  let failures = 0;
  let failureDelay = 0;

  const observe = (job: Job, at: number): void => {
    state.status = job.status;
    if (typeof job.delayTime === 'number') state.delayTime = job.delayTime;
    if ((job.status === 'IN_PROGRESS' || job.status === 'RUNNING') && state.firstSeenRunningAt === undefined) state.firstSeenRunningAt = at;
  };
  // Only a completed job tells how long the endpoint's jobs take: one cancelled after 0.2 s, or failed at once,
  // would teach a tiny duration (a batch's cost range then came out near zero and skipped its confirmation).
  const learnFrom = (job: Job): void => {
    if (job.status === 'COMPLETED') durations.record(key, job.delayTime, job.executionTime);
  };
  if (initial) {
    observe(initial, state.startedWatchingAt);
    if (isTerminalStatus(initial.status)) {
      learnFrom(initial);
      return initial;
    }
  }

  const routes = options.routeSupport ?? sharedRouteSupport;
  const service = client.settings.jobsBaseUrl;
  const longPoll = (): boolean => routes.get(service, 'statusSync') !== 'no';
  const fullHoldMs = clampStatusSyncWait(options.statusSyncWaitMs ?? STATUS_SYNC_WAIT_MS);
  let holdMs = fullHoldMs;
  /** Whether the last question went to status-sync (and so should have been held by the service). */
  let askedLongPoll = false;
  /** Unfinished answers of status-sync that came back well before the hold asked for, in a row. */
  let unheld = 0;
  /** One question: held by the service where it can be (status-sync), else a plain status request. */
  const ask = async (): Promise<Job> => {
    const call = signal ? { signal } : {};
    askedLongPoll = longPoll();
    if (!askedLongPoll) return client.status(endpointId, jobId, call);
    try {
      const job = await client.statusSync(endpointId, jobId, { ...call, waitMs: holdMs });
      routes.set(service, 'statusSync', 'yes');
      return job;
    } catch (e) {
      if (routes.get(service, 'statusSync') === 'yes' || !mayBeMissingRoute(e)) throw e;
      // A 404 is also what an unknown job gives: the SPEC route tells which. If it knows the job, the service
      // has no status-sync, and this service is polled from now on.
      const job = await client.status(endpointId, jobId, call);
      routes.set(service, 'statusSync', 'no');
      askedLongPoll = false;
      return job;
    }
  };

  for (let polls = 0; ; polls++) {
    // Without a job in hand the first question is asked at once, unless the job was submitted recently: it
    // is most likely still queued then, so its first question waits for the plan. (A resumed wait, for a job
    // submitted before the window closed, asks at once.) A long poll needs no pause: the service holds it,
    // unless its last answer was not held (a proxy or service that ignores `wait`): then the plan's pause
    // applies, so a status-sync answered at once can never become a loop of requests.
    const now = clock.now();
    const justSubmitted = options.submittedAt !== undefined && now - options.submittedAt < RECENT_SUBMISSION_MS;
    if (longPoll() && failureDelay === 0 && unheld === 0) {
      const quotaWait = rateLimitWaitMs(client.rateLimits, now);
      if (quotaWait > 0) await clock.sleep(quotaWait, signal);
    } else if (polls > 0 || initial || justSubmitted) {
      state.estimate = durations.estimate(key);
      const planned = failureDelay > 0 ? failureDelay : nextPollDelayMs({ ...state, now });
      // An exhausted window holds the request in the HTTP layer anyway; waiting here keeps the plan honest.
      const delay = Math.max(quotaFriendlyDelay(client, planned, now), rateLimitWaitMs(client.rateLimits, now));
      await clock.sleep(delay, signal);
    }
    const sentAt = clock.now();
    let job: Job;
    try {
      job = await ask();
    } catch (e) {
      if (e instanceof CancelledError || signal?.aborted) throw new CancelledError();
      if (e instanceof NotFoundError) {
        throw seen ? new NotFoundError(e.problem, expiredMessage(jobId, last?.status)) : e;
      }
      if (!isTransient(e) || ++failures >= maxFailures) throw e;
      // Back off on the service's word (Retry-After) or by doubling, within the polling cap.
      const asked = e instanceof RateLimitedError ? e.retryAfterMs : 0;
      failureDelay = Math.min(MAX_POLL_MS, Math.max(asked, 1000 * 2 ** (failures - 1)));
      continue;
    }
    failures = 0;
    failureDelay = 0;
    seen = true;
    const receivedAt = clock.now();
    state.roundTripMs = receivedAt - sentAt;
    observe(job, receivedAt);
    if (askedLongPoll && !isTerminalStatus(job.status) && receivedAt - sentAt < holdMs / 2) {
      // Three in a row: this service does not hold status-sync, and is polled as one without it.
      if (++unheld >= UNHELD_BEFORE_POLLING) routes.set(service, 'statusSync', 'no');
    } else if (askedLongPoll) {
      unheld = 0;
    }
    if (job.status === 'IN_PROGRESS' && job.output !== undefined) holdMs = Math.min(fullHoldMs, clampStatusSyncWait(PROGRESS_WAIT_MS));
    // A running job's latest progress update (its `output` while IN_PROGRESS) is news too.
    const changed = last === undefined || last.status !== job.status || (job.output !== undefined && !sameOutput(last.output, job.output));
    last = job;
    if (isTerminalStatus(job.status)) {
      learnFrom(job);
      onUpdate?.(job);
      return job;
    }
    if (changed) onUpdate?.(job);
  }
}

function sameOutput(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

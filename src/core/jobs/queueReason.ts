// Why a job sits IN_QUEUE, in words, from the endpoint's GET /health (jobs and workers by state): the most
// common question on the platform. Asked only while the job is queued, a few seconds apart, and never when the
// service has no health route (learned once, runtime/routeSupport.ts). The health route counts workers, not
// the endpoint's settings, so "none allowed" (max workers 0) is only said when the caller knows the maximum
// (from the endpoint list); otherwise the words say what health can tell and what it cannot.
//
// One read, one story (issue 32): a reason is always the words of the latest health read of the endpoint, by
// whoever made it (this job's watch, another job's, or the Endpoints view's live health), so the panel never
// says "busy" while the sidebar shows the same endpoint "1 idle" from a newer read. And "busy" is said only when
// the read itself bears it out: no idle worker, and a job in progress for every running one. A read that counts
// a running worker with no job in progress (a worker between two jobs) says what is known instead: no worker
// has taken the job yet.
import { CancelledError } from '../http/errors';
import { systemClock, type Clock } from '../http/clock';
import { rateLimitWaitMs } from '../http/rateLimit';
import type { ServiceClient } from '../service';
import { mayBeMissingRoute, sharedRouteSupport, type RouteSupport } from '../runtime/routeSupport';
import type { HealthResponse } from '../runtime/schemas';

export type QueueReasonKind = 'coldStart' | 'allBusy' | 'notTaken' | 'noneAllowed' | 'noWorkers' | 'throttled' | 'starting';

export interface QueueReason {
  kind: QueueReasonKind;
  /** One or two sentences for the panel. */
  text: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The reason a queued job waits, from the endpoint's health. `maxWorkers`: the endpoint's workersMax where
 * known (the endpoint list), to tell "none allowed" from "none running".
 */
export function explainQueue(health: HealthResponse, maxWorkers?: number): QueueReason {
  const { workers, jobs } = health;
  const queued = jobs.inQueue;
  // This job is one of the queued ones; the ones before it are at most the rest.
  const ahead = Math.max(0, queued - 1);
  const queueWords = queued > 1 ? ` ${plural(queued, 'job')} in the queue (up to ${ahead} ahead of this one).` : '';
  if (workers.initializing > 0) {
    return {
      kind: 'coldStart',
      text: `Waiting for a worker to start (cold start): ${plural(workers.initializing, 'worker')} initializing, loading the image and model.${queueWords}`,
    };
  }
  const active = workers.running + workers.idle;
  if (active === 0 && workers.throttled > 0) {
    return {
      kind: 'throttled',
      text: `Throttled: ${plural(workers.throttled, 'worker')} waiting for a GPU of the endpoint's type to become free.${queueWords}`,
    };
  }
  if (workers.running > 0 && workers.idle === 0 && jobs.inProgress < workers.running) {
    return {
      kind: 'notTaken',
      text: `No worker has taken the job yet: ${plural(workers.running, 'worker')} running, none idle, ${plural(jobs.inProgress, 'job')} in progress.${queueWords}`,
    };
  }
  if (workers.running > 0 && workers.idle === 0) {
    const unhealthy = workers.unhealthy > 0 ? ` ${plural(workers.unhealthy, 'worker')} unhealthy.` : '';
    const capped = maxWorkers !== undefined && workers.running >= maxWorkers ? ` (the endpoint's maximum is ${maxWorkers})` : '';
    return {
      kind: 'allBusy',
      text: `All ${plural(workers.running, 'worker')} busy${capped}: ${ahead} ${ahead === 1 ? 'job' : 'jobs'} ahead in the queue.${unhealthy}`,
    };
  }
  if (active === 0) {
    if (maxWorkers === 0) {
      return { kind: 'noneAllowed', text: 'No worker is allowed: the endpoint\'s max workers is 0, so its jobs wait until it is raised.' };
    }
    const unhealthy = workers.unhealthy > 0 ? ` ${plural(workers.unhealthy, 'worker')} unhealthy.` : '';
    return {
      kind: 'noWorkers',
      text:
        `No worker is running or starting.${unhealthy}${queueWords} The endpoint may allow no workers (max workers 0) or have ` +
        'no GPU available; its health does not say which.',
    };
  }
  return { kind: 'starting', text: `${plural(workers.idle, 'worker')} idle: the job should start in a moment.${queueWords}` };
}

/**
 * Recent health answers by service and endpoint, shared by every queued job of an endpoint: fifty jobs waiting
 * on one endpoint ask its health once per interval between them, not fifty times.
 */
export class HealthAnswers {
  private readonly recent = new Map<string, { at: number; answer: Promise<HealthResponse> }>();
  private readonly listeners = new Set<(key: string, health: HealthResponse, seq: number) => void>();
  /** The order answers arrived in: a reason is only ever replaced by one from a later answer. */
  private readonly arrival = new WeakMap<HealthResponse, number>();
  private seq = 0;

  /** The key of an endpoint of a service, as `onAnswer` names it. */
  static key(client: ServiceClient, endpointId: string): string {
    return `${client.settings.jobsBaseUrl} ${endpointId}`;
  }

  /** The endpoint's health, asked anew only when the last answer (or question) is older than `maxAgeMs`. */
  get(client: ServiceClient, endpointId: string, maxAgeMs: number, now: number): Promise<HealthResponse> {
    const key = HealthAnswers.key(client, endpointId);
    const last = this.recent.get(key);
    if (last && now - last.at < maxAgeMs) return last.answer;
    // Not tied to one job's signal: another job may be waiting for the same answer.
    const answer = client.health(endpointId);
    this.recent.set(key, { at: now, answer });
    answer.then(
      (health) => this.announce(key, health),
      () => {
        if (this.recent.get(key)?.answer === answer) this.recent.delete(key);
      },
    );
    return answer;
  }

  /** A read made elsewhere (the Endpoints view's live health): it becomes the latest answer of its endpoint. */
  publish(client: ServiceClient, endpointId: string, health: HealthResponse, now: number): void {
    const key = HealthAnswers.key(client, endpointId);
    this.recent.set(key, { at: now, answer: Promise.resolve(health) });
    this.announce(key, health);
  }

  private announce(key: string, health: HealthResponse): void {
    if (this.arrival.has(health)) return;
    const seq = ++this.seq;
    this.arrival.set(health, seq);
    for (const l of [...this.listeners]) l(key, health, seq);
  }

  /** When an answer arrived, in order (0: not known here). */
  arrivalOf(health: HealthResponse): number {
    return this.arrival.get(health) ?? 0;
  }

  /** Every answer as it arrives, by whoever asked. Returns the unsubscribe. */
  onAnswer(listener: (key: string, health: HealthResponse, seq: number) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

export const sharedHealthAnswers = new HealthAnswers();

export interface WatchQueueOptions {
  signal: AbortSignal;
  /** Called with each reason (also when unchanged: the caller may drop repeats). */
  onReason: (reason: QueueReason) => void;
  /** Before the first question: a job that leaves the queue this fast needs no explaining. */
  firstAfterMs?: number;
  /** Between questions. */
  intervalMs?: number;
  clock?: Clock;
  routeSupport?: RouteSupport;
  /** The endpoint's max workers, when known. */
  maxWorkers?: () => Promise<number | undefined>;
  /** Health answers shared between the jobs of an endpoint; defaults to the one of this process. */
  answers?: HealthAnswers;
}

export const QUEUE_WATCH_FIRST_MS = 1000;
export const QUEUE_WATCH_INTERVAL_MS = 3000;
/** Below this many requests left in a rate-limit window, health is not asked (the job's own status comes first). */
const LOW_QUOTA = 20;

/**
 * Asks the endpoint's health while `signal` is not aborted and reports why the job waits. Ends quietly when
 * aborted, when the service has no health route, or on an error (a reason is a nicety, never a failure).
 */
export async function watchQueue(client: ServiceClient, endpointId: string, options: WatchQueueOptions): Promise<void> {
  const clock = options.clock ?? systemClock;
  const routes = options.routeSupport ?? sharedRouteSupport;
  const service = client.settings.jobsBaseUrl;
  const { signal } = options;
  const interval = options.intervalMs ?? QUEUE_WATCH_INTERVAL_MS;
  const answers = options.answers ?? sharedHealthAnswers;
  let delay = options.firstAfterMs ?? QUEUE_WATCH_FIRST_MS;
  let maxWorkers: number | undefined;
  let askedMax = false;
  // The latest answer told so far: an older one (a cached read reached after a newer one) never replaces it.
  let told = 0;
  const tell = (health: HealthResponse): void => {
    const seq = answers.arrivalOf(health);
    if (seq !== 0 && seq < told) return;
    told = Math.max(told, seq);
    options.onReason(explainQueue(health, maxWorkers));
  };
  // Another reader's newer read of this endpoint (another job's, the Endpoints view's) is told at once; this
  // watch's own reads are told by the loop below, after it knows the endpoint's maximum where that matters.
  let asking = false;
  const key = HealthAnswers.key(client, endpointId);
  const unsubscribe = answers.onAnswer((k, health) => {
    if (k === key && !asking && !signal.aborted && routes.get(service, 'health') !== 'no') tell(health);
  });
  try {
    for (;;) {
      await clock.sleep(delay, signal);
      delay = interval;
      if (routes.get(service, 'health') === 'no') return;
      const now = clock.now();
      if (rateLimitWaitMs(client.rateLimits, now) > 0) continue;
      if (Object.values(client.rateLimits).some((w) => w && w.remaining < LOW_QUOTA && w.resetAt > now)) continue;
      let health: HealthResponse;
      try {
        // A little under the interval, so the job whose turn it is gets a fresh answer, not its own last one.
        asking = true;
        health = await answers.get(client, endpointId, interval * 0.8, now).finally(() => (asking = false));
        if (signal.aborted) return;
        routes.set(service, 'health', 'yes');
      } catch (e) {
        if (signal.aborted) return;
        // The job exists, so its endpoint does: a 404/405/501 here means the route is missing.
        if (routes.get(service, 'health') !== 'yes' && mayBeMissingRoute(e)) routes.set(service, 'health', 'no');
        return;
      }
      const noWorkers = health.workers.running + health.workers.idle + health.workers.initializing === 0;
      if (noWorkers && !askedMax && options.maxWorkers) {
        askedMax = true;
        maxWorkers = await options.maxWorkers().catch(() => undefined);
      }
      if (signal.aborted) return;
      tell(health);
    }
  } catch (e) {
    if (e instanceof CancelledError || signal.aborted) return;
    throw e;
  } finally {
    unsubscribe();
  }
}

// When a batch's queued jobs start (issue 27 item 1). A job's held /status-sync answers only at its end (or when
// the hold runs out), so a row followed by it read "In queue" while the service ran it. Asking each job more
// often would double the status requests of a batch of short jobs; instead the batch reads the endpoint's
// /health, once per beat for the whole batch, while it has jobs in the queue (a decision, docs/batches.md
// "Statuses"): about one request per 1.5 s per batch, whatever its size.
//
// Health counts the endpoint's queued jobs (Q), not which ones. The endpoint's queue is FIFO (normal jobs, then
// low-priority ones), and the service takes from its head, so the queued jobs are always the newest ones. Of the
// batch's k jobs that were queued when the question left, at most Q are still queued: the oldest k - Q have left
// the queue (started, or ended, which their own wait says at once). Another client's jobs only add to Q, so they
// can make the start show later, never earlier. Only a queued job cancelled by another client could make one of
// ours show "In progress" a beat early; its own wait corrects it at its end.
import { CancelledError } from '../http/errors';
import type { Clock } from '../http/clock';
import type { ServiceClient } from '../service';
import { mayBeMissingRoute, sharedRouteSupport, type RouteSupport } from '../runtime/routeSupport';
import type { BatchRows } from './batchRows';
import type { BatchRunnerOptions } from './runnerOptions';

/** Between two health reads while the batch has jobs in the queue: a start shows within this and a round trip. */
export const QUEUE_WATCH_MS = 1500;
/** Below this many requests left in a rate-limit window, the watch skips its read: submissions need them more. */
const SPARE_REQUESTS = 20;

export interface QueuedJob {
  index: number;
  /** When this attempt was queued (the /run or /retry answer): the queue's order. */
  since: number;
  /** `policy.lowPriority`: queued behind every normal job. */
  low: boolean;
}

export interface QueueWatchOptions {
  client: ServiceClient;
  endpointId: string;
  clock: Clock;
  routes: RouteSupport;
  /** The batch's jobs the service accepted and that were last seen IN_QUEUE. */
  queued(): QueuedJob[];
  /** Jobs that have left the queue (by the reasoning above). */
  onStarted(indices: number[]): void;
  /** The service is known to be down: the batch's own probe asks it; the watch stays quiet. */
  serviceDown(): boolean;
  periodMs?: number;
}

export class QueueWatch {
  private abort: AbortController | undefined;

  constructor(private readonly o: QueueWatchOptions) {}

  /** Starts the beat (once; again after `stop`). */
  start(): void {
    if (this.abort) return;
    const abort = new AbortController();
    this.abort = abort;
    void this.loop(abort.signal).catch(() => undefined);
  }

  stop(): void {
    this.abort?.abort();
    this.abort = undefined;
  }

  private async loop(signal: AbortSignal): Promise<void> {
    const { client, endpointId, clock, routes } = this.o;
    const service = client.settings.jobsBaseUrl;
    const period = this.o.periodMs ?? QUEUE_WATCH_MS;
    // After a failed read the beat slows down (doubling, up to 30 s): a service in trouble is not asked more.
    let pause = period;
    while (!signal.aborted) {
      await clock.sleep(pause, signal);
      if (routes.get(service, 'health') === 'no' || this.quotaTight() || this.o.serviceDown()) continue;
      const asked = this.o.queued();
      if (asked.length === 0) continue;
      let inQueue: number;
      try {
        inQueue = (await client.health(endpointId, { signal })).jobs.inQueue;
        routes.set(service, 'health', 'yes');
        pause = period;
      } catch (e) {
        if (e instanceof CancelledError || signal.aborted) return;
        pause = Math.min(30_000, pause * 2);
        if (routes.get(service, 'health') !== 'yes' && mayBeMissingRoute(e)) routes.set(service, 'health', 'no');
        continue;
      }
      const left = asked.length - inQueue;
      if (left <= 0) continue;
      const order = [...asked].sort((a, b) => Number(a.low) - Number(b.low) || a.since - b.since);
      this.o.onStarted(order.slice(0, left).map((j) => j.index));
    }
  }

  /**
   * The watch gives way to the batch's own requests when the quota binds: it reads only while every rate-limit
   * window is being used no faster than it refills (its share left at least its time left), and never with fewer
   * than SPARE_REQUESTS left. Under a binding quota a read would cost a job's request (the bench: 0.74x of the
   * limit with reads kept to the last 20 requests, against 0.93x without the watch).
   */
  private quotaTight(): boolean {
    const now = this.o.clock.now();
    return Object.values(this.o.client.rateLimits).some((w) => {
      if (w === undefined || w.resetAt <= now) return false;
      if (w.remaining < SPARE_REQUESTS) return true;
      if (!w.quota || !w.windowSeconds) return false;
      return w.remaining / w.quota < (w.resetAt - now) / (w.windowSeconds * 1000);
    });
  }
}

/** The queue watch of a batch's rows: queued accepted jobs in, "In progress" out (through the rows, like every change). */
export function watchBatchQueue(o: BatchRunnerOptions, clock: Clock, rows: BatchRows, serviceDown: () => boolean): QueueWatch {
  return new QueueWatch({
    serviceDown,
    client: o.client, endpointId: o.endpointId, clock, routes: o.wait?.routeSupport ?? sharedRouteSupport,
    ...(o.queueWatchMs !== undefined ? { periodMs: o.queueWatchMs } : {}),
    queued: () => {
      const out: QueuedJob[] = [];
      for (const r of rows.all()) {
        if (r.phase !== 'active' || r.status !== 'IN_QUEUE' || r.submittedAt === undefined) continue;
        const policy = o.items[r.index]?.request?.policy as { lowPriority?: boolean } | undefined;
        out.push({ index: r.index, since: r.submittedAt, low: policy?.lowPriority === true });
      }
      return out;
    },
    onStarted: (indices) => {
      for (const i of indices) {
        const r = rows.get(i);
        if (r.phase === 'active' && r.status === 'IN_QUEUE') void rows.update(i, { status: 'IN_PROGRESS' }).catch(() => undefined);
      }
    },
  });
}

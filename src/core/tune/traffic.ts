// The traffic a Tune replay runs (issue 29): this workspace's jobs on one endpoint in a window, as arrivals
// (submit time, the service's execution time), the endpoint's current settings in the replay's units, and a
// synthetic burst when there is no history. Jobs whose execution time the service never gave (stopped, lost,
// still running) are left out and counted, so the view can say how many.
import { REQUEST_COUNT_SCALE_DOWN_MS, scaleDownMsOf } from '../serverless/scaleDown';
import type { ServerlessEndpoint } from '../serverless/schemas';
import type { Arrival, ReplayResult, ReplaySettings } from './replay';

/** What the replay needs of a remembered job (the Jobs history's records, the batch manifests' rows). */
export interface JobSample {
  endpointId: string;
  submittedAt: number;
  delayTime?: number;
  executionTime?: number;
}

export interface Traffic {
  arrivals: Arrival[];
  /** Jobs in the window left out: no execution time from the service. */
  leftOut: number;
  /** The endpoint's cold start as its jobs' delays suggest (ms; 0 when none looks like a cold start). */
  coldStartMs: number;
}

/** The jobs of `endpointId` submitted in [fromMs, toMs). */
export function trafficOf(jobs: readonly JobSample[], endpointId: string, fromMs: number, toMs: number, idleTimeoutMs: number): Traffic {
  const inWindow = jobs.filter((j) => j.endpointId === endpointId && j.submittedAt >= fromMs && j.submittedAt < toMs);
  const arrivals: Arrival[] = [];
  for (const j of inWindow) if (j.executionTime !== undefined && j.executionTime >= 0) arrivals.push({ submitMs: j.submittedAt, executionMs: j.executionTime });
  arrivals.sort((a, b) => a.submitMs - b.submitMs);
  return { arrivals, leftOut: inWindow.length - arrivals.length, coldStartMs: coldStartOf(inWindow, idleTimeoutMs) };
}

/**
 * After a quiet gap longer than the idle timeout no worker of ours is up: the jobs sent before the first of them
 * starts (a "cold burst") all wait for the first worker's start. The one that starts first is the one the
 * service queued first, and its delay is one cold start; the others of the burst also waited for jobs ahead of
 * them. Which one that is comes from the service's own measures (submit + delayTime, least first), never from the
 * order of the submit times alone: jobs sent together share a millisecond, and then that order is only the
 * order the records were kept in (a job that waited behind another's execution once made a 1 s cold start
 * read 2.5 s). The delay is taken as the service measured it, with no client time in it, so it is exact. The
 * smallest over the window's cold bursts; 0 when none.
 */
export function coldStartOf(jobs: readonly JobSample[], idleTimeoutMs: number): number {
  const sorted = [...jobs].sort((a, b) => a.submittedAt - b.submittedAt);
  let best: number | undefined;
  let lastEnd = Number.NEGATIVE_INFINITY;
  // The open cold burst: when its first job started (submit + delay) and that job's delay.
  let burst: { startsAt: number; delay: number } | undefined;
  const close = (): void => {
    if (burst) best = Math.min(best ?? Infinity, burst.delay);
    burst = undefined;
  };
  for (const j of sorted) {
    if (burst && j.submittedAt >= burst.startsAt) close(); // a worker was up by then: not a cold arrival
    if (!burst && j.delayTime !== undefined && j.submittedAt - lastEnd > idleTimeoutMs + 1000) burst = { startsAt: Infinity, delay: Infinity };
    if (burst && j.delayTime !== undefined) {
      const startsAt = j.submittedAt + j.delayTime;
      if (startsAt < burst.startsAt || (startsAt === burst.startsAt && j.delayTime < burst.delay)) burst = { startsAt, delay: j.delayTime };
    }
    lastEnd = Math.max(lastEnd, j.submittedAt + (j.delayTime ?? 0) + (j.executionTime ?? 0));
  }
  close();
  return best ?? 0;
}

/** The endpoint's settings as the replay varies them (REST v2 `Endpoint`). */
export function settingsOf(e: Pick<ServerlessEndpoint, 'workers' | 'scaling' | 'timeout' | 'flashboot'>): ReplaySettings {
  const requestCount = e.scaling.type === 'REQUEST_COUNT';
  return {
    workersMin: e.workers.min ?? 0,
    workersMax: e.workers.max ?? 3,
    // On REQUEST_COUNT the idle timeout does not apply (the service omits and refuses it): idle workers stop
    // after the platform's own delay, which the replay's engine is given as its idle timeout.
    idleTimeoutMs: scaleDownMsOf(e),
    scalerType: requestCount ? 'REQUEST_COUNT' : 'QUEUE_DELAY',
    scalerValue: requestCount ? (e.scaling.requestCount ?? 1) : (e.scaling.queueDelay ?? 4),
    executionTimeoutMs: e.timeout > 0 ? e.timeout : undefined,
    flashboot: e.flashboot !== 'OFF',
  };
}

/** N jobs arriving `perMinute` a minute from `startMs`, each running `executionMs` (the user's synthetic burst). */
export function syntheticArrivals(n: number, perMinute: number, executionMs: number, startMs: number): Arrival[] {
  const gap = perMinute > 0 ? 60_000 / perMinute : 0;
  return Array.from({ length: n }, (_, i) => ({ submitMs: Math.round(startMs + i * gap), executionMs }));
}

/** The cheapest result whose p95 wait is within `p95LimitMs` (its index), if any. */
export function cheapestWithin(results: readonly Pick<ReplayResult, 'costUsd' | 'waitP95Ms'>[], p95LimitMs: number): number | undefined {
  let best: number | undefined;
  results.forEach((r, i) => {
    if (r.waitP95Ms <= p95LimitMs && (best === undefined || r.costUsd < results[best]!.costUsd)) best = i;
  });
  return best;
}

/**
 * The settings that differ from `current`, in the REST reference's update fields (what Apply would send). An
 * idle timeout is never sent to a REQUEST_COUNT scaler (the service refuses it); a switch to QUEUE_DELAY always
 * carries the one replayed, so the service does not pick one of its own.
 */
export function changedSettings(current: ReplaySettings, next: ReplaySettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const workers: Record<string, number> = {};
  if (next.workersMin !== current.workersMin) workers.min = next.workersMin;
  if (next.workersMax !== current.workersMax) workers.max = next.workersMax;
  if (next.scalerType === 'QUEUE_DELAY' && (next.idleTimeoutMs !== current.idleTimeoutMs || current.scalerType !== 'QUEUE_DELAY')) {
    workers.idleTimeout = next.idleTimeoutMs / 1000;
  }
  if (Object.keys(workers).length) out.workers = workers;
  if (next.scalerType !== current.scalerType || next.scalerValue !== current.scalerValue) {
    out.scaling = next.scalerType === 'REQUEST_COUNT' ? { type: 'REQUEST_COUNT', requestCount: next.scalerValue } : { type: 'QUEUE_DELAY', queueDelay: next.scalerValue };
  }
  return out;
}

/** The replay's settings of an endpoint switched to REQUEST_COUNT: its idle workers stop after the platform's delay. */
export function onRequestCount(s: ReplaySettings, requestCount: number): ReplaySettings {
  return { ...s, scalerType: 'REQUEST_COUNT', scalerValue: requestCount, idleTimeoutMs: REQUEST_COUNT_SCALE_DOWN_MS };
}

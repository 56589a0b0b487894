// The autoscaler of one endpoint (issue 29): how many workers to start now, and when it next looks. The rules
// are the platform's (docs "Endpoint settings", auto-scaling type): REQUEST_COUNT keeps
// ceil((inQueue + inProgress) / N) workers; QUEUE_DELAY adds a worker once a request has waited S seconds.
// What the docs leave open (how often it looks, how many workers one look adds) are settings
// (runtimeSettings.ts, scalerPace), chosen and sourced in docs/emulator.md "Scaling and billing".
import { scalerPace, type RuntimeSettings } from './runtimeSettings';
import type { WaitingLine } from './waitingLine';
import { isComing, runsOn, type EngineWorker, type WorkerDriver } from './workerDriver';

/** What the scaler sees of the endpoint at instant `t`. */
export interface ScaleView {
  t: number;
  /** Workers up or starting (not unhealthy, not retiring). */
  live: number;
  /** Workers that will take a job: starting, idle, or running with room. */
  coming: number;
  /** How many more workers workersMax allows (every listed worker counts, unhealthy ones too). */
  room: number;
  /** Normal jobs waiting (low-priority jobs never start a worker: docs "Execution policies"). */
  inQueue: number;
  inProgress: number;
  /** The last instant the scaler looked (a look is once per instant, however often the engine steps there). */
  lastLookAt: number | undefined;
  /** How many waiting normal jobs, past the `skip` oldest, were queued at or before `since` (at most `limit`). */
  waitedSince(since: number, skip: number, limit: number): number;
  /** When the waiting normal job at position `n` (0: the oldest) was queued. */
  queuedAt(n: number): number | undefined;
}

/** Workers to start at `v.t`. A worker no waiting job needs is never started (only workersMin ones). */
export function workersToAdd(s: RuntimeSettings, v: ScaleView): number {
  let add = Math.max(0, s.workersMin - v.live);
  const unserved = v.inQueue - v.coming - add;
  if (unserved > 0) {
    const { lookMs, step } = scalerPace(s);
    // A queue with no worker at all gets one at once, whatever the type (our choice: docs/emulator.md).
    let want = v.live + add === 0 ? 1 : 0;
    if (lookMs === 0 || (v.t % lookMs === 0 && v.t !== v.lastLookAt)) {
      const byRule = s.scalerType === 'REQUEST_COUNT'
        ? Math.ceil((v.inQueue + v.inProgress) / Math.max(1, Math.ceil(s.scalerValue))) - (v.live + add)
        : v.waitedSince(v.t - s.scalerValue * 1000, v.coming + add, Math.max(0, v.room - add));
      want = Math.max(want, Math.min(step, byRule));
    }
    add += Math.max(0, Math.min(want, unserved));
  }
  return Math.max(0, Math.min(add, v.room));
}

/** The next instant after `v.t` at which the scaler may add a worker by itself (undefined: only a change can). */
export function nextLookAt(s: RuntimeSettings, v: ScaleView): number | undefined {
  if (v.room <= 0 || v.inQueue <= v.coming) return undefined;
  const { lookMs } = scalerPace(s);
  let at = v.t + (lookMs > 0 ? 1 : 0);
  if (s.scalerType === 'QUEUE_DELAY') {
    // Nothing happens before the first job no worker is coming for has waited S seconds.
    const q = v.queuedAt(v.coming);
    if (q === undefined) return undefined;
    at = Math.max(at, q + Math.ceil(s.scalerValue * 1000));
  } else if (lookMs === 0) {
    return undefined;
  }
  return lookMs > 0 ? Math.ceil(at / lookMs) * lookMs : at;
}

/** The scaler's view of an engine's workers and waiting line at `t`. */
export function scaleViewOf(
  t: number, s: RuntimeSettings, workers: readonly EngineWorker[], line: WaitingLine, driver: WorkerDriver, lastLookAt: number | undefined,
): ScaleView {
  let live = 0;
  let coming = 0;
  let inProgress = 0;
  for (const w of workers) {
    if (w.status !== 'unhealthy' && !w.retiring) live++;
    if (isComing(w, driver)) coming++;
    for (const job of w.jobs) if (runsOn(job, w)) inProgress++;
  }
  return {
    t, live, coming, inProgress, lastLookAt, room: s.workersMax - workers.length, inQueue: line.normalCount,
    waitedSince: (since, skip, limit) => line.normalQueuedBy(since, skip, limit),
    queuedAt: (n) => line.normalQueuedAt(n),
  };
}

/** The workers to let go when workersMax is lowered to `max`: idle ones first, then starting, then running, newest first. */
export function aboveMax(workers: readonly EngineWorker[], max: number): EngineWorker[] {
  const live = workers.filter((w) => !w.retiring && w.status !== 'unhealthy');
  const order = ['idle', 'initializing', 'running'];
  const byOrder = [...live].reverse().sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
  return byOrder.slice(0, Math.max(0, live.length - max));
}

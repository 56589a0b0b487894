// Two rules of the engine (jobs/engine.ts) that come from changing an endpoint while it runs (issue 28, PATCH
// /v2/serverless/<id>), kept here so the engine stays one readable loop:
// - a worker above workersMax, or on an older configuration version than the endpoint's (a container change cut
//   a release), leaves as it cycles: an idle or starting one at once, a running one once its jobs are done
//   (`retiring`). Running jobs are never cut short, and no worker is started above workersMax.
// - always-on workers are billed while they are up: the platform bills active (workersMin) workers all the time,
//   not only while they run jobs. Idle time of up to workersMin idle workers is billed as it passes (for an
//   endpoint with billAlwaysOn: every one the REST API created or changed); a flex worker's idle timeout is not
//   (docs/emulator.md, "Cost").
import type { EngineWorker } from './workerDriver';

/** Stops or retires the workers that must go; `drop` removes one now. */
export function cycleWorkers(
  workers: readonly EngineWorker[], workersMax: number, version: number, drop: (w: EngineWorker, why: string) => void,
): void {
  const live = workers.filter((w) => w.status !== 'unhealthy' && !w.retiring);
  // Idle and starting workers go first, so lowering workersMax under load stops the ones not running a job.
  live.sort((a, b) => Number(a.status === 'running') - Number(b.status === 'running'));
  let count = live.length;
  for (const w of live) {
    const stale = w.version < version;
    const over = count > workersMax;
    if (!stale && !over) continue;
    const why = stale ? `it runs version ${w.version}; the endpoint is on version ${version}` : `the endpoint's workers max is now ${workersMax}`;
    count--;
    if (w.status === 'running') {
      w.retiring = true;
      w.retireReason = `${why} (it stopped after its last job)`;
    } else {
      drop(w, why);
    }
  }
}

/**
 * Bills the idle time of up to `billed` idle workers, each from where its billing stopped up to `t`. Every idle
 * worker's mark moves to `t` even when none is billed, so turning the billing on never bills the time before.
 */
export function billIdleTime(workers: readonly EngineWorker[], billed: number, t: number, bill: ((ms: number, atMs: number) => void) | undefined): void {
  let count = 0;
  for (const w of workers) {
    if (w.status !== 'idle') continue;
    const from = Math.max(w.idleSinceMs, w.idleBilledToMs ?? w.idleSinceMs);
    if (bill && count++ < billed && t > from) bill(t - from, t);
    w.idleBilledToMs = t;
  }
}

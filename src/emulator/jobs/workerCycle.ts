// Two rules of the engine (jobs/engine.ts) that come from changing an endpoint while it runs (issue 28, PATCH
// /v2/serverless/<id>), kept here so the engine stays one readable loop:
// - a worker above workersMax, or on an older configuration version than the endpoint's (a container change cut
//   a release), leaves as it cycles: an idle or starting one at once, a running one once its jobs are done
//   (`retiring`). Running jobs are never cut short, and no worker is started above workersMax.
// Billing is not here: every worker life (start, execution, idle; workersMin ones included) is billed once by
// workerLives.ts (issue 29).
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

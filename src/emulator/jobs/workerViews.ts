// What /health and the REST workers list show of an engine's workers: counts by status, and one line each.
import type { WorkerCounts, WorkerSnapshot } from './job';
import { runsOn, type EngineWorker } from './workerDriver';

export function snapshotOf(workers: readonly EngineWorker[]): WorkerSnapshot[] {
  return workers.map((w) => {
    const running = [...w.jobs].find((j) => runsOn(j, w));
    return {
      id: w.id,
      state: w.status,
      ...(w.status !== 'initializing' && w.readyAtMs !== undefined ? { readyAtMs: w.readyAtMs } : {}),
      ...(running ? { jobId: running.id } : {}),
      version: w.version,
    };
  });
}

export function countsOf(workers: readonly EngineWorker[]): WorkerCounts {
  const c: WorkerCounts = { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 };
  for (const w of workers) {
    c[w.status]++;
    if (w.status === 'idle' || w.status === 'running') c.ready++;
  }
  return c;
}

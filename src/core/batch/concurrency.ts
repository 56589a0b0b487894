// How many jobs a batch keeps in flight by default (issue 23 "Running"): enough that every worker the endpoint
// may run has a job and the next one already waits in the queue (the hand-off from the queue to a free worker
// then overlaps the job before it, instead of idling the worker for a round trip), and no more: a job queued on
// the service is one more to cancel, and a batch should not crowd out the user's other work on the endpoint.
import type { HealthResponse } from '../runtime/schemas';

export const MAX_DEFAULT_CONCURRENCY = 64;

/** `workersMax` from GET /v2/serverless/{id} (`workers.max`); `health` from GET /v2/{id}/health, if read. */
export function defaultConcurrency(workersMax: number | undefined, health?: Pick<HealthResponse, 'workers'>): number {
  let workers = Math.max(1, workersMax ?? 1);
  // Workers the platform says cannot take jobs now do not count (a throttled or unhealthy worker runs nothing).
  const down = health ? health.workers.unhealthy + health.workers.throttled : 0;
  workers = Math.max(1, workers - down);
  return Math.min(MAX_DEFAULT_CONCURRENCY, workers * 2);
}

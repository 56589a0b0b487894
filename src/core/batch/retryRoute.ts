// Retry Failed, per row (docs/batches.md "Running"): `/retry` runs the same job again under its id, but only while
// the service still holds it (results are kept 30 minutes after the end) and only for a job that exists (a
// REJECTED input never became one). Anything else is sent anew, its old id kept in `previousJobIds`.
import { RESULT_RETENTION_MINUTES } from '../jobs/waitForJob';
import type { JobRow } from './manifestFormat';

const RETENTION_MS = RESULT_RETENTION_MINUTES * 60_000;

/** Whether the row's job can still go through `/retry` at `now` (else it is submitted anew). */
export function retryableOnService(row: Pick<JobRow, 'jobId' | 'endedAt' | 'status'>, now: number): boolean {
  return row.jobId !== undefined && row.endedAt !== undefined && now - row.endedAt < RETENTION_MS && row.status !== 'REJECTED';
}

// Whether a job the last window left running may be followed again, and if not, why (shown as its error).
import { RESULT_RETENTION_MINUTES } from '../core/jobs';
import { checkId } from '../core/ids';
import type { JobRecord } from './jobRecord';

/** SPEC 8.6: results of a dedicated endpoint stay readable through /status for 30 minutes (the core's one constant). */
export const RETENTION_MS = RESULT_RETENTION_MINUTES * 60 * 1000;

/** Why `record` is not followed again (undefined: it is). */
export function whyNotResumed(record: JobRecord, now: number): string | undefined {
  // A record read back from workspaceState is not trusted to build a route (issue 12): say why, send nothing.
  const refused = checkId(record.endpointId, 'endpoint') ?? (record.jobId ? checkId(record.jobId, 'job') : undefined);
  if (refused) return `Not resumed: ${refused}. Nothing was sent.`;
  if (!record.jobId) {
    return 'The window closed before the service answered the submission, so the job id is unknown. Check the endpoint before running it again.';
  }
  if (now - record.submittedAt > RETENTION_MS) {
    return 'The window closed while this job was running, and it is now older than the 30 minutes the service keeps results (SPEC 8.6).';
  }
  return undefined;
}

// What the panel says about a finished job's output as a whole, beyond its parts: a COMPLETED job whose worker
// returned nothing (a handler that forgot its `return`), and a result near the platform's size limit for one
// job's result (about 20 MB: over it the platform answers the worker's result post with a 400 and the job
// fails), where the remedy is for the worker to upload its files (`s3Config` in the request) and return links.
// The platform documents 20 MB as the largest payload of /runsync (docs.runpod.io, serverless/endpoints/
// operation-reference); a worker's result post over it is refused the same way.

/** The platform's limit for one job's result, in bytes of JSON (about 20 MB). */
export const RESULT_LIMIT_BYTES = 20 * 1000 * 1000;
/** From here on a result is "near" the limit: one more image and the next job fails. */
export const RESULT_NEAR_BYTES = 15 * 1000 * 1000;

export const EMPTY_OUTPUT_NOTE = 'The worker returned no output. Its handler probably ended without returning anything (or returned None, an empty string or an empty object).';

/** Whether a COMPLETED job's output is nothing at all. */
export function isEmptyOutput(output: unknown): boolean {
  if (output === undefined || output === null) return true;
  if (typeof output === 'string') return output.trim() === '';
  if (Array.isArray(output)) return output.length === 0;
  return typeof output === 'object' && Object.keys(output).length === 0;
}

/**
 * About how many bytes the output is as JSON, counted by walking it (JSON.stringify would make one more copy
 * of a 20 MB result, which issue 11's memory rule forbids). Exact for ASCII strings, close for the rest.
 */
export function approximateJsonBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return String(value).length;
  if (depth > 64) return 0;
  let total = 2;
  if (Array.isArray(value)) {
    for (const v of value) total += approximateJsonBytes(v, depth + 1) + 1;
  } else {
    for (const [k, v] of Object.entries(value)) total += k.length + 4 + approximateJsonBytes(v, depth + 1);
  }
  return total;
}

/** The words for a result near or over the limit, or undefined for an ordinary one. */
export function resultSizeNote(output: unknown): string | undefined {
  const bytes = approximateJsonBytes(output);
  if (bytes < RESULT_NEAR_BYTES) return undefined;
  const mb = (bytes / 1e6).toFixed(1);
  const advice = 'Have the worker upload its files instead and return their links: pass `s3Config` with the request (the worker\'s rp_upload uses it), or write to your own bucket.';
  return bytes > RESULT_LIMIT_BYTES
    ? `This result is ${mb} MB, over the platform's limit of about 20 MB for a job's result: on RunPod the worker's result post is refused (400) and the job fails. ${advice}`
    : `This result is ${mb} MB, near the platform's limit of about 20 MB for a job's result (over it the job fails). ${advice}`;
}

const TOO_LARGE_NOTE = 'The result was too large for the platform (about 20 MB per job). Have the worker upload its files (`s3Config` in the request) and return their links.';

/**
 * Words about a finished job's output as a whole, shown before its parts: a COMPLETED job that returned
 * nothing (unless it streamed text, which is then its output), a result near or over the size limit, a FAILED
 * job whose error is the size limit.
 */
export function outputNotices(job: { status: string; output?: unknown; error?: unknown }, streamedText?: string): string[] {
  if (job.status === 'COMPLETED' && isEmptyOutput(job.output) && !streamedText) return [EMPTY_OUTPUT_NOTE];
  const size = job.status === 'COMPLETED' ? resultSizeNote(job.output) : undefined;
  if (size) return [size];
  if (job.status === 'FAILED' && typeof job.error === 'string' && isResultTooLargeError(job.error)) return [TOO_LARGE_NOTE];
  return [];
}

/** Words the spec's and the platform's size failures use, so a FAILED job's error can point at the same remedy. */
export function isResultTooLargeError(error: string): boolean {
  return /(payload|result|output|body)[^.]{0,40}(too large|exceeds?|limit)|\b413\b|request entity too large/i.test(error);
}

// TEMPORARY stand-in for src/core/jobs (runJob / waitForJob, owned by the core-HTTP engineer) with the same
// signatures, so the runner can be exercised before that module lands. Replaced by the real import as soon
// as it does; nothing else may import this file.
import { CancelledError } from '../core/http/errors';
import { isTerminalStatus, type Job, type JobInput } from '../core/schemas';
import type { ServiceClient } from '../core/service';

export interface WaitOptions {
  signal?: AbortSignal;
  onUpdate?: (job: Job) => void;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const t = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = (): void => { clearTimeout(t); reject(new CancelledError()); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function waitForJob(client: ServiceClient, endpointId: string, jobId: string, options: WaitOptions = {}): Promise<Job> {
  let delay = 250;
  for (;;) {
    const job = await client.status(endpointId, jobId, options.signal ? { signal: options.signal } : {});
    options.onUpdate?.(job);
    if (isTerminalStatus(job.status)) return job;
    await sleep(delay, options.signal);
    delay = Math.min(2000, Math.round(delay * 1.5));
  }
}

export async function runJob(client: ServiceClient, endpointId: string, input: JobInput, options: WaitOptions & { mode?: 'async' | 'sync' } = {}): Promise<Job> {
  const call = options.signal ? { signal: options.signal } : {};
  if (options.mode === 'sync') {
    const job = await client.runSync(endpointId, input, call);
    options.onUpdate?.(job);
    return isTerminalStatus(job.status) ? job : waitForJob(client, endpointId, job.id, options);
  }
  const submitted = await client.run(endpointId, input, call);
  options.onUpdate?.(submitted as Job);
  return waitForJob(client, endpointId, submitted.id, options);
}

// Submitting a job and following it to its end, asynchronously (/run then /status) or synchronously
// (/runsync, then /status with the same id if the service answered before the job was done: the real
// service returns a runsync after its wait with the job still IN_QUEUE or IN_PROGRESS, SPEC 2.7).
import { systemClock } from '../http/clock';
import { isTerminalStatus, type Job, type JobInput } from '../schemas';
import type { ServiceClient } from '../service';
import type { RequestOptions } from '../runtime/schemas';
import { durationKey, sharedDurationModel } from './durationModel';
import { waitForJob, type WaitOptions } from './waitForJob';

export type RunMode = 'async' | 'sync';

export interface RunJobOptions extends Omit<WaitOptions, 'initial' | 'submittedAt'> {
  mode: RunMode;
  /** For sync mode: how long the service should hold the request (`?wait=`, ms); its default otherwise. */
  waitMs?: number;
  /** Called once the service has accepted the job, with its id: the caller can record it before the wait. */
  onSubmitted?: (job: Job) => void;
  /** The request options sent beside the input (webhook, policy, s3Config), as the input file gave them. */
  request?: RequestOptions;
}

/**
 * Runs `input` on `endpointId` and resolves with the job in a terminal state. The submission is sent once
 * and never repeated (a duplicate job costs money); `onUpdate` hears the submission answer and every later
 * status change.
 */
export async function runJob(client: ServiceClient, endpointId: string, input: JobInput, options: RunJobOptions): Promise<Job> {
  const { mode, waitMs, onSubmitted, request, ...wait } = options;
  const clock = wait.clock ?? systemClock;
  const call = { ...(wait.signal ? { signal: wait.signal } : {}), ...(request ? { request } : {}) };
  const submittedAt = clock.now();
  const first: Job =
    mode === 'sync'
      ? await client.runSync(endpointId, input, waitMs === undefined ? call : { ...call, waitMs })
      : await client.run(endpointId, input, call);
  onSubmitted?.(first);
  wait.onUpdate?.(first);
  if (isTerminalStatus(first.status)) {
    (wait.durations ?? sharedDurationModel).record(durationKey(client.settings.jobsBaseUrl, endpointId), first.delayTime, first.executionTime);
    return first;
  }
  return waitForJob(client, endpointId, first.id, { ...wait, initial: first, submittedAt });
}

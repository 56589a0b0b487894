// Following one submitted job of a batch to its end, through the single job's own wait (../jobs/waitForJob.ts:
// status-sync long polls where the service has them, learned durations, quota-friendly pauses), so a batch row
// and a job panel learn a job's life from the same place. What a batch adds: the service being down or the key
// being refused is not the end of the job; the wait starts again once the service answers or the user resumes.
import { ForbiddenError, NotFoundError, ServiceError, UnauthorizedError } from '../http/errors';
import type { Clock } from '../http/clock';
import type { Job } from '../schemas';
import type { ServiceClient } from '../service';
import { waitForJob, type WaitOptions } from '../jobs/waitForJob';

export type FollowEnd =
  | { kind: 'ended'; job: Job }
  /** The service no longer knows the job (past retention, or another service): its end was not seen. */
  | { kind: 'lost'; message: string };

export interface FollowHooks {
  /** A status change before the end (IN_QUEUE -> IN_PROGRESS). */
  onStatus(job: Job): void;
  /** The key was refused: pause the batch; resolves when the user resumes (or at once if it was cancelled). */
  onAuthFailure(message: string): Promise<void>;
  /** The service did not answer a few times in a row: say so; the follow waits `retryMs` and asks again. */
  onServiceDown(message: string): void;
}

export interface FollowOptions {
  client: ServiceClient;
  endpointId: string;
  jobId: string;
  clock: Clock;
  initial?: Job;
  submittedAt?: number;
  hooks: FollowHooks;
  wait?: Pick<WaitOptions, 'durations' | 'routeSupport' | 'statusSyncWaitMs'>;
  retryMs: number;
}

export async function followBatchJob(o: FollowOptions): Promise<FollowEnd> {
  let initial = o.initial;
  // Told only when the status changes from the last one told: the wait also reports each new progress update of
  // a running job (same status), and each one told was a manifest line and a row sent to the panel for nothing.
  let told = o.initial?.status;
  for (;;) {
    try {
      const job = await waitForJob(o.client, o.endpointId, o.jobId, {
        ...o.wait,
        clock: o.clock,
        ...(initial ? { initial } : {}),
        ...(o.submittedAt !== undefined ? { submittedAt: o.submittedAt } : {}),
        onUpdate: (j) => {
          if (j.status === told) return;
          told = j.status;
          o.hooks.onStatus(j);
        },
      });
      return { kind: 'ended', job };
    } catch (e) {
      initial = undefined;
      if (e instanceof NotFoundError) return { kind: 'lost', message: e.message };
      if (e instanceof UnauthorizedError || e instanceof ForbiddenError) {
        await o.hooks.onAuthFailure(e.message);
        continue;
      }
      // Network, timeout, 5xx, 429 past the HTTP layer's own retries, or a broken answer: the job is still on the
      // service, whatever this machine sees; ask again after a pause, for as long as it takes.
      if (!(e instanceof ServiceError)) throw e;
      o.hooks.onServiceDown(e.message);
      await o.clock.sleep(o.retryMs);
    }
  }
}

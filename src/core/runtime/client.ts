// The job-control calls of the service client (cancel, retry, health, purge-queue, stream, status-sync), on
// the same HTTP layer as SPEC 4's routes: the same key rules, timeouts, typed errors and rate limits.
// POSTs are never retried (a second cancel is harmless, but a second retry would run the job twice).
import type { HttpTransport } from '../http/request';
import { joinUrl } from '../http/url';
import { Job } from '../schemas';
import type { CallOptions, ConnectionSettings } from '../http/connectionSettings';
import { HealthResponse, JobActionResponse, PurgeQueueResponse, runtimeRoutes, StreamResponse } from './schemas';

/** The longest `?wait=` the platform honours on status-sync (runpod-sdk clamps to 1-90 s). */
export const MAX_STATUS_SYNC_WAIT_MS = 90_000;
export const MIN_STATUS_SYNC_WAIT_MS = 1000;
/** The request's timeout outlasts the server's hold by this much, so a held answer is never cut off. */
const HOLD_MARGIN_MS = 15_000;

export interface RuntimeCalls {
  /** GET /v2/{id}/status-sync/{job}?wait=MS: answered when the job ends or the wait is over (a long poll). */
  statusSync(endpointId: string, jobId: string, options?: CallOptions & { waitMs?: number }): Promise<Job>;
  /** POST /v2/{id}/cancel/{job}: a queued or running job becomes CANCELLED. */
  cancel(endpointId: string, jobId: string, options?: CallOptions): Promise<JobActionResponse>;
  /** POST /v2/{id}/retry/{job}: a FAILED or TIMED_OUT job is queued again under the same id. */
  retry(endpointId: string, jobId: string, options?: CallOptions): Promise<JobActionResponse>;
  /** GET /v2/{id}/health: jobs and workers of the endpoint, by state. */
  health(endpointId: string, options?: CallOptions): Promise<HealthResponse>;
  /** POST /v2/{id}/purge-queue: removes the queued jobs (running ones go on). */
  purgeQueue(endpointId: string, options?: CallOptions): Promise<PurgeQueueResponse>;
  /** GET /v2/{id}/stream/{job}: what the job streamed since the last call, and its status. */
  /** `maxBodyBytes`: an answer longer than this fails with BodyTooLargeError, unread. */
  stream(endpointId: string, jobId: string, options?: CallOptions & { maxBodyBytes?: number }): Promise<StreamResponse>;
}

export function clampStatusSyncWait(waitMs: number): number {
  return Math.min(MAX_STATUS_SYNC_WAIT_MS, Math.max(MIN_STATUS_SYNC_WAIT_MS, Math.round(waitMs)));
}

export function createRuntimeCalls(http: HttpTransport, settings: Readonly<ConnectionSettings>): RuntimeCalls {
  const url = (route: string, query?: URLSearchParams): URL => joinUrl(settings.jobsBaseUrl, route, query);
  return {
    async statusSync(endpointId, jobId, options = {}) {
      const { waitMs, ...call } = options;
      const wait = clampStatusSyncWait(waitMs ?? MAX_STATUS_SYNC_WAIT_MS);
      const timeoutMs = call.timeoutMs ?? wait + HOLD_MARGIN_MS;
      const target = url(runtimeRoutes.statusSync(endpointId, jobId), new URLSearchParams({ wait: String(wait) }));
      // Tagged as the job's status poll: a wait before its retry is shown on the job (issue 12).
      return http.send({ method: 'GET', url: target, idempotent: true, route: { kind: 'status', endpointId, jobId }, ...call, timeoutMs }, Job);
    },
    async cancel(endpointId, jobId, options = {}) {
      return http.send({ method: 'POST', url: url(runtimeRoutes.cancel(endpointId, jobId)), body: {}, idempotent: false, route: { kind: 'jobControl', endpointId, jobId }, ...options }, JobActionResponse);
    },
    async retry(endpointId, jobId, options = {}) {
      return http.send({ method: 'POST', url: url(runtimeRoutes.retry(endpointId, jobId)), body: {}, idempotent: false, route: { kind: 'jobControl', endpointId, jobId }, ...options }, JobActionResponse);
    },
    async health(endpointId, options = {}) {
      return http.send({ method: 'GET', url: url(runtimeRoutes.health(endpointId)), idempotent: true, route: { kind: 'health', endpointId }, ...options }, HealthResponse);
    },
    async purgeQueue(endpointId, options = {}) {
      return http.send({ method: 'POST', url: url(runtimeRoutes.purgeQueue(endpointId)), body: {}, idempotent: false, route: { kind: 'jobControl', endpointId }, ...options }, PurgeQueueResponse);
    },
    async stream(endpointId, jobId, options = {}) {
      // Not retried by the HTTP layer: each answer hands over the chunks since the last one, so a request
      // whose answer was lost may have taken chunks with it. The stream follower decides what to do.
      return http.send({ method: 'GET', url: url(runtimeRoutes.stream(endpointId, jobId)), idempotent: false, route: { kind: 'jobControl', endpointId, jobId }, ...options }, StreamResponse);
    },
  };
}

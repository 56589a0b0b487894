// The platform's job-control routes beyond SPEC 4 (cancel, retry, health, purge-queue, stream, status-sync)
// and the request options a job may carry besides `input` (webhook, policy, s3Config). Shapes from the
// serverless operation reference (/serverless/endpoints/operation-reference, send-requests) and the
// platform's own JS client (npm runpod-sdk 1.1.2: CancelOutput, HealthCheck, PurgeQueueOutput,
// EndpointStreamOutput, ExecutionPolicy, S3Config). One definition for the editor, which reads them, and the
// emulator, which writes them. Read leniently, like every response: extra fields pass, and counts the
// service leaves out read as 0.
import * as z from 'zod/mini';
import { pathSegment } from '../ids';
import { JobInput, JobStatus } from '../schemas';
import { zCatch } from '../zodCatch';

const count = z._default(zCatch(z.int().check(z.gte(0)), 0), 0);

/** GET /v2/{id}/health: the endpoint's jobs by state and workers by state (runpod-sdk `HealthCheck`). */
export const HealthResponse = z.looseObject({
  jobs: zCatch(
    z.looseObject({ completed: count, failed: count, inProgress: count, inQueue: count, retried: count }),
    { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
  ),
  workers: zCatch(
    z.looseObject({ idle: count, initializing: count, ready: count, running: count, throttled: count, unhealthy: count }),
    { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 },
  ),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** POST /v2/{id}/cancel/{job} and /retry/{job}: the job's id and its new status (runpod-sdk `CancelOutput`). */
export const JobActionResponse = z.looseObject({
  id: z.string().check(z.minLength(1)),
  status: JobStatus,
  delayTime: z.optional(z.number()),
  executionTime: z.optional(z.number()),
});
export type JobActionResponse = z.infer<typeof JobActionResponse>;

/** POST /v2/{id}/purge-queue: how many queued jobs were removed (runpod-sdk `PurgeQueueOutput`). */
export const PurgeQueueResponse = z.looseObject({ removed: z.int().check(z.gte(0)), status: z.optional(z.string()) });
export type PurgeQueueResponse = z.infer<typeof PurgeQueueResponse>;

/** One item of a stream: what a generator handler yielded, under `output` (the worker SDK's shape). */
export const StreamChunk = z.looseObject({ output: z.optional(z.unknown()) });
export type StreamChunk = z.infer<typeof StreamChunk>;

/** GET /v2/{id}/stream/{job}: the chunks produced since the last call, and the job's status. */
export const StreamResponse = z.looseObject({
  status: JobStatus,
  stream: z._default(zCatch(z.array(StreamChunk), []), []),
  id: z.optional(z.string()),
  error: z.optional(z.unknown()),
});
export type StreamResponse = z.infer<typeof StreamResponse>;

/** `policy` of a request: how long it may run and wait, and whether it queues behind the rest. */
export const ExecutionPolicy = z.strictObject({
  /** Milliseconds a job may run before it ends TIMED_OUT. */
  executionTimeout: z.optional(z.int().check(z.gte(1))),
  /** Milliseconds a job lives, queue time included, before it expires. */
  ttl: z.optional(z.int().check(z.gte(1))),
  /** Queued behind every normal job of the endpoint. */
  lowPriority: z.optional(z.boolean()),
});
export type ExecutionPolicy = z.infer<typeof ExecutionPolicy>;

/** `s3Config`: where a worker may upload large outputs (passed to the worker; the emulator ignores it). */
export const S3Config = z.looseObject({
  accessId: z.string(),
  accessSecret: z.string(),
  bucketName: z.string(),
  endpointUrl: z.string(),
  objectPath: z.optional(z.string()),
});

/** What a request may carry besides `input`, as the docs list them. */
export const RequestOptions = z.strictObject({
  webhook: z.optional(z.string().check(z.minLength(1))),
  policy: z.optional(ExecutionPolicy),
  s3Config: z.optional(S3Config),
});
export type RequestOptions = z.infer<typeof RequestOptions>;

/** The body of /run and /runsync with the documented options: strict, so a typo is named, not sent. */
export const RunRequestWithOptions = z.strictObject({ ...RequestOptions.shape, input: JobInput });
export type RunRequestWithOptions = z.infer<typeof RunRequestWithOptions>;

/** The paths of the job-control routes, on the jobs base URL; every id checked as a path segment (issue 12). */
const ep = (endpointId: string): string => `/v2/${pathSegment(endpointId, 'endpoint')}`;
const job = (jobId: string): string => pathSegment(jobId, 'job');
export const runtimeRoutes = {
  statusSync: (endpointId: string, jobId: string) => `${ep(endpointId)}/status-sync/${job(jobId)}`,
  cancel: (endpointId: string, jobId: string) => `${ep(endpointId)}/cancel/${job(jobId)}`,
  retry: (endpointId: string, jobId: string) => `${ep(endpointId)}/retry/${job(jobId)}`,
  stream: (endpointId: string, jobId: string) => `${ep(endpointId)}/stream/${job(jobId)}`,
  health: (endpointId: string) => `${ep(endpointId)}/health`,
  purgeQueue: (endpointId: string) => `${ep(endpointId)}/purge-queue`,
} as const;

// The REST v2 "Serverless" resources on the billing base URL: the user's endpoints with their worker and
// scaling settings, and an endpoint's live workers. Shapes from the platform's REST API v2 reference
// (docs.runpod.io/api-reference-v2/serverless: list-serverless-endpoints, get-a-serverless-endpoint,
// list-serverless-endpoint-workers; OpenAPI components `Endpoint`, `ListEndpointsResponse`,
// `ListEndpointWorkersResponse`). One definition for the editor, which reads them, and the emulator, which
// writes them. Read leniently like every response (extra fields pass; enums the reference may grow are plain
// strings, with the known values exported for whoever writes them); fields the reference marks required are
// required here.
import * as z from 'zod/mini';
import { pathSegment } from '../ids';
import { DateTime } from '../schemas';

/** `Endpoint.type`: request-routing semantics. */
export const ENDPOINT_TYPES = ['QUEUE', 'LOAD_BALANCER'] as const;
/** `Endpoint.flashboot`: cold-start acceleration mode. */
export const FLASHBOOT_MODES = ['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT'] as const;
/** `Endpoint.scaling.type`: the autoscaling signal. */
export const SCALER_TYPES = ['QUEUE_DELAY', 'REQUEST_COUNT'] as const;
/** A worker's derived state, as `ListEndpointWorkersResponse.workers[].status` writes it. */
export const WORKER_STATUSES = ['RUNNING', 'IDLE', 'INITIALIZING', 'THROTTLED', 'UNHEALTHY'] as const;
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/** `requestUrls`: a queue endpoint's job URLs (with `{job_id}` placeholders), or a load balancer's base and health. */
export const EndpointRequestUrls = z.looseObject({
  run: z.optional(z.string()),
  runSync: z.optional(z.string()),
  status: z.optional(z.string()),
  stream: z.optional(z.string()),
  cancel: z.optional(z.string()),
  retry: z.optional(z.string()),
  purgeQueue: z.optional(z.string()),
  health: z.optional(z.string()),
  base: z.optional(z.string()),
});

/** `gpu`: pools workers are placed on, types taken out of them, GPUs per worker, and the CUDA constraint. */
export const EndpointGpu = z.looseObject({
  pools: z.optional(z.array(z.string())),
  excludedTypes: z.optional(z.array(z.string())),
  count: z.optional(z.int().check(z.gte(1))),
  allowedCudaVersions: z.optional(z.array(z.string())),
  minCudaVersion: z.optional(z.nullable(z.string())),
});

/** `workers`: the scaling bounds; `idleTimeout` in seconds (omitted by the service for REQUEST_COUNT queues). */
export const EndpointWorkers = z.looseObject({
  min: z.optional(z.int().check(z.gte(0))),
  max: z.optional(z.int().check(z.gte(0))),
  idleTimeout: z.optional(z.int()),
});

/** `scaling`: a union on `type` in the reference (`queueDelay` for QUEUE_DELAY, `requestCount` for REQUEST_COUNT). */
export const EndpointScaling = z.looseObject({
  type: z.string(),
  queueDelay: z.optional(z.number()),
  requestCount: z.optional(z.int()),
});

export const ServerlessEndpoint = z.looseObject({
  id: z.string().check(z.minLength(1)),
  /** The human name the user gave the endpoint (required by the reference; not unique). */
  name: z.string(),
  type: z.optional(z.string()),
  requestUrls: z.optional(EndpointRequestUrls),
  image: z.optional(z.string()),
  args: z.optional(z.string()),
  disk: z.optional(z.int()),
  ports: z.optional(z.array(z.string())),
  env: z.optional(z.record(z.string(), z.string())),
  registry: z.optional(z.nullable(z.string())),
  /** GPU endpoints; null or absent for CPU endpoints, which carry `cpu` instead. */
  gpu: z.optional(z.nullable(EndpointGpu)),
  cpu: z.optional(z.array(z.looseObject({ id: z.string(), vcpuCount: z.int(), memory: z.optional(z.int()) }))),
  workers: EndpointWorkers,
  scaling: EndpointScaling,
  dataCenterIds: z.array(z.string()),
  networkVolumes: z.array(z.string()),
  /** Per-request execution timeout, in milliseconds. */
  timeout: z.int(),
  flashboot: z.string(),
  createdAt: DateTime,
});
export type ServerlessEndpoint = z.infer<typeof ServerlessEndpoint>;

/** GET /v2/serverless */
export const ListEndpointsResponse = z.looseObject({ endpoints: z.array(ServerlessEndpoint) });
export type ListEndpointsResponse = z.infer<typeof ListEndpointsResponse>;

export const EndpointWorker = z.looseObject({
  id: z.string().check(z.minLength(1)),
  status: z.string(),
  /** True when the worker runs an older configuration than the endpoint's `endpointVersion`. */
  isStale: z.boolean(),
  version: z.optional(z.nullable(z.int())),
  gpuCount: z.int().check(z.gte(0)),
  image: z.optional(z.nullable(z.string())),
  /** Null until the worker is placed and running. */
  uptimeSeconds: z.optional(z.nullable(z.int().check(z.gte(0)))),
  gpuTypeId: z.optional(z.nullable(z.string())),
  dataCenterId: z.optional(z.nullable(z.string())),
  /** Null if the worker has not started. */
  startedAt: z.optional(z.nullable(DateTime)),
});
export type EndpointWorker = z.infer<typeof EndpointWorker>;

/** A roll-up of `workers` by status: running + idle + initializing + throttled + unhealthy == total. */
export const WorkerSummary = z.looseObject({
  running: z.int().check(z.gte(0)),
  idle: z.int().check(z.gte(0)),
  initializing: z.int().check(z.gte(0)),
  throttled: z.int().check(z.gte(0)),
  unhealthy: z.int().check(z.gte(0)),
  total: z.int().check(z.gte(0)),
});
export type WorkerSummary = z.infer<typeof WorkerSummary>;

/** GET /v2/serverless/{id}/workers: only active workers (scaled-down ones are not listed). */
export const ListEndpointWorkersResponse = z.looseObject({
  workers: z.array(EndpointWorker),
  summary: WorkerSummary,
  endpointVersion: z.optional(z.nullable(z.int())),
});
export type ListEndpointWorkersResponse = z.infer<typeof ListEndpointWorkersResponse>;

/** The paths, in one place for the client and the emulator (both on the billing base URL). */
export const serverlessRoutes = {
  endpoints: '/v2/serverless',
  endpoint: (endpointId: string) => `/v2/serverless/${pathSegment(endpointId, 'endpoint')}`,
  workers: (endpointId: string) => `/v2/serverless/${pathSegment(endpointId, 'endpoint')}/workers`,
  releases: (endpointId: string) => `/v2/serverless/${pathSegment(endpointId, 'endpoint')}/releases`,
  workerLogs: (endpointId: string, workerId: string) =>
    `/v2/serverless/${pathSegment(endpointId, 'endpoint')}/workers/${pathSegment(workerId, 'endpoint')}/logs`,
  templates: '/v2/templates',
  template: (templateId: string) => `/v2/templates/${pathSegment(templateId, 'endpoint')}`,
  gpuCatalog: '/v2/catalog/gpus',
} as const;

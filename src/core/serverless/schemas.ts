// The REST v2 "Serverless" resources on the billing base URL: the user's endpoints with their worker and
// scaling settings, and an endpoint's live workers. Shapes from the platform's REST API v2 reference
// (docs.runpod.io/api-reference-v2/serverless: list-serverless-endpoints, get-a-serverless-endpoint,
// list-serverless-endpoint-workers; OpenAPI components `Endpoint`, `ListEndpointsResponse`,
// `ListEndpointWorkersResponse`). One definition for the editor, which reads them, and the emulator, which
// writes them. Read leniently like every response (extra fields pass; enums the reference may grow are plain
// strings, with the known values exported for whoever writes them); fields the reference marks required are
// required here.
import * as z from 'zod';
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
  run: z.string().optional(),
  runSync: z.string().optional(),
  status: z.string().optional(),
  stream: z.string().optional(),
  cancel: z.string().optional(),
  retry: z.string().optional(),
  purgeQueue: z.string().optional(),
  health: z.string().optional(),
  base: z.string().optional(),
});

/** `gpu`: pools workers are placed on, types taken out of them, GPUs per worker, and the CUDA constraint. */
export const EndpointGpu = z.looseObject({
  pools: z.array(z.string()).optional(),
  excludedTypes: z.array(z.string()).optional(),
  count: z.number().int().min(1).optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  minCudaVersion: z.string().nullable().optional(),
});

/** `workers`: the scaling bounds; `idleTimeout` in seconds (omitted by the service for REQUEST_COUNT queues). */
export const EndpointWorkers = z.looseObject({
  min: z.number().int().min(0).optional(),
  max: z.number().int().min(0).optional(),
  idleTimeout: z.number().int().optional(),
});

/** `scaling`: a union on `type` in the reference (`queueDelay` for QUEUE_DELAY, `requestCount` for REQUEST_COUNT). */
export const EndpointScaling = z.looseObject({
  type: z.string(),
  queueDelay: z.number().optional(),
  requestCount: z.number().int().optional(),
});

export const ServerlessEndpoint = z.looseObject({
  id: z.string().min(1),
  /** The human name the user gave the endpoint (required by the reference; not unique). */
  name: z.string(),
  type: z.string().optional(),
  requestUrls: EndpointRequestUrls.optional(),
  image: z.string().optional(),
  args: z.string().optional(),
  disk: z.number().int().optional(),
  ports: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  registry: z.string().nullable().optional(),
  /** GPU endpoints; null or absent for CPU endpoints, which carry `cpu` instead. */
  gpu: EndpointGpu.nullable().optional(),
  cpu: z.array(z.looseObject({ id: z.string(), vcpuCount: z.number().int(), memory: z.number().int().optional() })).optional(),
  workers: EndpointWorkers,
  scaling: EndpointScaling,
  dataCenterIds: z.array(z.string()),
  networkVolumes: z.array(z.string()),
  /** Per-request execution timeout, in milliseconds. */
  timeout: z.number().int(),
  flashboot: z.string(),
  createdAt: DateTime,
});
export type ServerlessEndpoint = z.infer<typeof ServerlessEndpoint>;

/** GET /v2/serverless */
export const ListEndpointsResponse = z.looseObject({ endpoints: z.array(ServerlessEndpoint) });
export type ListEndpointsResponse = z.infer<typeof ListEndpointsResponse>;

export const EndpointWorker = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  /** True when the worker runs an older configuration than the endpoint's `endpointVersion`. */
  isStale: z.boolean(),
  version: z.number().int().nullable().optional(),
  gpuCount: z.number().int().min(0),
  image: z.string().nullable().optional(),
  /** Null until the worker is placed and running. */
  uptimeSeconds: z.number().int().min(0).nullable().optional(),
  gpuTypeId: z.string().nullable().optional(),
  dataCenterId: z.string().nullable().optional(),
  /** Null if the worker has not started. */
  startedAt: DateTime.nullable().optional(),
});
export type EndpointWorker = z.infer<typeof EndpointWorker>;

/** A roll-up of `workers` by status: running + idle + initializing + throttled + unhealthy == total. */
export const WorkerSummary = z.looseObject({
  running: z.number().int().min(0),
  idle: z.number().int().min(0),
  initializing: z.number().int().min(0),
  throttled: z.number().int().min(0),
  unhealthy: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type WorkerSummary = z.infer<typeof WorkerSummary>;

/** GET /v2/serverless/{id}/workers: only active workers (scaled-down ones are not listed). */
export const ListEndpointWorkersResponse = z.looseObject({
  workers: z.array(EndpointWorker),
  summary: WorkerSummary,
  endpointVersion: z.number().int().nullable().optional(),
});
export type ListEndpointWorkersResponse = z.infer<typeof ListEndpointWorkersResponse>;

/** The paths, in one place for the client and the emulator (both on the billing base URL). */
export const serverlessRoutes = {
  endpoints: '/v2/serverless',
  endpoint: (endpointId: string) => `/v2/serverless/${pathSegment(endpointId, 'endpoint')}`,
  workers: (endpointId: string) => `/v2/serverless/${pathSegment(endpointId, 'endpoint')}/workers`,
} as const;

// The REST v2 answers beside the endpoint itself: an endpoint's releases and rollout (listEndpointReleases),
// templates (Template, ListTemplatesResponse), the GPU catalog (re-exported from ./catalogSchemas.ts) and one worker
// log event (getWorkerLogs' SSE `data`). Shapes from the platform's REST API v2 document; read leniently like
// every response (extra fields pass), with the fields the document marks required required here. One definition
// for the client, which reads them, and the emulator, which writes them.
import * as z from 'zod/mini';
import { DateTime } from '../schemas';

/** `ReleaseDiffEntry`: one changed field, old and new as raw JSON (null when added / removed). */
export const ReleaseDiffEntry = z.looseObject({ field: z.string(), old: z.unknown(), new: z.unknown() });
export type ReleaseDiffEntry = z.infer<typeof ReleaseDiffEntry>;

export const Release = z.looseObject({
  id: z.string().check(z.minLength(1)),
  version: z.optional(z.nullable(z.int())),
  /** `GIT_BUILD` or `MANUAL`. */
  source: z.string(),
  buildId: z.optional(z.nullable(z.string())),
  createdByUserId: z.optional(z.nullable(z.string())),
  /** Workers currently running this release's version. */
  workerCount: z.int().check(z.gte(0)),
  createdAt: DateTime,
  diff: z.array(ReleaseDiffEntry),
});
export type Release = z.infer<typeof Release>;

export const RolloutSummary = z.looseObject({
  inProgress: z.boolean(),
  workersOnLatest: z.int().check(z.gte(0)),
  workersTotal: z.int().check(z.gte(0)),
  percentOnLatest: z.int().check(z.gte(0), z.lte(100)),
});
export type RolloutSummary = z.infer<typeof RolloutSummary>;

/** GET /v2/serverless/{id}/releases: newest first. */
export const ListEndpointReleasesResponse = z.looseObject({
  endpointVersion: z.optional(z.nullable(z.int())),
  rollout: RolloutSummary,
  releases: z.array(Release),
});
export type ListEndpointReleasesResponse = z.infer<typeof ListEndpointReleasesResponse>;

export const Template = z.looseObject({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  image: z.string(),
  args: z.string(),
  disk: z.int(),
  mounts: z.looseObject({ persistent: z.optional(z.looseObject({ size: z.int(), path: z.string() })) }),
  ports: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  registry: z.nullable(z.string()),
  serverless: z.boolean(),
  public: z.boolean(),
  category: z.string(),
  startSsh: z.boolean(),
  startJupyter: z.boolean(),
  allowedCudaVersions: z.array(z.string()),
});
export type Template = z.infer<typeof Template>;

export const ListTemplatesResponse = z.looseObject({ templates: z.array(Template) });
export type ListTemplatesResponse = z.infer<typeof ListTemplatesResponse>;

// The GPU catalog's schemas are in ./catalogSchemas.ts (extension.js reads the catalog; the rest here is for rooms).
export { GpuType, ListGpuTypesResponse } from './catalogSchemas';

/** getWorkerLogs: the JSON `data` of one Server-Sent Event; its `id:` line is `ts`, for Last-Event-ID resume. */
export const WorkerLogEvent = z.looseObject({
  /** `container` (stdout/stderr) or `system` (the host's lifecycle lines). */
  source: z.string(),
  line: z.string(),
  ts: DateTime,
});
export type WorkerLogEvent = z.infer<typeof WorkerLogEvent>;

export const LOG_SOURCES = ['container', 'system'] as const;
export type LogSource = (typeof LOG_SOURCES)[number];

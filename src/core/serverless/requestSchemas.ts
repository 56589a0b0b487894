// The bodies we send to the REST v2 "Serverless" and "Templates" write routes (createEndpoint, updateEndpoint,
// createTemplate, updateTemplate), from the platform's REST API v2 document (components CreateEndpointRequest,
// UpdateEndpointRequest, CreateEndpointGpuConfig, UpdateEndpointGpuConfig, EndpointWorkers, EndpointScaling,
// CreateTemplateRequest, UpdateTemplateRequest). Strict, as every request: an unknown field is an error, not
// something silently dropped. The emulator validates what it receives with these same schemas (one definition),
// so a body the client may send is exactly a body the emulator accepts. Ranges are the document's: idleTimeout
// 1..3600 s, queueDelay >= 0.5 s, requestCount >= 1, disk >= 1 GB, gpu.count >= 1, vcpuCount >= 2.
import * as z from 'zod/mini';
import '../zodMessages';

export const FLASHBOOT = z.enum(['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT']);
export const ENDPOINT_TYPE = z.enum(['QUEUE', 'LOAD_BALANCER']);
export const TEMPLATE_CATEGORY = z.enum(['CPU', 'NVIDIA', 'AMD']);

const CUDA = z.string().check(z.regex(/^\d+\.\d+$/, 'must be a CUDA version as major.minor, such as "12.8"'));

/** `EndpointWorkers` (additionalProperties false): bounds and the idle timeout in seconds. */
export const WorkersRequest = z.strictObject({
  min: z.optional(z.int().check(z.gte(0))),
  max: z.optional(z.int().check(z.gte(0))),
  idleTimeout: z.optional(z.int().check(z.gte(1), z.lte(3600))),
});

/** `EndpointScaling`: a union on `type`, each variant closed. */
export const ScalingRequest = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('QUEUE_DELAY'), queueDelay: z.number().check(z.gte(0.5)) }),
  z.strictObject({ type: z.literal('REQUEST_COUNT'), requestCount: z.int().check(z.gte(1)) }),
]);
export type ScalingRequest = z.infer<typeof ScalingRequest>;

/** `CreateEndpointGpuConfig`: pools are required on create. */
export const CreateGpuRequest = z.strictObject({
  pools: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  excludedTypes: z.optional(z.array(z.string())),
  count: z.optional(z.int().check(z.gte(1))),
  allowedCudaVersions: z.optional(z.array(CUDA)),
  minCudaVersion: z.optional(CUDA),
});

/**
 * `UpdateEndpointGpuConfig`: every field optional, but `excludedTypes` requires `pools` (dependentRequired):
 * the two are one selection, and a `pools` sent alone clears the exclusions. See ./endpointPatch.ts.
 */
export const UpdateGpuRequest = z.strictObject({
  pools: z.optional(z.array(z.string().check(z.minLength(1))).check(z.minLength(1))),
  excludedTypes: z.optional(z.array(z.string())),
  count: z.optional(z.int().check(z.gte(1))),
  allowedCudaVersions: z.optional(z.array(CUDA)),
  minCudaVersion: z.optional(z.string().check(z.regex(/^$|^\d+\.\d+$/, 'must be major.minor, or "" to clear the floor'))),
});
export type UpdateGpuRequest = z.infer<typeof UpdateGpuRequest>;

export const CpuRequest = z.array(z.strictObject({
  id: z.string().check(z.minLength(1)),
  vcpuCount: z.int().check(z.gte(2)),
})).check(z.minLength(1));

/** `ContainerConfig`, the container settings shared by endpoints and templates. */
const container = {
  image: z.optional(z.string().check(z.minLength(1))),
  args: z.optional(z.string()),
  disk: z.optional(z.int().check(z.gte(1))),
  ports: z.optional(z.array(z.string())),
  env: z.optional(z.record(z.string(), z.string())),
  registry: z.optional(z.nullable(z.string())),
};

export const CreateEndpointRequest = z.strictObject({
  ...container,
  name: z.string().check(z.minLength(1)),
  type: ENDPOINT_TYPE,
  scaling: ScalingRequest,
  templateId: z.optional(z.string().check(z.minLength(1))),
  gpu: z.optional(CreateGpuRequest),
  cpu: z.optional(CpuRequest),
  workers: z.optional(WorkersRequest),
  dataCenterIds: z.optional(z.array(z.string())),
  networkVolumes: z.optional(z.array(z.string())),
  timeout: z.optional(z.int().check(z.gte(0))),
  flashboot: z.optional(FLASHBOOT),
});
export type CreateEndpointRequest = z.infer<typeof CreateEndpointRequest>;

export const UpdateEndpointRequest = z.strictObject({
  ...container,
  name: z.optional(z.string().check(z.minLength(1))),
  templateId: z.optional(z.string().check(z.minLength(1))),
  gpu: z.optional(UpdateGpuRequest),
  cpu: z.optional(CpuRequest),
  workers: z.optional(WorkersRequest),
  scaling: z.optional(ScalingRequest),
  dataCenterIds: z.optional(z.array(z.string())),
  networkVolumes: z.optional(z.array(z.string())),
  timeout: z.optional(z.int().check(z.gte(0))),
  flashboot: z.optional(FLASHBOOT),
});
export type UpdateEndpointRequest = z.infer<typeof UpdateEndpointRequest>;

const templateFields = {
  allowedCudaVersions: z.optional(z.array(CUDA)),
  category: z.optional(TEMPLATE_CATEGORY),
  mounts: z.optional(z.strictObject({ persistent: z.optional(z.strictObject({ size: z.int().check(z.gte(10)), path: z.string() })) })),
  public: z.optional(z.boolean()),
  serverless: z.optional(z.boolean()),
  startJupyter: z.optional(z.boolean()),
  startSsh: z.optional(z.boolean()),
};

export const CreateTemplateRequest = z.strictObject({
  ...container,
  ...templateFields,
  name: z.string().check(z.minLength(1)),
  image: z.string().check(z.minLength(1)),
});
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>;

export const UpdateTemplateRequest = z.strictObject({
  ...container,
  ...templateFields,
  name: z.optional(z.string().check(z.minLength(1))),
});
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequest>;

/** A zod issue as one line naming the field: `workers.idleTimeout: Too big: expected number to be <=3600`. */
export function issueText(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const where = path ? `${path}.` : '';
    return issue.keys.map((k) => `${where}${k}: unknown field`).join('; ');
  }
  return `${path || '(body)'}: ${issue.message}`;
}

/** Every problem of `body` against `schema`, one line per field (an unknown field each on its own line). */
export function requestErrors(schema: z.ZodMiniType, body: unknown): string[] {
  const r = schema.safeParse(body);
  if (r.success) return [];
  return r.error.issues.flatMap((i) => issueText(i).split('; '));
}

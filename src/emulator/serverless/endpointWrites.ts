// POST /v2/serverless and PATCH /v2/serverless/<id> (createEndpoint, updateEndpoint), after the body passed
// its checks (serverlessWriteRoutes.ts). A PATCH changes only the fields sent, on the config object the engine
// runs on (workers, idle timeout, execution timeout, pools) and on the endpoint's REST record; a change of the
// container (image, args, env, disk, ports, registry) cuts a release: a new configuration version, with its
// diff, that workers roll over to as they cycle (jobs/workerCycle.ts). A change of pools or GPU count changes
// the price the endpoint is billed at (endpointStore.ts, applyPoolPrice).
import type { CreateEndpointRequest, UpdateEndpointRequest } from '../../core/serverless/requestSchemas';
import type { Template } from '../../core/serverless/resourceSchemas';
import type { Account } from '../http/auth';
import { EndpointConfig, ENDPOINT_KINDS } from '../config';
import { applyPoolPrice, imageOfKind, newReleaseId, setRecord, type ContainerSettings, type EndpointRecord } from './endpointStore';
import { setCreatedAt } from './endpointView';
import { REQUEST_COUNT_SCALE_DOWN_MS } from './scaling';
import { newId } from './templateStore';

/** Kinds an endpoint made through the API may get from its image (not `worker`: it needs a command; not public models). */
const API_KINDS = ENDPOINT_KINDS.filter((k) => k !== 'worker' && !k.startsWith('public-'));

/**
 * The kind of an endpoint created through the API: the emulator's own image names a kind
 * (`serverless-emulator/<kind>-worker:<tag>`, and `vllm-worker` for llm), anything else is an echo worker.
 */
export function kindOfImage(image: string): (typeof ENDPOINT_KINDS)[number] {
  for (const k of API_KINDS) if (imageOfKind(k).split(':')[0] === image.split(':')[0]) return k;
  const m = /^serverless-emulator\/([a-z0-9-]+)-worker(?::.*)?$/.exec(image);
  const named = API_KINDS.find((k) => k === m?.[1]);
  return named ?? 'echo';
}

/** The reference's field names in a release diff (template-scoped, as its examples `template.imageName`, `template.env`). */
const DIFF_FIELD: Record<keyof ContainerSettings, string> = {
  image: 'template.imageName', args: 'template.dockerArgs', disk: 'template.containerDiskInGb',
  ports: 'template.ports', env: 'template.env', registry: 'template.containerRegistryAuthId',
};

function containerFrom(body: Partial<ContainerSettings>, template: Template | undefined, base: ContainerSettings): ContainerSettings {
  // The reference: body fields override the template's, except env, merged per key with the body winning.
  const env = template || body.env !== undefined ? { ...(template?.env ?? {}), ...(body.env ?? {}) } : base.env;
  return {
    image: body.image ?? template?.image ?? base.image,
    args: body.args ?? template?.args ?? base.args,
    disk: body.disk ?? template?.disk ?? base.disk,
    ports: body.ports ?? template?.ports ?? base.ports,
    env,
    registry: body.registry !== undefined ? body.registry : template ? template.registry : base.registry,
  };
}

/**
 * A CPU endpoint's price per worker-second: no GPU, and the CPU, disk and fee rates every endpoint was billed
 * before catalog prices were split (our choice: the emulator's catalog has no CPU flavours to price).
 */
const CPU_WORKER_PRICES = { gpuPerSecond: 0, cpuPerSecond: 0.00004, diskPerSecond: 0.000005, feePerSecond: 0.00002 };

export function createEndpoint(account: Account, body: CreateEndpointRequest, template: Template | undefined, nowMs: number): EndpointConfig {
  const container = containerFrom(body, template, { image: '', args: '', disk: 20, ports: [], env: {}, registry: null });
  const id = newId(8, (x) => account.endpoints.has(x));
  const workers = body.workers ?? {};
  const endpoint = EndpointConfig.parse({
    id, name: body.name, kind: kindOfImage(container.image),
    workersMin: workers.min ?? 0, workersMax: workers.max ?? 3,
    // The reference's create defaults: idleTimeout 10 s, timeout 300000 ms; on REQUEST_COUNT no idle timeout is
    // taken, and the engine scales down after the platform's own delay.
    idleTimeoutMs: body.scaling.type === 'REQUEST_COUNT' ? REQUEST_COUNT_SCALE_DOWN_MS : (workers.idleTimeout ?? 10) * 1000,
    executionTimeoutMs: body.timeout ?? 300_000,
    ...(body.gpu ? { gpuPools: body.gpu.pools } : {}),
    ...(body.cpu ? { prices: CPU_WORKER_PRICES } : {}),
  });
  const gpuCount = body.gpu?.count ?? 1;
  const record: EndpointRecord = {
    container,
    ...(body.gpu
      ? { gpu: {
        excludedTypes: (body.gpu.excludedTypes ?? []).map((t) => t.trim()), count: gpuCount,
        allowedCudaVersions: body.gpu.allowedCudaVersions ?? (body.gpu.minCudaVersion ? [] : template?.allowedCudaVersions ?? []),
        minCudaVersion: body.gpu.minCudaVersion ?? null,
      } }
      // Memory from the flavor's RAM multiplier in the reference; the emulator's flavors have 4 GB per vCPU.
      : { cpu: body.cpu!.map((c) => ({ id: c.id, vcpuCount: c.vcpuCount, memory: c.vcpuCount * 4 })) }),
    scaling: body.scaling,
    dataCenterIds: body.dataCenterIds ?? [],
    networkVolumes: body.networkVolumes ?? [],
    flashboot: body.flashboot ?? 'OFF',
    ...(template ? { templateId: template.id } : {}),
    version: 1,
    releases: [{ id: newReleaseId(), version: 1, createdAtMs: nowMs, diff: [], image: container.image }],
  };
  if (body.gpu) applyPoolPrice(endpoint, gpuCount);
  engineSettings(endpoint, record);
  setRecord(endpoint, record);
  setCreatedAt(endpoint, nowMs);
  account.endpoints.set(id, endpoint);
  return endpoint;
}

/**
 * The record's scaler and FlashBoot onto the config the engine runs on (issue 29: jobs/scaler.ts); the route then
 * hands the config to the running engine (JobQueue.reconfigure, Engine.updateSettings).
 */
function engineSettings(endpoint: EndpointConfig, record: EndpointRecord): void {
  const sc = record.scaling;
  if (sc?.type === 'REQUEST_COUNT') { endpoint.scalerType = 'REQUEST_COUNT'; endpoint.scalerValue = Math.min(3600, sc.requestCount); }
  else if (sc?.type === 'QUEUE_DELAY') { endpoint.scalerType = 'QUEUE_DELAY'; endpoint.scalerValue = Math.min(3600, Math.max(0.5, sc.queueDelay)); }
  endpoint.flashboot = record.flashboot === 'FLASHBOOT';
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Applies a checked PATCH body; a container change cuts a release. */
export function updateEndpoint(endpoint: EndpointConfig, record: EndpointRecord, body: UpdateEndpointRequest, template: Template | undefined, nowMs: number): void {
  if (body.name !== undefined) endpoint.name = body.name;
  if (body.workers?.min !== undefined) endpoint.workersMin = body.workers.min;
  if (body.workers?.max !== undefined) endpoint.workersMax = body.workers.max;
  if (body.workers?.idleTimeout !== undefined) endpoint.idleTimeoutMs = body.workers.idleTimeout * 1000;
  if (body.timeout !== undefined) endpoint.executionTimeoutMs = body.timeout;
  if (body.scaling !== undefined) {
    // Switched to REQUEST_COUNT: the idle timeout no longer applies (and is no longer shown); the engine scales
    // down after the platform's own delay, not after a hidden leftover of the old setting.
    if (body.scaling.type === 'REQUEST_COUNT' && record.scaling.type !== 'REQUEST_COUNT') endpoint.idleTimeoutMs = REQUEST_COUNT_SCALE_DOWN_MS;
    record.scaling = body.scaling;
  }
  if (body.flashboot !== undefined) record.flashboot = body.flashboot;
  engineSettings(endpoint, record);
  if (body.dataCenterIds !== undefined) record.dataCenterIds = body.dataCenterIds;
  if (body.networkVolumes !== undefined) record.networkVolumes = body.networkVolumes;
  if (body.cpu !== undefined) record.cpu = body.cpu.map((c) => ({ id: c.id, vcpuCount: c.vcpuCount, memory: c.vcpuCount * 4 }));
  const gpu = body.gpu;
  if (gpu && record.gpu) {
    // pools and excludedTypes are one selection: pools sent alone replace it, clearing the exclusions.
    if (gpu.pools !== undefined) {
      endpoint.gpuPools = gpu.pools;
      record.gpu.excludedTypes = (gpu.excludedTypes ?? []).map((t) => t.trim());
    }
    if (gpu.count !== undefined) record.gpu.count = gpu.count;
    if (gpu.allowedCudaVersions !== undefined) record.gpu.allowedCudaVersions = gpu.allowedCudaVersions;
    if (gpu.minCudaVersion !== undefined) record.gpu.minCudaVersion = gpu.minCudaVersion === '' ? null : gpu.minCudaVersion;
    if (gpu.pools !== undefined || gpu.count !== undefined) applyPoolPrice(endpoint, record.gpu.count);
  }
  const next = containerFrom(body, template, record.container);
  const diff = (Object.keys(DIFF_FIELD) as Array<keyof ContainerSettings>)
    .filter((k) => !same(record.container[k], next[k]))
    .map((k) => ({ field: DIFF_FIELD[k], old: record.container[k], new: next[k] }));
  if (!diff.length) return;
  record.container = next;
  record.version++;
  record.releases.push({ id: newReleaseId(), version: record.version, createdAtMs: nowMs, diff, image: next.image });
}

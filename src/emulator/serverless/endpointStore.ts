// What the REST v2 API knows of an endpoint beyond the emulator's config (issue 28): its container settings,
// GPU selection, scaler, flashboot, data centers, its configuration version and release history. Kept beside
// the config object (a WeakMap), made on first use from the config's values and the reference's defaults; the
// settings the engine runs on (workersMin/Max, idleTimeoutMs, executionTimeoutMs, gpuPools, prices) stay on the
// config object itself, so a PATCH that changes them is what the running engine reads at its next step.
import type { ReleaseDiffEntry } from '../../core/serverless/resourceSchemas';
import type { ScalingRequest } from '../../core/serverless/requestSchemas';
import type { EndpointConfig } from '../config';
import { poolPricePerSecond } from './gpuCatalog';
import { catalogPrices } from '../billing/workerPrices';

export interface ContainerSettings {
  image: string;
  args: string;
  disk: number;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
}

export interface ReleaseRecord {
  id: string;
  version: number;
  createdAtMs: number;
  diff: ReleaseDiffEntry[];
  /** The image its workers run. */
  image: string;
}

export interface EndpointRecord {
  container: ContainerSettings;
  /** GPU endpoints (the pools are the config's gpuPools); absent for a CPU endpoint. */
  gpu?: { excludedTypes: string[]; count: number; allowedCudaVersions: string[]; minCudaVersion: string | null };
  /** CPU endpoints only. */
  cpu?: Array<{ id: string; vcpuCount: number; memory: number }>;
  scaling: ScalingRequest;
  dataCenterIds: string[];
  networkVolumes: string[];
  flashboot: 'OFF' | 'FLASHBOOT' | 'PRIORITY_FLASHBOOT';
  /** The template it was created from (a template bound to an endpoint cannot be deleted). */
  templateId?: string;
  version: number;
  /** Oldest first. */
  releases: ReleaseRecord[];
}

/** The container the emulated worker stands for; the real service shows the user's image here. */
const IMAGE_OF_KIND: Record<string, string> = {
  image: 'serverless-emulator/image-worker:1',
  'public-image': 'serverless-emulator/image-worker:1',
  'public-video': 'serverless-emulator/video-worker:1',
  'public-audio': 'serverless-emulator/audio-worker:1',
  echo: 'serverless-emulator/echo-worker:1',
  llm: 'serverless-emulator/vllm-worker:1',
};

export function imageOfKind(kind: string): string {
  return IMAGE_OF_KIND[kind] ?? `serverless-emulator/${kind}-worker:1`;
}

const records = new WeakMap<EndpointConfig, EndpointRecord>();
let releaseCount = 0;

export function newReleaseId(): string {
  return `rel_${Date.now().toString(36)}${(releaseCount++).toString(36)}`;
}

/** The endpoint's REST record; a config endpoint's is made on first use (version 1, its creation as release 1). */
export function recordOf(endpoint: EndpointConfig, createdAtMs: () => number): EndpointRecord {
  let r = records.get(endpoint);
  if (!r) {
    r = {
      container: { image: imageOfKind(endpoint.kind), args: '', disk: 20, ports: [], env: {}, registry: null },
      gpu: { excludedTypes: [], count: endpoint.gpuCount, allowedCudaVersions: [], minCudaVersion: null },
      // The engine's own scaler and FlashBoot (issue 29: jobs/scaler.ts), in the reference's words.
      scaling: endpoint.scalerType === 'REQUEST_COUNT'
        ? { type: 'REQUEST_COUNT', requestCount: Math.max(1, Math.ceil(endpoint.scalerValue)) }
        : { type: 'QUEUE_DELAY', queueDelay: endpoint.scalerValue },
      dataCenterIds: [], networkVolumes: [], flashboot: endpoint.flashboot ? 'FLASHBOOT' : 'OFF', version: 1,
      releases: [{ id: newReleaseId(), version: 1, createdAtMs: createdAtMs(), diff: [], image: imageOfKind(endpoint.kind) }],
    };
    records.set(endpoint, r);
  }
  return r;
}

/** The endpoint's configuration version (1 until a container change cut a release). */
export function endpointVersion(endpoint: EndpointConfig): number {
  return records.get(endpoint)?.version ?? 1;
}

/** An endpoint made through the API: its record is set at creation. */
export function setRecord(endpoint: EndpointConfig, record: EndpointRecord): void {
  records.set(endpoint, record);
}

/**
 * The price the emulator bills an endpoint at once the API has set its pools: the catalog's serverless price of
 * its first pool (where workers are placed) times its GPUs per worker, per second, in all (its four parts,
 * billing/workerPrices.ts), whatever the config set before.
 */
export function applyPoolPrice(endpoint: EndpointConfig, count: number): void {
  const perSecond = poolPricePerSecond(endpoint.gpuPools[0]!);
  // Per GPU: the bill multiplies by gpuCount once (billing/jobBilling.ts, one billing model since issue 29).
  if (perSecond !== undefined) endpoint.prices = catalogPrices(perSecond);
  endpoint.gpuCount = count;
}

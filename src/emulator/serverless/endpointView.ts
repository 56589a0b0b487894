// An endpoint of the config as GET /v2/serverless shows it: the `Endpoint` object of the REST v2 reference
// (src/core/serverless/schemas.ts), filled from the config where it has the value and with the reference's
// own defaults and examples where the emulator has nothing to say (README, "The local emulator").
import type { ServerlessEndpoint } from '../../core/serverless/schemas';
import type { UserUsage } from '../billing/billingStore';
import { isoUtc } from '../clock';
import type { EndpointConfig } from '../config';
import { scalingOf } from './scaling';

/** Public (model) endpoints belong to the platform, not to the user: the REST list has only the user's own. */
export function isListed(endpoint: EndpointConfig): boolean {
  return !endpoint.kind.startsWith('public-');
}

/** The container the emulated worker stands for; the real service shows the user's image here. A plain record:
 *  a kind added later gets a name from the fallback below. */
const IMAGE_OF_KIND: Record<string, string> = {
  image: 'serverless-emulator/image-worker:1',
  'public-image': 'serverless-emulator/image-worker:1',
  'public-video': 'serverless-emulator/video-worker:1',
  'public-audio': 'serverless-emulator/audio-worker:1',
  echo: 'serverless-emulator/echo-worker:1',
  llm: 'serverless-emulator/vllm-worker:1',
};

export function imageOf(endpoint: EndpointConfig): string {
  return IMAGE_OF_KIND[endpoint.kind] ?? `serverless-emulator/${endpoint.kind}-worker:1`;
}

/** Workers are placed on the first pool; the reference's example pairs ADA_24 with an RTX 4090. */
const FIRST_GPU_OF_POOL: Record<string, string> = {
  AMPERE_16: 'NVIDIA RTX A4000',
  AMPERE_24: 'NVIDIA RTX A5000',
  ADA_24: 'NVIDIA GeForce RTX 4090',
  ADA_32_PRO: 'NVIDIA GeForce RTX 5090',
  AMPERE_48: 'NVIDIA RTX A6000',
  ADA_48_PRO: 'NVIDIA L40S',
  AMPERE_80: 'NVIDIA A100 80GB PCIe',
  ADA_80_PRO: 'NVIDIA H100 80GB HBM3',
};

export function gpuTypeOf(endpoint: EndpointConfig): string | null {
  return FIRST_GPU_OF_POOL[endpoint.gpuPools[0]!] ?? null;
}

/** Where the emulator's workers "run": a real data center id, so clients that show it have something to show. */
export const DATA_CENTER_ID = 'EU-RO-1';

const createdAtCache = new WeakMap<EndpointConfig, number>();

/**
 * The reference requires a creation time and the config has none: the hour of the endpoint's first usage (it
 * existed before it cost anything), else the minute it was first listed. Kept once found, so it never moves.
 */
function createdAtOf(endpoint: EndpointConfig, usage: UserUsage, nowMs: number): number {
  let t = createdAtCache.get(endpoint);
  if (t === undefined) {
    t = usage.firstHourOf(endpoint.id) ?? Math.floor(nowMs / 60_000) * 60_000;
    createdAtCache.set(endpoint, t);
  }
  return t;
}

/** The job URLs of a queue endpoint, on this emulator's origin, with the reference's `{job_id}` placeholder. */
function requestUrlsOf(origin: string, id: string): NonNullable<ServerlessEndpoint['requestUrls']> {
  const base = `${origin}/v2/${encodeURIComponent(id)}`;
  return {
    run: `${base}/run`,
    runSync: `${base}/runsync`,
    status: `${base}/status/{job_id}`,
    stream: `${base}/stream/{job_id}`,
    cancel: `${base}/cancel/{job_id}`,
    retry: `${base}/retry/{job_id}`,
    purgeQueue: `${base}/purge-queue`,
    health: `${base}/health`,
  };
}

export function endpointView(endpoint: EndpointConfig, usage: UserUsage, origin: string, nowMs: number): ServerlessEndpoint {
  const s = scalingOf(endpoint);
  return {
    id: endpoint.id,
    name: endpoint.name ?? endpoint.id,
    type: 'QUEUE',
    requestUrls: requestUrlsOf(origin, endpoint.id),
    image: imageOf(endpoint),
    args: '',
    disk: 20,
    ports: [],
    env: {},
    registry: null,
    gpu: { pools: [...endpoint.gpuPools], count: endpoint.gpuCount, allowedCudaVersions: [], minCudaVersion: null },
    workers: { min: s.workersMin, max: s.workersMax, idleTimeout: s.idleTimeoutSeconds },
    // The engine's own scaler (issue 29: src/emulator/jobs/scaler.ts), in the reference's union.
    scaling: endpoint.scalerType === 'REQUEST_COUNT'
      ? { type: 'REQUEST_COUNT', requestCount: Math.max(1, Math.ceil(endpoint.scalerValue)) }
      : { type: 'QUEUE_DELAY', queueDelay: endpoint.scalerValue },
    dataCenterIds: [],
    networkVolumes: [],
    timeout: s.executionTimeoutMs,
    flashboot: endpoint.flashboot ? 'FLASHBOOT' : 'OFF',
    createdAt: isoUtc(createdAtOf(endpoint, usage, nowMs)),
  };
}

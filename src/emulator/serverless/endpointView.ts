// An endpoint as GET/POST/PATCH /v2/serverless show it: the `Endpoint` object of the REST v2 reference
// (src/core/serverless/schemas.ts), from the config (workers, timeout, pools, name) and the endpoint's REST
// record (endpointStore.ts: container, GPU selection, scaler, flashboot), with the reference's own defaults and
// examples where the emulator has nothing to say (README, "The local emulator").
import type { ServerlessEndpoint } from '../../core/serverless/schemas';
import type { UserUsage } from '../billing/billingStore';
import { isoUtc } from '../clock';
import type { EndpointConfig } from '../config';
import { placedGpuType } from './gpuCatalog';
import { recordOf, type EndpointRecord } from './endpointStore';
import { scalingOf } from './scaling';

/** Public (model) endpoints belong to the platform, not to the user: the REST list has only the user's own. */
export function isListed(endpoint: EndpointConfig): boolean {
  return !endpoint.kind.startsWith('public-');
}

/** The GPU type a worker is placed on: the first type of its first pool that is not excluded. */
export function gpuTypeOf(endpoint: EndpointConfig, record: EndpointRecord): string | null {
  return record.gpu ? placedGpuType(endpoint.gpuPools, record.gpu.excludedTypes) : null;
}

/** Where the emulator's workers "run": a real data center id, so clients that show it have something to show. */
export const DATA_CENTER_ID = 'EU-RO-1';

const createdAtCache = new WeakMap<EndpointConfig, number>();

/**
 * The reference requires a creation time and the config has none: the hour of the endpoint's first usage (it
 * existed before it cost anything), else the minute it was first listed. Kept once found, so it never moves.
 * An endpoint created through the API has its own (setCreatedAt).
 */
export function createdAtOf(endpoint: EndpointConfig, usage: UserUsage, nowMs: number): number {
  let t = createdAtCache.get(endpoint);
  if (t === undefined) {
    t = usage.firstHourOf(endpoint.id) ?? Math.floor(nowMs / 60_000) * 60_000;
    createdAtCache.set(endpoint, t);
  }
  return t;
}

export function setCreatedAt(endpoint: EndpointConfig, ms: number): void {
  createdAtCache.set(endpoint, Math.floor(ms / 1000) * 1000);
}

/** The record of a listed endpoint, made on first use with the endpoint's creation time as release 1's. */
export function recordFor(endpoint: EndpointConfig, usage: UserUsage, nowMs: number): EndpointRecord {
  return recordOf(endpoint, () => createdAtOf(endpoint, usage, nowMs));
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
  const r = recordFor(endpoint, usage, nowMs);
  const c = r.container;
  const gpu = r.gpu
    ? {
      pools: [...endpoint.gpuPools],
      ...(r.gpu.excludedTypes.length ? { excludedTypes: [...r.gpu.excludedTypes] } : {}),
      count: r.gpu.count, allowedCudaVersions: [...r.gpu.allowedCudaVersions], minCudaVersion: r.gpu.minCudaVersion,
    }
    : undefined;
  return {
    id: endpoint.id,
    name: endpoint.name ?? endpoint.id,
    type: 'QUEUE',
    requestUrls: requestUrlsOf(origin, endpoint.id),
    image: c.image,
    args: c.args,
    disk: c.disk,
    ports: [...c.ports],
    env: { ...c.env },
    registry: c.registry,
    ...(gpu ? { gpu } : { cpu: r.cpu!.map((x) => ({ ...x })) }),
    // The reference omits idleTimeout for a queue endpoint scaling on requestCount (and refuses it there): the
    // engine's scale-down delay for that combination is the platform's own, not a setting (docs/emulator.md).
    workers: r.scaling.type === 'REQUEST_COUNT'
      ? { min: s.workersMin, max: s.workersMax }
      : { min: s.workersMin, max: s.workersMax, idleTimeout: s.idleTimeoutSeconds },
    scaling: { ...r.scaling },
    dataCenterIds: [...r.dataCenterIds],
    networkVolumes: [...r.networkVolumes],
    timeout: s.executionTimeoutMs,
    flashboot: r.flashboot,
    createdAt: isoUtc(createdAtOf(endpoint, usage, nowMs)),
  };
}

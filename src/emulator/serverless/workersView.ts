// GET /v2/serverless/<id>/workers: the queue model's live workers of one endpoint as the REST v2 reference's
// `ListEndpointWorkersResponse` (src/core/serverless/schemas.ts): one entry per active worker and the summary,
// a roll-up of that same array (running + idle + initializing + throttled + unhealthy == total).
import type { EndpointWorker, ListEndpointWorkersResponse, WorkerStatus } from '../../core/serverless/schemas';
import { isoUtc } from '../clock';
import type { EndpointConfig } from '../config';
import { DATA_CENTER_ID, gpuTypeOf, imageOf } from './endpointView';

/** What the queue model knows of one active worker (scaled-down workers are not listed). */
export interface WorkerSnapshot {
  id: string;
  state: 'initializing' | 'idle' | 'running' | 'unhealthy';
  /** When it finished its cold start and could take jobs; undefined while initializing. */
  readyAtMs?: number;
}

/** The emulator never changes an endpoint's configuration while it runs: every worker runs version 1. */
const ENDPOINT_VERSION = 1;

const STATUS_OF: Record<WorkerSnapshot['state'], WorkerStatus> = { initializing: 'INITIALIZING', idle: 'IDLE', running: 'RUNNING', unhealthy: 'UNHEALTHY' };

function workerView(endpoint: EndpointConfig, w: WorkerSnapshot, nowMs: number): EndpointWorker {
  // startedAt and uptimeSeconds count from the end of the cold start: an initializing worker "has not
  // started" in the reference's words (both null), a ready one has been up since it could take jobs.
  const ready = w.state !== 'initializing' && w.readyAtMs !== undefined;
  return {
    id: w.id,
    status: STATUS_OF[w.state],
    isStale: false,
    version: ENDPOINT_VERSION,
    gpuCount: 1,
    image: imageOf(endpoint),
    uptimeSeconds: ready ? Math.max(0, Math.floor((nowMs - w.readyAtMs!) / 1000)) : null,
    gpuTypeId: gpuTypeOf(endpoint),
    dataCenterId: DATA_CENTER_ID,
    startedAt: ready ? isoUtc(Math.floor(w.readyAtMs! / 1000) * 1000) : null,
  };
}

export function workersView(endpoint: EndpointConfig, snapshot: readonly WorkerSnapshot[], nowMs: number): ListEndpointWorkersResponse {
  const workers = snapshot.map((w) => workerView(endpoint, w, nowMs));
  const count = (s: WorkerStatus): number => workers.filter((w) => w.status === s).length;
  return {
    endpointVersion: ENDPOINT_VERSION,
    summary: {
      running: count('RUNNING'),
      idle: count('IDLE'),
      initializing: count('INITIALIZING'),
      throttled: count('THROTTLED'),
      unhealthy: count('UNHEALTHY'),
      total: workers.length,
    },
    workers,
  };
}

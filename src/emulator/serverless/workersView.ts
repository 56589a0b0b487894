// GET /v2/serverless/<id>/workers: the queue model's live workers of one endpoint as the REST v2 reference's
// `ListEndpointWorkersResponse` (src/core/serverless/schemas.ts): one entry per active worker with the
// configuration version it runs (stale: older than the endpoint's, mid rollout), and the summary, a roll-up of
// that same array (running + idle + initializing + throttled + unhealthy == total).
import type { EndpointWorker, ListEndpointWorkersResponse, WorkerStatus } from '../../core/serverless/schemas';
import { isoUtc } from '../clock';
import type { EndpointConfig } from '../config';
import type { WorkerSnapshot } from '../jobs/job';
import type { EndpointRecord } from './endpointStore';
import { DATA_CENTER_ID, gpuTypeOf } from './endpointView';

export type { WorkerSnapshot };

const STATUS_OF: Record<WorkerSnapshot['state'], WorkerStatus> = { initializing: 'INITIALIZING', idle: 'IDLE', running: 'RUNNING', unhealthy: 'UNHEALTHY' };

function workerView(endpoint: EndpointConfig, record: EndpointRecord, w: WorkerSnapshot, nowMs: number): EndpointWorker {
  // startedAt and uptimeSeconds count from the end of the cold start: an initializing worker "has not
  // started" in the reference's words (both null), a ready one has been up since it could take jobs.
  const ready = w.state !== 'initializing' && w.readyAtMs !== undefined;
  const release = record.releases.find((r) => r.version === w.version);
  return {
    id: w.id,
    status: STATUS_OF[w.state],
    isStale: w.version < record.version,
    version: w.version,
    gpuCount: record.gpu?.count ?? 0,
    image: release?.image ?? record.container.image,
    uptimeSeconds: ready ? Math.max(0, Math.floor((nowMs - w.readyAtMs!) / 1000)) : null,
    gpuTypeId: gpuTypeOf(endpoint, record),
    dataCenterId: DATA_CENTER_ID,
    startedAt: ready ? isoUtc(Math.floor(w.readyAtMs! / 1000) * 1000) : null,
  };
}

export function workersView(endpoint: EndpointConfig, record: EndpointRecord, snapshot: readonly WorkerSnapshot[], nowMs: number): ListEndpointWorkersResponse {
  const workers = snapshot.map((w) => workerView(endpoint, record, w, nowMs));
  const count = (s: WorkerStatus): number => workers.filter((w) => w.status === s).length;
  return {
    endpointVersion: record.version,
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

// GET /v2/serverless/<id>/releases (listEndpointReleases): the endpoint's releases, newest first, each with
// its diff and how many live workers run it, and the rollout summary (how many run the current version).
import type { ListEndpointReleasesResponse } from '../../core/serverless/resourceSchemas';
import { isoUtc } from '../clock';
import type { WorkerSnapshot } from '../jobs/job';
import type { EndpointRecord } from './endpointStore';

export function releasesView(record: EndpointRecord, snapshot: readonly WorkerSnapshot[], userId: string): ListEndpointReleasesResponse {
  const onLatest = snapshot.filter((w) => w.version === record.version).length;
  const total = snapshot.length;
  return {
    endpointVersion: record.version,
    rollout: {
      inProgress: snapshot.some((w) => w.version < record.version),
      workersOnLatest: onLatest,
      workersTotal: total,
      percentOnLatest: total ? Math.round((100 * onLatest) / total) : 0,
    },
    releases: [...record.releases].reverse().map((r) => ({
      id: r.id,
      version: r.version,
      source: 'MANUAL',
      buildId: null,
      createdByUserId: userId,
      workerCount: snapshot.filter((w) => w.version === r.version).length,
      createdAt: isoUtc(Math.floor(r.createdAtMs / 1000) * 1000),
      diff: r.diff.map((d) => ({ ...d })),
    })),
  };
}

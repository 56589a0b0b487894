// GET /v2/billing/serverless (SPEC 4.1): the authenticated user's serverless costs in UTC buckets.
import type { ServerResponse } from 'node:http';
import { requireScope, type Principal } from '../http/auth';
import { ChunkPool } from './billingChunks';
import { billingJsonChunks } from './billingResponse';
import { bucketBoundaries } from './billingStore';
import { parseBillingQuery } from './billingQuery';
import type { JobQueue } from '../jobs/jobQueue';
import { HttpProblem } from '../http/respond';

export async function handleBilling(
  res: ServerResponse, p: Principal, search: URLSearchParams, nowMs: number, jobs: JobQueue,
): Promise<void> {
  requireScope(p, 'billing:read');
  const q = parseBillingQuery(search, nowMs);
  const { account } = p;
  if (q.serverlessId !== undefined && !account.endpoints.has(q.serverlessId) && !account.usage.endpointIds().includes(q.serverlessId)) {
    // SPEC 5 rule 4: billing is the authenticated user's only; someone else's (or no one's) endpoint is 403.
    throw new HttpProblem(403, `The endpoint "${q.serverlessId}" does not belong to this account.`);
  }
  jobs.settleFinished(); // jobs that finished by now count in this answer
  const boundaries = bucketBoundaries(q.window.start.getTime(), q.window.end.getTime(), q.window.bucketSize);
  const endpoints = account.usage.sumBuckets(boundaries, q.serverlessId);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  const pool = new ChunkPool();
  for (const chunk of billingJsonChunks({ boundaries, bucketSize: q.window.bucketSize, serverlessId: q.serverlessId, endpoints }, pool)) {
    if (res.destroyed) return;
    // The callback runs once the socket has handed the bytes to the kernel: the buffer can then be refilled.
    if (!res.write(chunk, (err) => { if (!err) pool.release(chunk); })) await drained(res);
  }
  res.end();
}

/** Resolves when the socket wants more (or is gone), leaving no listener behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

// The routes that act on a job or an endpoint's queue (docs "Operation reference"): POST /cancel/<job>,
// POST /retry/<job>, POST /purge-queue, GET /health, GET /stream/<job>. Shapes from the docs' responses and
// runpod-sdk's types (CancelOutput, PurgeQueueOutput, HealthCheck, EndpointStreamOutput). Cancel, retry and
// purge need jobs:run (they change jobs, like submitting); health and stream read, so they need jobs:read.
// The clients send no body (runpod-python) or `{}` (runpod-sdk): a body is read and ignored.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireEndpoint, requireScope, type Principal } from '../http/auth';
import { readJobQuery, requireJob, type JobRouteContext } from './jobRoutes';
import { readBody } from '../http/requestBody';
import { sendJson } from '../http/respond';
import { holdUntil } from './hold';
import { nextBatchAt } from './streamView';

/** How long a /stream request waits for a new batch before it answers with none (real time). */
export const STREAM_HOLD_MS = 3000;

export async function handleCancel(
  ctx: JobRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, endpointId: string, jobId: string, search: URLSearchParams,
): Promise<void> {
  requireScope(p, 'jobs:run');
  requireEndpoint(p, endpointId);
  readJobQuery(search, []);
  await readBody(req);
  const view = ctx.jobs.cancel(requireJob(ctx, p, endpointId, jobId));
  // runpod-sdk's CancelOutput: id, status, delayTime, executionTime (the time it ran, which is billed).
  sendJson(res, 200, { id: view.id, status: view.status, delayTime: view.delayTime ?? 0, executionTime: view.executionTime ?? 0 });
}

export async function handleRetry(
  ctx: JobRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, endpointId: string, jobId: string, search: URLSearchParams,
): Promise<void> {
  requireScope(p, 'jobs:run');
  requireEndpoint(p, endpointId);
  readJobQuery(search, []);
  await readBody(req);
  sendJson(res, 200, ctx.jobs.retry(requireJob(ctx, p, endpointId, jobId)));
}

export async function handlePurge(
  ctx: JobRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, endpointId: string, search: URLSearchParams,
): Promise<void> {
  requireScope(p, 'jobs:run');
  const endpoint = requireEndpoint(p, endpointId);
  readJobQuery(search, []);
  await readBody(req);
  sendJson(res, 200, { removed: ctx.jobs.purge(endpoint), status: 'completed' });
}

export function handleHealth(ctx: JobRouteContext, res: ServerResponse, p: Principal, endpointId: string, search: URLSearchParams): void {
  requireScope(p, 'jobs:read');
  const endpoint = requireEndpoint(p, endpointId);
  readJobQuery(search, []);
  sendJson(res, 200, ctx.jobs.health(p.account, endpoint));
}

/**
 * GET /stream/<job>: the batches since the last call and the status. When there is none yet and the job is
 * still going, the request is held (up to STREAM_HOLD_MS) until one comes: runpod-sdk polls /stream in a tight
 * loop, and answering at once would spend the rate limit on empty answers.
 */
export async function handleStream(
  ctx: JobRouteContext, res: ServerResponse, p: Principal, endpointId: string, jobId: string, search: URLSearchParams,
): Promise<void> {
  requireScope(p, 'jobs:read');
  requireEndpoint(p, endpointId);
  readJobQuery(search, []);
  const job = requireJob(ctx, p, endpointId, jobId);
  const hasNews = (): boolean => ctx.jobs.isFinished(job) || (nextBatchAt(job) ?? Number.POSITIVE_INFINITY) <= ctx.clock.now();
  const nextAt = (): number | undefined => {
    const a = nextBatchAt(job);
    const b = ctx.jobs.nextChangeAt(job);
    return a === undefined ? b : b === undefined ? a : Math.min(a, b);
  };
  const hangUp = new AbortController();
  const onClose = (): void => hangUp.abort();
  res.on('close', onClose);
  await holdUntil(ctx.clock, hasNews, nextAt, STREAM_HOLD_MS, AbortSignal.any([hangUp.signal, ctx.stopping]));
  res.off('close', onClose);
  sendJson(res, 200, ctx.jobs.stream(job));
}

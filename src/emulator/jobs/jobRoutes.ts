// The job routes that submit and read one job: POST /v2/<endpoint>/run and /runsync (SPEC 4.2, 4.3),
// GET /v2/<endpoint>/status/<job> (SPEC 4.4, plus the docs' `?ttl=`), and GET /status-sync/<job>?wait=MS (the
// long-poll runpod-sdk's runSync uses once /runsync has answered with an unfinished job). The routes that act
// on a job or an endpoint (cancel, retry, purge-queue, health, stream) are in jobs/runtimeRoutes.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireEndpoint, requireScope, type Principal } from '../http/auth';
import type { EmulatorClock } from '../clock';
import type { EmulatedJob } from './job';
import type { JobQueue } from './jobQueue';
import { holdUntil } from './hold';
import { parseRunBody } from './runBody';
import { readQueryParams } from '../http/queryParams';
import { readBody } from '../http/requestBody';
import { HttpProblem, sendJson } from '../http/respond';

export const DEFAULT_RUNSYNC_WAIT_MS = 90_000;
export const MIN_RUNSYNC_WAIT_MS = 1000;
export const MAX_RUNSYNC_WAIT_MS = 300_000;
/** `?ttl=` on /status: from 1 s (the docs' example is 6000) to one week, the longest policy.ttl. */
export const MIN_STATUS_TTL_MS = 1000;
export const MAX_STATUS_TTL_MS = 7 * 86_400_000;

export interface JobRouteContext {
  jobs: JobQueue;
  clock: EmulatorClock;
  /** Aborted when the emulator stops, so held requests answer at once. */
  stopping: AbortSignal;
  /** The hold of /runsync and /status-sync without `wait` (config `runsyncWaitMs`; default 90 s). */
  defaultWaitMs?: number;
}

type Query = Partial<Record<'wait' | 'ttl', number>>;

/** The query of a job route: only the named parameters, each an integer in its range, else a 400 naming it. */
export function readJobQuery(search: URLSearchParams, allowed: ReadonlyArray<'wait' | 'ttl'>): Query {
  const { values, errors } = readQueryParams(search, allowed);
  const out: Query = {};
  const ranges = { wait: [MIN_RUNSYNC_WAIT_MS, MAX_RUNSYNC_WAIT_MS], ttl: [MIN_STATUS_TTL_MS, MAX_STATUS_TTL_MS] } as const;
  for (const name of allowed) {
    const v = values[name];
    if (v === undefined) continue;
    const [min, max] = ranges[name];
    const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
    if (n >= min && n <= max) out[name] = n;
    else errors.push(`${name}: must be an integer number of milliseconds from ${min} to ${max} (got "${v}")`);
  }
  if (errors.length) throw new HttpProblem(400, `The query string is invalid: ${errors.join('; ')}.`, errors);
  return out;
}

/** The job `jobId` of the caller on `endpointId`, or a 404. */
export function requireJob(ctx: JobRouteContext, p: Principal, endpointId: string, jobId: string): EmulatedJob {
  const job = ctx.jobs.find(p.account, endpointId, jobId);
  if (!job) {
    throw new HttpProblem(404, `No job "${jobId}" on endpoint "${endpointId}": it never existed here, or it finished more than the retention period ago and its result was deleted.`);
  }
  return job;
}

/** Holds the response until the job ends or `waitMs` of real time pass; a client that hangs up stops the wait. */
async function holdForEnd(ctx: JobRouteContext, res: ServerResponse, job: EmulatedJob, waitMs: number): Promise<void> {
  const hangUp = new AbortController();
  const onClose = (): void => hangUp.abort();
  res.on('close', onClose);
  const stop = AbortSignal.any([hangUp.signal, ctx.stopping]);
  await holdUntil(ctx.clock, () => ctx.jobs.isFinished(job), () => ctx.jobs.nextChangeAt(job), waitMs, stop);
  res.off('close', onClose);
}

export async function handleSubmit(
  ctx: JobRouteContext, req: IncomingMessage, res: ServerResponse,
  p: Principal, endpointId: string, sync: boolean, search: URLSearchParams,
): Promise<void> {
  requireScope(p, 'jobs:run');
  const endpoint = requireEndpoint(p, endpointId);
  const { wait } = readJobQuery(search, sync ? ['wait'] : []);
  const body = parseRunBody(await readBody(req));
  const job = ctx.jobs.submit(p.account, endpoint, body, sync);
  if (!sync) {
    sendJson(res, 200, { id: job.id, status: 'IN_QUEUE' }); // SPEC 4.2: only id and status
    return;
  }
  // The job itself runs on if the client hangs up, as on the real service.
  await holdForEnd(ctx, res, job, wait ?? ctx.defaultWaitMs ?? DEFAULT_RUNSYNC_WAIT_MS);
  sendJson(res, 200, ctx.jobs.view(job));
}

export function handleStatus(
  ctx: JobRouteContext, res: ServerResponse, p: Principal, endpointId: string, jobId: string, search: URLSearchParams,
): void {
  requireScope(p, 'jobs:read');
  requireEndpoint(p, endpointId);
  const { ttl } = readJobQuery(search, ['ttl']);
  const job = requireJob(ctx, p, endpointId, jobId);
  // The docs' `?ttl=` removes the result sooner than the default retention: it can shorten it, never extend it.
  if (ttl !== undefined) job.retentionMs = Math.min(job.retentionMs, ttl);
  sendJson(res, 200, ctx.jobs.view(job));
}

/** GET /status-sync/<job>?wait=MS: /status, held like /runsync until the job ends (at most `wait`, default 90 s). */
export async function handleStatusSync(
  ctx: JobRouteContext, res: ServerResponse, p: Principal, endpointId: string, jobId: string, search: URLSearchParams,
): Promise<void> {
  requireScope(p, 'jobs:read');
  requireEndpoint(p, endpointId);
  const { wait } = readJobQuery(search, ['wait']);
  const job = requireJob(ctx, p, endpointId, jobId);
  await holdForEnd(ctx, res, job, wait ?? ctx.defaultWaitMs ?? DEFAULT_RUNSYNC_WAIT_MS);
  sendJson(res, 200, ctx.jobs.view(job));
}

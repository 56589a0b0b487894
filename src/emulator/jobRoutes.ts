// The job routes (SPEC 4.2-4.4): POST /v2/<endpoint>/run and /runsync, GET /v2/<endpoint>/status/<job>.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RunRequest } from '../core/schemas';
import { requireEndpoint, requireScope, type Principal } from './auth';
import type { JobQueue } from './jobQueue';
import { readQueryParams } from './queryParams';
import { readBody } from './requestBody';
import { HttpProblem, sendJson } from './respond';

export const DEFAULT_RUNSYNC_WAIT_MS = 90_000;
export const MIN_RUNSYNC_WAIT_MS = 1000;
export const MAX_RUNSYNC_WAIT_MS = 300_000;

export interface JobRouteContext {
  jobs: JobQueue;
  /** Aborted when the emulator stops, so held runsync requests answer at once. */
  stopping: AbortSignal;
}

/** The query of a job route: only /runsync takes one parameter, `wait` (issue 3), else a 400 naming each bad one. */
function readWait(search: URLSearchParams, sync: boolean): number {
  const { values, errors } = readQueryParams(search, sync ? ['wait'] : []);
  const v = values.wait;
  const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (v !== undefined && !(n >= MIN_RUNSYNC_WAIT_MS && n <= MAX_RUNSYNC_WAIT_MS)) {
    errors.push(`wait: must be an integer number of milliseconds from ${MIN_RUNSYNC_WAIT_MS} to ${MAX_RUNSYNC_WAIT_MS} (got "${v}")`);
  }
  if (errors.length) throw new HttpProblem(400, `The query string is invalid: ${errors.join('; ')}.`, errors);
  return v === undefined ? DEFAULT_RUNSYNC_WAIT_MS : n;
}

/** The body of /run and /runsync: exactly {"input": {...}} (SPEC 4.2), errors in JSON-path words. */
export function parseRunBody(body: Buffer): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new HttpProblem(400, `The request body is not valid JSON: ${(err as Error).message}`, ['$: not valid JSON']);
  }
  const r = RunRequest.safeParse(json);
  if (r.success) return r.data.input;
  const errors: string[] = [];
  for (const issue of r.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      errors.push(`$: additional properties ${issue.keys.map((k) => `'${k}'`).join(', ')} not allowed`);
    } else if (issue.path.length === 0) {
      errors.push('$: must be a JSON object with one property, "input"');
    } else if (issue.path.length === 1 && issue.path[0] === 'input' && (json as Record<string, unknown>).input === undefined) {
      errors.push("$: missing required property 'input'");
    } else if (issue.path.length === 1 && issue.path[0] === 'input') {
      errors.push('$.input: must be a JSON object');
    } else {
      errors.push(`$.${issue.path.map(String).join('.')}: ${issue.message}`);
    }
  }
  throw new HttpProblem(400, `The request body is invalid: ${errors.join('; ')}.`, errors);
}

export async function handleSubmit(
  ctx: JobRouteContext, req: IncomingMessage, res: ServerResponse,
  p: Principal, endpointId: string, sync: boolean, search: URLSearchParams,
): Promise<void> {
  requireScope(p, 'jobs:run');
  const endpoint = requireEndpoint(p, endpointId);
  const waitMs = readWait(search, sync);
  const input = parseRunBody(await readBody(req));
  const job = ctx.jobs.submit(p.account, endpoint, input, sync);
  if (!sync) {
    sendJson(res, 200, { id: job.id, status: 'IN_QUEUE' }); // SPEC 4.2: only id and status
    return;
  }
  // A client that hangs up stops the wait; the job itself runs on, as on the real service.
  const hangUp = new AbortController();
  const onClose = (): void => hangUp.abort();
  res.on('close', onClose);
  const stop = AbortSignal.any([hangUp.signal, ctx.stopping]);
  await ctx.jobs.waitForEnd(job, waitMs, stop);
  res.off('close', onClose);
  sendJson(res, 200, ctx.jobs.view(job));
}

export function handleStatus(
  ctx: JobRouteContext, res: ServerResponse, p: Principal, endpointId: string, jobId: string, search: URLSearchParams,
): void {
  requireScope(p, 'jobs:read');
  requireEndpoint(p, endpointId);
  const { errors } = readQueryParams(search, []);
  if (errors.length) throw new HttpProblem(400, `The query string is invalid: ${errors.join('; ')}.`, errors);
  const job = ctx.jobs.find(p.account, endpointId, jobId);
  if (!job) {
    throw new HttpProblem(404, `No job "${jobId}" on endpoint "${endpointId}": it never existed here, or it finished more than the retention period ago and its result was deleted.`);
  }
  sendJson(res, 200, ctx.jobs.view(job));
}

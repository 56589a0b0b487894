// The emulator's HTTP front: node:http and a hand-written router, so every status code and header the spec
// pins down is visible here. Order for a service route: route (404/405) -> injected fault -> authentication
// (401) -> rate limit (429; every authenticated answer carries the RateLimit headers) -> the route itself
// (403 scope/endpoint, 400 validation, 413, 404 job, 200).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { handleAdmin, type AdminContext } from '../admin/adminRoutes';
import type { KeyRing } from './auth';
import { handleBilling } from '../billing/billingRoute';
import type { EmulatorClock } from '../clock';
import { applyFault, type FaultQueue } from './faults';
import type { FileStore } from '../fileStore';
import type { JobQueue } from '../jobs/jobQueue';
import { dispatchJobRoute, matchJobRoute, type JobRoute } from '../jobs/jobRouteTable';
import type { OperationLimiter } from '../jobs/operationLimits';
import type { RateLimiter } from './rateLimiter';
import { HttpProblem, sendHttpProblem, sendProblem } from './respond';
import { handleServerless, matchServerlessRoute, type ServerlessRoute } from '../serverless/serverlessRoutes';
import { handleEmulatorRoute, handleWorkerProtocol } from '../workers/process/protocolRoutes';
import type { WorkerRegistry } from '../workers/process/workerRegistry';

export interface ServerContext {
  clock: EmulatorClock;
  keys: KeyRing;
  limiter: RateLimiter;
  /** The docs' per-endpoint, per-operation limits (jobs/operationLimits.ts). */
  opLimiter: OperationLimiter;
  jobs: JobQueue;
  files: FileStore;
  faults: FaultQueue;
  admin: AdminContext | undefined;
  stopping: AbortSignal;
  /** The worker processes of `worker` endpoints, for the worker protocol's routes (workers/process/). */
  workers: WorkerRegistry;
  /** The hold of /runsync and /status-sync without `wait` (config runsyncWaitMs). */
  runsyncWaitMs?: number;
  log?: (line: string) => void;
}

type Route =
  | { name: 'billing'; allow: 'GET' }
  | JobRoute
  | ServerlessRoute;

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Matches a service route (SPEC 4.1-4.4) by path alone; the method is checked after, for a 405. */
export function matchRoute(path: string): Route | undefined {
  if (path === '/v2/billing/serverless') return { name: 'billing', allow: 'GET' };
  const serverless = matchServerlessRoute(path); // before the job routes: "serverless" is not an endpoint id
  if (serverless) return serverless;
  const s = path.split('/');
  if (s[0] !== '' || s[1] !== 'v2') return undefined;
  return matchJobRoute(s);
}

async function serveFile(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const s = path.split('/'); // ['', 'files', jobId, name]
  const file = s.length === 4 ? ctx.files.get(decode(s[2]!) ?? '', decode(s[3]!) ?? '') : undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new HttpProblem(405, `${req.method} is not allowed on ${path}.`, undefined, { Allow: 'GET, HEAD' });
  }
  if (!file) throw new HttpProblem(404, 'No such file: output links of public endpoints expire 7 days after the job finished.');
  const body = file.body();
  res.writeHead(200, {
    'Content-Type': file.contentType,
    'Content-Length': body.length,
    'Cache-Control': 'public, max-age=3600',
    Expires: new Date(file.expiresAtMs).toUTCString(),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function handle(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const path = url.pathname;
  const method = req.method ?? 'GET';

  if (ctx.admin && path.startsWith('/__admin/') && (await handleAdmin(ctx.admin, req, res, path))) return;
  if (path.startsWith('/files/')) return serveFile(ctx, req, res, path);
  // Issue 14: the worker protocol (spoken by worker processes, token in the URL) and the emulator-only routes.
  if (path.startsWith('/__worker/')) return handleWorkerProtocol({ workers: ctx.workers, stopping: ctx.stopping }, req, res, url);
  if (path.startsWith('/__emulator/')) return handleEmulatorRoute({ keys: ctx.keys, jobs: ctx.jobs, clock: ctx.clock, stopping: ctx.stopping }, req, res, url);

  const route = matchRoute(path);
  if (!route) throw new HttpProblem(404, `There is no route ${path}. The service has GET /v2/billing/serverless, /v2/serverless[/<endpoint>[/workers[/<worker>/logs]|/releases]], /v2/templates[/<id>], GET /v2/catalog/gpus, POST /v2/<endpoint>/run, /runsync and /purge-queue, GET /v2/<endpoint>/health, GET /v2/<endpoint>/status, /status-sync and /stream/<job>, and POST /v2/<endpoint>/cancel and /retry/<job>.`);
  if (!route.allow.split(', ').includes(method)) throw new HttpProblem(405, `${method} is not allowed on ${path}; use ${route.allow}.`, undefined, { Allow: route.allow });

  const fault = ctx.faults.take(path);
  if (fault && (await applyFault(fault, req, res, path))) return;

  const principal = ctx.keys.authenticate(req.headers.authorization, ctx.clock.now());
  // The per-operation limit is checked before the user's windows take a unit, so a refusal uses none.
  const op = !('rest' in route) && 'endpointId' in route ? route : undefined;
  const opCheck = op && ctx.opLimiter.check(principal.account.id, op.endpointId, op.name, ctx.clock.now());
  if (opCheck && !opCheck.allowed) {
    throw new HttpProblem(429, `Rate limit exceeded for /${op!.name} on endpoint "${op!.endpointId}" (${opCheck.limit} requests per 10 seconds); retry in ${opCheck.retryAfterSeconds} s.`, undefined, { 'Retry-After': String(opCheck.retryAfterSeconds) });
  }
  const rate = ctx.limiter.take(principal.account.id);
  for (const [k, v] of Object.entries(rate.headers)) res.setHeader(k, v);
  if (!rate.allowed) {
    const windows = rate.exceeded.map((w) => `${w} (${ctx.limiter.limitOf(w)} requests per ${w})`).join(' and ');
    throw new HttpProblem(429, `Rate limit exceeded for the ${windows} window${rate.exceeded.length > 1 ? 's' : ''}; retry in ${rate.retryAfterSeconds} s.`);
  }

  if (op) ctx.opLimiter.consume(principal.account.id, op.endpointId, op.name, ctx.clock.now());

  switch (route.name) {
    case 'billing':
      return handleBilling(res, principal, url.searchParams, ctx.clock.now(), ctx.jobs);
    default:
      if ('rest' in route) return handleServerless({ nowMs: ctx.clock.now(), jobs: ctx.jobs, stopping: ctx.stopping }, req, res, principal, route, url.searchParams);
      return dispatchJobRoute({ jobs: ctx.jobs, clock: ctx.clock, stopping: ctx.stopping, defaultWaitMs: ctx.runsyncWaitMs }, req, res, principal, route, url.searchParams);
  }
}

export function createEmulatorServer(ctx: ServerContext): Server {
  return createServer((req, res) => {
    const started = Date.now();
    if (ctx.log) res.on('finish', () => ctx.log!(`${req.method} ${req.url} ${res.statusCode} ${Date.now() - started}ms`));
    handle(ctx, req, res).catch(async (err: unknown) => {
      // An error found before the body was read (401, 403, 400 on the query...): read the rest of the upload
      // first, or node closes the connection with unread bytes and the client may get a reset instead of our
      // answer (the 413 path drains in requestBody.ts, up to its own limit).
      if (!(err instanceof HttpProblem && err.status === 413)) await drainRequest(req);
      if (err instanceof HttpProblem) {
        sendHttpProblem(res, err);
      } else {
        ctx.log?.(`internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
        sendProblem(res, 500, 'The emulator failed on this request; this is a bug in the emulator.');
      }
      if (!req.complete) req.resume();
    });
  });
}

const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** Reads and discards what is left of a request body (up to a limit), resolving when it ended or the socket closed. */
function drainRequest(req: IncomingMessage): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let drained = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const onData = (b: Buffer): void => {
      drained += b.length;
      if (drained > DRAIN_LIMIT_BYTES) done();
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

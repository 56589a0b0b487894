// The worker protocol's HTTP side (issue 14), under /__worker/, spoken by the platform's Python SDK (runpod
// 1.12.0) in each worker process; and the emulator-only routes under /__emulator/ (worker processes and logs),
// which the platform does not have. Shapes from the SDK's source (runpod/serverless/modules/):
// - GET  /__worker/job-take/<worker>?token&job_in_progress        one job `{id, input}`, or 204 when none came
// - GET  /__worker/job-take-batch/<worker>?...&batch_size=N        a list of 1..N jobs, or 204   (rp_job.py get_job)
//   Both are long polls: held up to TAKE_HOLD_MS (the SDK waits 90 s), then 204.
// - GET  /__worker/job-stop/<worker>?token                        `{jobsToStop: [ids]}`, or 204 (rp_job.py
//   get_stop_signals; the SDK cancels the job's asyncio task), held like a take
// - POST /__worker/job-done/<worker>/<job>?token&isStream          the result: a JSON body sent as
//   application/x-www-form-urlencoded (rp_http.py _transmit): `{output}`, `{error}` (a raising handler's error is a
//   JSON string of error_type, error_message, error_traceback...), optionally `stopPod: true` (refresh_worker)
// - POST /__worker/job-stream/<worker>/<job>?token&isStream=false  one chunk `{output}` of a generator handler
// - GET  /__worker/ping/<worker>?token&job_id=a,b&runpod_version   the heartbeat (rp_ping.py); 200
// Workers are authenticated by the per-worker token in the URL (protocolEnv.ts says why not the header).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireEndpoint, requireScope, type KeyRing } from '../../http/auth';
import type { EmulatorClock } from '../../clock';
import type { JobQueue } from '../../jobs/jobQueue';
import { readBody } from '../../http/requestBody';
import { RESULT_LIMIT_BYTES, resultTooLargeMessage } from '../../jobs/resultLimit';
import { HttpProblem, sendJson } from '../../http/respond';
import { WORKER_PATH } from './protocolEnv';
import type { WorkerRegistry } from './workerRegistry';

/** How long a job take or a stop poll is held before 204 (real time; the SDK gives up after 90 s). */
export const TAKE_HOLD_MS = 20_000;
/**
 * What is read of a result post at all. The platform's own cap is about 20 MB (RESULT_LIMIT_BYTES): a result
 * between the two is read, refused with a 400 and fails its job, as there; a bigger one is a 413.
 */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

export interface WorkerRouteContext {
  workers: WorkerRegistry;
  stopping: AbortSignal;
}

function noContent(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(204, { 'Cache-Control': 'no-store' });
  res.end();
}

/** A signal that aborts after `ms`, when the client hangs up, or when the emulator stops. */
function holdSignal(res: ServerResponse, stopping: AbortSignal, ms: number): { signal: AbortSignal; done: () => void } {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ms);
  const onClose = (): void => ctl.abort();
  res.on('close', onClose);
  return {
    signal: AbortSignal.any([ctl.signal, stopping]),
    done: () => {
      clearTimeout(timer);
      res.off('close', onClose);
    },
  };
}

function parseJsonBody(buf: Buffer): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(buf.toString('utf8'));
  } catch {
    throw new HttpProblem(400, 'The body is not JSON (the worker SDK sends the result as JSON text).');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new HttpProblem(400, 'The body must be a JSON object.');
  return v as Record<string, unknown>;
}

export async function handleWorkerProtocol(ctx: WorkerRouteContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const s = url.pathname.slice(WORKER_PATH.length).split('/'); // ['', op, worker, job?]
  const op = s[1] ?? '';
  const method = req.method ?? 'GET';
  const found = ctx.workers.find(decodeURIComponent(s[2] ?? ''), url.searchParams.get('token'));
  const isPost = op === 'job-done' || op === 'job-stream';
  const known = ['job-take', 'job-take-batch', 'job-stop', 'ping'].includes(op) ? s.length === 3 : isPost && s.length === 4;
  if (!known) throw new HttpProblem(404, `There is no worker route ${url.pathname}.`);
  if (method !== (isPost ? 'POST' : 'GET')) throw new HttpProblem(405, `${method} is not allowed on ${url.pathname}.`, undefined, { Allow: isPost ? 'POST' : 'GET' });
  // A stopped or unknown worker, or a wrong token: the process is not (or no longer) one of ours.
  if (!found) throw new HttpProblem(401, 'Unknown worker or wrong token.');
  const { runtime, worker } = found;
  switch (op) {
    case 'job-take':
    case 'job-take-batch': {
      const batch = op === 'job-take-batch' ? Number(url.searchParams.get('batch_size') ?? '1') : 1;
      const inProgress = url.searchParams.get('job_in_progress') === '1';
      const hold = holdSignal(res, ctx.stopping, TAKE_HOLD_MS);
      const jobs = await runtime.take(worker, Number.isInteger(batch) && batch > 0 ? Math.min(batch, 100) : 1, inProgress, hold.signal);
      hold.done();
      if (!jobs || jobs.length === 0) return noContent(res);
      const wire = jobs.map((j) => ({ id: j.id, input: j.input }));
      // The batch take answers a list (rp_job.py: "batch job-take API"), the single take one object.
      return sendJson(res, 200, op === 'job-take-batch' ? wire : wire[0]);
    }
    case 'job-stop': {
      const hold = holdSignal(res, ctx.stopping, TAKE_HOLD_MS);
      const ids = await runtime.stopSignals(worker, hold.signal);
      hold.done();
      return ids.length ? sendJson(res, 200, { jobsToStop: ids }) : noContent(res);
    }
    case 'ping':
      runtime.ping(worker);
      return sendJson(res, 200, {});
    case 'job-done':
    case 'job-stream': {
      const raw = await readBody(req, MAX_RESULT_BYTES);
      const jobId = decodeURIComponent(s[3]!);
      if (op === 'job-done' && raw.length > RESULT_LIMIT_BYTES) {
        // The job fails with the platform's advice; the worker's post gets the 400 it gets there (the SDK
        // retries it twice and logs it: later posts find the job already ended).
        const message = resultTooLargeMessage(raw.length);
        runtime.result(worker, jobId, { error: message });
        throw new HttpProblem(400, message);
      }
      const body = parseJsonBody(raw);
      const r = op === 'job-done' ? runtime.result(worker, jobId, body) : runtime.streamChunk(worker, jobId, body);
      // 200 even for a dropped (late) result: the SDK retries non-2xx answers, and a cancelled job's result has
      // nowhere to go.
      return sendJson(res, 200, { status: r });
    }
  }
}

export interface EmulatorRouteContext {
  keys: KeyRing;
  jobs: JobQueue;
  clock: EmulatorClock;
  stopping: AbortSignal;
}

/**
 * Emulator-only routes (the platform has no such thing; its console shows worker logs instead), with the same
 * bearer keys as the job routes and scope jobs:read:
 * - GET /__emulator/endpoints/<id>/workers   the worker processes: id, status, pid, cold start, jobs, exit code
 * - GET /__emulator/endpoints/<id>/logs?worker=&job=&after=&wait=   log lines after seq `after`; with `wait`
 *   (ms, up to 30000) held until there is one, for an editor that follows a running job
 */
export async function handleEmulatorRoute(ctx: EmulatorRouteContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const s = url.pathname.split('/'); // ['', '__emulator', 'endpoints', id, what]
  if (s[2] !== 'endpoints' || s.length !== 5 || !['workers', 'logs'].includes(s[4]!)) {
    throw new HttpProblem(404, `There is no emulator route ${url.pathname}; there are GET /__emulator/endpoints/<id>/workers and /logs.`);
  }
  if (req.method !== 'GET') throw new HttpProblem(405, `${req.method} is not allowed on ${url.pathname}.`, undefined, { Allow: 'GET' });
  const p = ctx.keys.authenticate(req.headers.authorization, ctx.clock.now());
  requireScope(p, 'jobs:read');
  const endpoint = requireEndpoint(p, decodeURIComponent(s[3]!));
  const runtime = ctx.jobs.processesOf(endpoint);
  if (!runtime) throw new HttpProblem(400, `Endpoint "${endpoint.id}" is of kind ${endpoint.kind}: only \`worker\` endpoints have processes and logs.`);
  if (s[4] === 'workers') return sendJson(res, 200, { workers: runtime.processes() });
  const q = url.searchParams;
  const after = q.has('after') ? Number(q.get('after')) : undefined;
  const wait = Math.min(30_000, Math.max(0, Number(q.get('wait') ?? '0') || 0));
  const filter = { after, workerId: q.get('worker') ?? undefined, jobId: q.get('job') ?? undefined, limit: 2000 };
  let lines = runtime.logs.read(filter);
  if (!lines.length && wait > 0) {
    const hold = holdSignal(res, ctx.stopping, wait);
    await new Promise<void>((resolve) => {
      const off = runtime.logs.onLine(() => {
        if (runtime.logs.read(filter).length) finish();
      });
      const finish = (): void => {
        off();
        hold.signal.removeEventListener('abort', finish);
        resolve();
      };
      hold.signal.addEventListener('abort', finish);
    });
    hold.done();
    lines = runtime.logs.read(filter);
  }
  sendJson(res, 200, { lines, last: lines.length ? lines[lines.length - 1]!.seq : (after ?? runtime.logs.lastSeq) });
}

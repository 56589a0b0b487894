// GET /v2/serverless/<id>/workers/<workerId>/logs (getWorkerLogs): a worker's log as Server-Sent Events, as
// the REST v2 reference documents it. Each event is `id: <ts>` and `data: {"source","line","ts"}`; `source`
// (container: what the worker printed, stdout and stderr; system: the host's lines about the worker: started,
// stopped) filters, `tail` (default 100, 0..5000) backfills the last lines, `since` (RFC 3339) resumes from an
// instant and `Last-Event-ID` (a `ts` this route sent) resumes just after that event, in that order of
// precedence. Timestamps carry microseconds, distinct per line, so resuming never repeats or skips a line.
// The stream follows live and ends once the worker is gone and its last lines are sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WorkerLogEvent } from '../../core/serverless/resourceSchemas';
import { HttpProblem } from '../http/respond';
import type { LogLine, WorkerLogs } from '../workers/process/workerLogs';

const KEEPALIVE_MS = 15_000;
const GONE_CHECK_MS = 500;
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/** `2026-06-01T12:00:00.123456Z`: the line's instant to the microsecond. */
export function tsOf(atUs: number): string {
  const iso = new Date(Math.floor(atUs / 1000)).toISOString();
  return `${iso.slice(0, -1)}${String(atUs % 1000).padStart(3, '0')}Z`;
}

/** An RFC 3339 instant in microseconds, or undefined. */
export function parseTs(s: string): number | undefined {
  const m = RFC3339.exec(s.trim());
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return undefined;
  return ms * 1000 + Number((m[2] ?? '').padEnd(6, '0').slice(0, 6));
}

interface Query {
  source?: 'container' | 'system';
  tail: number;
  fromUs?: number;
  /** Only lines strictly after fromUs (Last-Event-ID), else at or after it (since). */
  after: boolean;
}

function readQuery(req: IncomingMessage, search: URLSearchParams): Query {
  const errors: string[] = [];
  for (const k of search.keys()) if (!['source', 'tail', 'since'].includes(k)) errors.push(`${k}: unknown query parameter (source, tail, since)`);
  const source = search.get('source') ?? undefined;
  if (source !== undefined && source !== 'container' && source !== 'system') errors.push(`source: must be container or system (got "${source}")`);
  const tailText = search.get('tail');
  const tail = tailText === null ? 100 : Number(tailText);
  if (!/^\d+$/.test(tailText ?? '0') || tail > 5000) errors.push(`tail: must be a whole number from 0 to 5000 (got "${tailText}")`);
  const since = search.get('since');
  const sinceUs = since === null ? undefined : parseTs(since);
  if (since !== null && sinceUs === undefined) errors.push(`since: must be an RFC 3339 timestamp (got "${since}")`);
  const lastId = req.headers['last-event-id'];
  const lastUs = typeof lastId === 'string' && lastId !== '' ? parseTs(lastId) : undefined;
  if (typeof lastId === 'string' && lastId !== '' && lastUs === undefined) errors.push(`Last-Event-ID: must be a timestamp this stream sent (got "${lastId}")`);
  if (errors.length) throw new HttpProblem(400, `The log request is invalid: ${errors.join('; ')}.`, errors);
  return {
    ...(source ? { source: source as Query['source'] } : {}),
    tail,
    ...(lastUs !== undefined ? { fromUs: lastUs, after: true } : sinceUs !== undefined ? { fromUs: sinceUs, after: false } : { after: false }),
  };
}

function sourceOf(l: LogLine): 'container' | 'system' {
  return l.stream === 'emulator' ? 'system' : 'container';
}

export function streamWorkerLogs(
  req: IncomingMessage, res: ServerResponse, search: URLSearchParams, logs: WorkerLogs, workerId: string,
  isLive: () => boolean, stopping: AbortSignal,
): void {
  const q = readQuery(req, search);
  const mine = (l: LogLine): boolean => l.workerId === workerId && (!q.source || sourceOf(l) === q.source);
  const all = logs.read({ workerId });
  if (!all.length && !isLive()) throw new HttpProblem(404, `There is no worker "${workerId}" on this endpoint (workers are listed by GET /v2/serverless/<id>/workers).`);
  let backfill = all.filter(mine);
  if (q.fromUs !== undefined) backfill = backfill.filter((l) => (q.after ? l.atUs > q.fromUs! : l.atUs >= q.fromUs!));
  else backfill = q.tail === 0 ? [] : backfill.slice(-q.tail);
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  let sentSeq = logs.lastSeq;
  const send = (l: LogLine): void => {
    const data: WorkerLogEvent = { source: sourceOf(l), line: l.text, ts: tsOf(l.atUs) };
    res.write(`id: ${data.ts}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  for (const l of backfill) send(l);
  const flush = (): void => {
    for (const l of logs.read({ after: sentSeq, workerId })) if (mine(l)) send(l);
    sentSeq = logs.lastSeq;
  };
  const end = (): void => {
    off();
    clearInterval(keepalive);
    clearInterval(gone);
    stopping.removeEventListener('abort', end);
    if (!res.writableEnded) res.end();
  };
  const off = logs.onLine(flush);
  const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
  const gone = setInterval(() => { if (!isLive()) { flush(); end(); } }, GONE_CHECK_MS);
  keepalive.unref();
  gone.unref();
  req.on('close', end);
  stopping.addEventListener('abort', end);
  if (!isLive()) { flush(); end(); }
}

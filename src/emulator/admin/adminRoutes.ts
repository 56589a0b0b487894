// Admin routes, mounted only with --admin (issue 3 "Admin"): move the emulator clock, inject faults, read an
// endpoint's worker lives as billed (issue 29). They need no key and use no rate-limit units: they are the test
// harness's controls, not part of the service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { DateTime } from '../../core/schemas';
import { isoUtc, type EmulatorClock } from '../clock';
import { formatIssue } from '../config';
import { FaultSpec, type FaultQueue } from '../http/faults';
import { readBody } from '../http/requestBody';
import { HttpProblem, sendJson } from '../http/respond';
import { billedSeconds, type WorkerLife } from '../jobs/workerLives';

export const ClockMove = z.union([
  z.strictObject({ advanceMs: z.int() }),
  z.strictObject({ now: DateTime }),
  z.strictObject({ frozen: z.boolean() }),
]);

export interface AdminContext {
  clock: EmulatorClock;
  faults: FaultQueue;
  /** Called after the clock moved (jobs and files are swept). */
  onClockMoved: () => void;
  /** The worker lives of an endpoint up to now; undefined if no endpoint has this id. */
  livesOf?: (endpointId: string) => WorkerLife[] | undefined;
}

/** One worker life as GET /__admin/worker-lives reports it: seconds starting, executing, idle, and billed. */
function lifeView(l: WorkerLife) {
  const s = (ms: number): number => ms / 1000;
  return {
    workerId: l.workerId,
    startedAt: isoUtc(l.startedAtMs),
    stoppedAt: l.stoppedAtMs !== undefined ? isoUtc(l.stoppedAtMs) : null,
    startingSeconds: s(l.startMs),
    executingSeconds: s(l.executionMs),
    idleSeconds: s(l.idleMs),
    roundUpSeconds: s(l.roundUpMs),
    billedSeconds: billedSeconds(l),
    flashboot: l.flashboot,
    warm: l.warm,
    stopReason: l.stopReason ?? null,
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, 1024 * 1024);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new HttpProblem(400, `The request body is not valid JSON: ${(err as Error).message}`, ['$: not valid JSON']);
  }
}

function invalid(what: string, error: z.core.$ZodError): HttpProblem {
  const errors = error.issues.map(formatIssue);
  return new HttpProblem(400, `${what}: ${errors.join('; ')}`, errors);
}

/** Handles /__admin/*; returns false for a path that is not an admin route (the caller answers 404). */
export async function handleAdmin(ctx: AdminContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (path === '/__admin/clock') {
    if (method === 'POST') {
      const r = ClockMove.safeParse(await readJson(req));
      if (!r.success) throw invalid('Expected {"advanceMs": integer}, {"now": "RFC 3339 date-time"} or {"frozen": boolean}', r.error);
      if ('advanceMs' in r.data) ctx.clock.advance(r.data.advanceMs);
      else if ('frozen' in r.data) ctx.clock.freeze(r.data.frozen);
      else ctx.clock.set(new Date(r.data.now));
      ctx.onClockMoved();
    } else if (method !== 'GET') {
      throw new HttpProblem(405, `${method} is not allowed on ${path}.`, undefined, { Allow: 'GET, POST' });
    }
    sendJson(res, 200, { now: isoUtc(ctx.clock.now()) });
    return true;
  }
  if (path === '/__admin/faults') {
    if (method === 'POST') {
      const r = FaultSpec.safeParse(await readJson(req));
      if (!r.success) throw invalid('Invalid fault', r.error);
      ctx.faults.add(r.data);
    } else if (method === 'DELETE') {
      ctx.faults.clear();
    } else if (method !== 'GET') {
      throw new HttpProblem(405, `${method} is not allowed on ${path}.`, undefined, { Allow: 'GET, POST, DELETE' });
    }
    sendJson(res, 200, { faults: ctx.faults.list() });
    return true;
  }
  if (path === '/__admin/worker-lives' && ctx.livesOf) {
    if (method !== 'GET') throw new HttpProblem(405, `${method} is not allowed on ${path}.`, undefined, { Allow: 'GET' });
    const id = new URL(req.url ?? '', 'http://x').searchParams.get('endpointId');
    if (!id) throw new HttpProblem(400, 'Query parameter endpointId is required: the endpoint whose worker lives to list.', ['endpointId: required']);
    const lives = ctx.livesOf(id);
    if (!lives) throw new HttpProblem(404, `No endpoint "${id}".`);
    sendJson(res, 200, { endpointId: id, now: isoUtc(ctx.clock.now()), lives: lives.map(lifeView) });
    return true;
  }
  return false;
}

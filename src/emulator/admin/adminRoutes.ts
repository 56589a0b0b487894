// Admin routes, mounted only with --admin (issue 3 "Admin"): move the emulator clock, inject faults. They need
// no key and use no rate-limit units: they are the test harness's controls, not part of the service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { DateTime } from '../../core/schemas';
import { isoUtc, type EmulatorClock } from '../clock';
import { formatIssue } from '../config';
import { FaultSpec, type FaultQueue } from '../http/faults';
import { readBody } from '../http/requestBody';
import { HttpProblem, sendJson } from '../http/respond';

export const ClockMove = z.union([
  z.strictObject({ advanceMs: z.int() }),
  z.strictObject({ now: DateTime }),
]);

export interface AdminContext {
  clock: EmulatorClock;
  faults: FaultQueue;
  /** Called after the clock moved (jobs and files are swept). */
  onClockMoved: () => void;
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
      if (!r.success) throw invalid('Expected {"advanceMs": integer} or {"now": "RFC 3339 date-time"}', r.error);
      if ('advanceMs' in r.data) ctx.clock.advance(r.data.advanceMs);
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
  return false;
}

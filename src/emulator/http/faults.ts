// Injected failures for clients' resilience tests (issue 3 "Admin"): POST /__admin/faults queues a fault that
// hits the next `count` responses whose path starts with `path` (default "/v2/"). Faulted requests are not
// processed (no job is created, no rate-limit unit used), except `delay`, which answers normally afterwards.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { sendProblem } from './respond';

const common = {
  count: z._default(z.int().check(z.gte(1), z.lte(100_000)), 1),
  path: z._default(z.string().check(z.startsWith('/')), '/v2/'),
};

export const FaultSpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('status'), status: z.int().check(z.gte(400), z.lte(599)), retryAfter: z.optional(z.int().check(z.gte(0))), ...common }),
  z.strictObject({ kind: z.literal('drop'), ...common }),
  z.strictObject({ kind: z.literal('delay'), delayMs: z.int().check(z.gte(0), z.lte(600_000)), ...common }),
  z.strictObject({ kind: z.literal('non-json'), status: z._default(z.int().check(z.gte(200), z.lte(599)), 200), contentType: z._default(z.string().check(z.minLength(1)), 'application/json'), ...common }),
  z.strictObject({ kind: z.literal('bad-schema'), ...common }),
]);
export type FaultSpec = z.output<typeof FaultSpec>;

/** A fault and how many more responses it will hit. */
export interface QueuedFault {
  spec: FaultSpec;
  remaining: number;
}

export class FaultQueue {
  private queue: QueuedFault[] = [];

  add(spec: FaultSpec): void {
    this.queue.push({ spec, remaining: spec.count });
  }

  clear(): void {
    this.queue = [];
  }

  list(): Array<FaultSpec & { remaining: number }> {
    return this.queue.map((q) => ({ ...q.spec, remaining: q.remaining }));
  }

  /** The first queued fault matching `path`, with one use taken from it. */
  take(path: string): FaultSpec | undefined {
    const i = this.queue.findIndex((q) => path.startsWith(q.spec.path));
    if (i < 0) return undefined;
    const q = this.queue[i]!;
    if (--q.remaining <= 0) this.queue.splice(i, 1);
    return q.spec;
  }
}

/** A 200 body that parses as JSON but matches none of the service's schemas. */
function schemaBreakingBody(path: string): string {
  return path.startsWith('/v2/billing/')
    ? JSON.stringify({ records: 'not-an-array', metadata: { recordCount: -1 } })
    : JSON.stringify({ id: 42, status: null, output: 'broken' });
}

/**
 * Applies a fault. Returns true when the response is fully handled here; false for `delay`, after which the
 * request continues normally.
 */
export async function applyFault(f: FaultSpec, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  switch (f.kind) {
    case 'delay':
      await new Promise((r) => setTimeout(r, f.delayMs));
      return false;
    case 'drop':
      req.socket.destroy();
      return true;
    case 'status': {
      const headers: Record<string, string> = {};
      if (f.retryAfter !== undefined) headers['Retry-After'] = String(f.retryAfter);
      const detail = f.status === 429
        ? 'Rate limit exceeded for the minute window (an injected fault).'
        : `An injected fault answered ${f.status}.`;
      req.resume();
      sendProblem(res, f.status, detail, undefined, headers);
      return true;
    }
    case 'non-json':
      req.resume();
      res.writeHead(f.status, { 'Content-Type': f.contentType, 'Cache-Control': 'no-store' });
      res.end('<html><body><h1>Bad Gateway</h1><p>An injected fault: this body is not JSON.</p></body></html>');
      return true;
    case 'bad-schema':
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(schemaBreakingBody(path));
      return true;
  }
}

// Per-endpoint, per-operation rate limits (docs "Send API requests", Rate limits and quotas: "These limits
// apply per endpoint and operation"), on top of the per-user windows of SPEC 8. Fixed 10-second windows on the
// emulator clock, aligned like the user windows. Operations the table does not list (status-sync, retry,
// health) have no limit of their own. A request refused here uses nothing, in either limiter. The config's
// `operationLimits` (our addition) overrides an operation's number, e.g. for a benchmark.
import * as z from 'zod/mini';

export const OPERATION_WINDOW_MS = 10_000;

/** Requests per 10 seconds, from the docs' table. */
export const OPERATION_LIMITS: Readonly<Record<string, number>> = {
  runsync: 2000,
  run: 1000,
  status: 2000,
  stream: 2000,
  cancel: 100,
  'purge-queue': 2,
};

const perWindow = z.optional(z.int().check(z.gte(1)));
export const OperationLimitsConfig = z.looseObject({
  runsync: perWindow, run: perWindow, status: perWindow, stream: perWindow, cancel: perWindow, 'purge-queue': perWindow,
});
export type OperationLimitsConfig = z.infer<typeof OperationLimitsConfig>;

export interface OperationDecision {
  allowed: boolean;
  limit: number;
  retryAfterSeconds: number;
}

export class OperationLimiter {
  private readonly used = new Map<string, { windowStart: number; used: number }>();
  private readonly limits: Record<string, number>;

  constructor(overrides: OperationLimitsConfig = {}) {
    this.limits = { ...OPERATION_LIMITS };
    for (const op of Object.keys(OPERATION_LIMITS)) {
      const v = (overrides as Record<string, unknown>)[op];
      if (typeof v === 'number') this.limits[op] = v;
    }
  }

  /** Whether one more `operation` on the user's endpoint fits in the current window (nothing is used yet). */
  check(userId: string, endpointId: string, operation: string, nowMs: number): OperationDecision | undefined {
    const limit = this.limits[operation];
    if (limit === undefined) return undefined;
    const c = this.counter(userId, endpointId, operation, nowMs);
    const retryAfterSeconds = Math.max(1, Math.ceil((c.windowStart + OPERATION_WINDOW_MS - nowMs) / 1000));
    return { allowed: c.used < limit, limit, retryAfterSeconds };
  }

  /** Uses one unit (after the user's own limits admitted the request). */
  consume(userId: string, endpointId: string, operation: string, nowMs: number): void {
    if (this.limits[operation] === undefined) return;
    this.counter(userId, endpointId, operation, nowMs).used++;
  }

  private counter(userId: string, endpointId: string, operation: string, nowMs: number): { windowStart: number; used: number } {
    const key = JSON.stringify([userId, endpointId, operation]);
    const start = Math.floor(nowMs / OPERATION_WINDOW_MS) * OPERATION_WINDOW_MS;
    let c = this.used.get(key);
    if (!c) {
      c = { windowStart: start, used: 0 };
      this.used.set(key, c);
    }
    if (c.windowStart !== start) {
      c.windowStart = start;
      c.used = 0;
    }
    return c;
  }
}

// Per-user rate limits (SPEC 8, issue 3 "Rate limits"): three fixed windows aligned to UTC minute, hour and
// day boundaries (epoch-aligned, and UTC has no leap seconds in epoch time), shared by all keys of a user.
// An admitted request consumes one unit in every window and its own response already counts it; a refused
// one (429) consumes nothing. Headers are serialized with structured-headers (RFC 8941 lists).
import { serializeList, type List } from 'structured-headers';
import { RATE_LIMIT_WINDOWS, RATE_LIMIT_WINDOW_SECONDS, type RateLimitWindow } from '../../core/schemas';
import type { EmulatorClock } from '../clock';

export type RateLimits = Record<RateLimitWindow, number>;

export interface RateDecision {
  allowed: boolean;
  /** RateLimit and RateLimit-Policy, and on a refusal Retry-After. */
  headers: Record<string, string>;
  /** Exhausted windows (only when refused). */
  exceeded: RateLimitWindow[];
  retryAfterSeconds: number;
}

interface Counter {
  windowStart: number;
  used: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Record<RateLimitWindow, Counter>>();
  private readonly policy: string;

  constructor(private readonly limits: RateLimits, private readonly clock: EmulatorClock) {
    const list: List = RATE_LIMIT_WINDOWS.map((w) => [w, new Map([['q', limits[w]], ['w', RATE_LIMIT_WINDOW_SECONDS[w]]])]);
    this.policy = serializeList(list);
  }

  take(userId: string): RateDecision {
    const now = this.clock.now();
    let c = this.counters.get(userId);
    if (!c) {
      c = { minute: { windowStart: 0, used: 0 }, hour: { windowStart: 0, used: 0 }, day: { windowStart: 0, used: 0 } };
      this.counters.set(userId, c);
    }
    const resets = {} as Record<RateLimitWindow, number>;
    const exceeded: RateLimitWindow[] = [];
    for (const w of RATE_LIMIT_WINDOWS) {
      const len = RATE_LIMIT_WINDOW_SECONDS[w] * 1000;
      const start = Math.floor(now / len) * len;
      const counter = c[w];
      if (counter.windowStart !== start) {
        // A new window (or the clock moved back into another one): the count starts over.
        counter.windowStart = start;
        counter.used = 0;
      }
      resets[w] = Math.max(1, Math.ceil((start + len - now) / 1000));
      if (counter.used >= this.limits[w]) exceeded.push(w);
    }
    const allowed = exceeded.length === 0;
    if (allowed) for (const w of RATE_LIMIT_WINDOWS) c[w].used++;
    const list: List = RATE_LIMIT_WINDOWS.map((w) => [
      w,
      new Map([['r', Math.max(0, this.limits[w] - c[w].used)], ['t', resets[w]]]),
    ]);
    const headers: Record<string, string> = { RateLimit: serializeList(list), 'RateLimit-Policy': this.policy };
    // The longest wait among the exhausted windows: waiting less would only draw another 429.
    const retryAfterSeconds = allowed ? 0 : Math.max(...exceeded.map((w) => resets[w]));
    if (!allowed) headers['Retry-After'] = String(retryAfterSeconds);
    return { allowed, headers, exceeded, retryAfterSeconds };
  }

  limitOf(w: RateLimitWindow): number {
    return this.limits[w];
  }
}

// Rate-limit headers (SPEC 8): parsing `RateLimit` and `RateLimit-Policy` into the per-window quota the UI
// shows, and deciding how long to hold the next request so we wait out an exhausted window rather than
// draw a 429. Both headers are structured-field lists (RFC 9651, formerly 8941), parsed by ./structuredList.ts.
import { parseList, Token, type List, type Parameters } from './structuredList';
import { RATE_LIMIT_WINDOWS, type RateLimitWindow } from '../schemas';

/** One window of the RateLimit / RateLimit-Policy headers (SPEC 8.2, 8.3). */
export interface RateLimitWindowState {
  window: RateLimitWindow;
  /** `r`: requests left in this window after the response that reported it. */
  remaining: number;
  /** When the window resets: the response's receipt time plus `t` seconds (epoch ms). */
  resetAt: number;
  /** `q` of RateLimit-Policy, if the server sent it. */
  quota?: number;
  /** `w` of RateLimit-Policy, in seconds, if the server sent it. */
  windowSeconds?: number;
}
export type RateLimitSnapshot = Partial<Record<RateLimitWindow, RateLimitWindowState>>;


interface HeaderSource {
  get(name: string): string | null;
}

/** A header we cannot parse is ignored, never fatal (issue #2): the response itself is still good. */
function parseListOrEmpty(value: string | null): List {
  if (value === null || value.trim() === '') return [];
  try {
    return parseList(value);
  } catch {
    return [];
  }
}

function windowName(bare: unknown): RateLimitWindow | undefined {
  // Members are tokens (`minute;r=5;t=30`); a quoted string ("minute") is accepted too.
  const name = bare instanceof Token ? bare.toString() : typeof bare === 'string' ? bare : undefined;
  return RATE_LIMIT_WINDOWS.find((w) => w === name);
}

function nonNegativeInteger(params: Parameters, key: string): number | undefined {
  const v = params.get(key);
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/** Each well-formed member of a list as [window, parameters]; inner lists and unknown windows are skipped. */
function members(list: List): [RateLimitWindow, Parameters][] {
  const out: [RateLimitWindow, Parameters][] = [];
  for (const member of list) {
    if (Array.isArray(member[0])) continue; // an inner list: not a window
    const name = windowName(member[0]);
    if (name) out.push([name, member[1]]);
  }
  return out;
}

/**
 * The windows reported by one response. `receivedAt` (epoch ms) is when the response arrived: `t` counts
 * from then (SPEC 8.2). A window needs both `r` and `t` in `RateLimit`; `q` and `w` of `RateLimit-Policy`
 * are added where present. Returns an empty snapshot when the response carried no usable header.
 */
export function parseRateLimitHeaders(headers: HeaderSource, receivedAt: number): RateLimitSnapshot {
  const snapshot: RateLimitSnapshot = {};
  for (const [window, params] of members(parseListOrEmpty(headers.get('ratelimit')))) {
    const remaining = nonNegativeInteger(params, 'r');
    const resetSeconds = nonNegativeInteger(params, 't');
    if (remaining === undefined || resetSeconds === undefined) continue;
    snapshot[window] = { window, remaining, resetAt: receivedAt + resetSeconds * 1000 };
  }
  for (const [window, params] of policyMembers(headers.get('ratelimit-policy'))) {
    const state = snapshot[window];
    if (!state) continue;
    const quota = nonNegativeInteger(params, 'q');
    const windowSeconds = nonNegativeInteger(params, 'w');
    if (quota !== undefined) state.quota = quota;
    if (windowSeconds !== undefined && windowSeconds > 0) state.windowSeconds = windowSeconds;
  }
  return snapshot;
}

/**
 * The policy's members. A service sends the same policy with every answer: it is parsed once, not once a request
 * (a batch reads thousands of answers; issue 30 counts what the extension host allocates). Read only.
 */
function policyMembers(value: string | null): readonly [RateLimitWindow, Parameters][] {
  if (value !== lastPolicy.value) lastPolicy = { value, members: members(parseListOrEmpty(value)) };
  return lastPolicy.members;
}
let lastPolicy: { value: string | null; members: readonly [RateLimitWindow, Parameters][] } = { value: null, members: [] };

export function isEmptySnapshot(snapshot: RateLimitSnapshot): boolean {
  return RATE_LIMIT_WINDOWS.every((w) => snapshot[w] === undefined);
}

/**
 * The newest state per window: windows the latest response reported replace what we knew; a window it did
 * not report is kept until its reset passes (after that it says nothing true any more).
 */
export function mergeRateLimits(previous: RateLimitSnapshot, latest: RateLimitSnapshot, now: number): RateLimitSnapshot {
  const merged: RateLimitSnapshot = {};
  for (const w of RATE_LIMIT_WINDOWS) {
    const state: RateLimitWindowState | undefined = latest[w] ?? (previous[w] && previous[w].resetAt > now ? previous[w] : undefined);
    if (state) merged[w] = state;
  }
  return merged;
}

/**
 * How long (ms) to hold the next request: until the latest reset among windows whose remaining count is 0,
 * or 0 when every window still has requests left (or has reset already).
 */
export function rateLimitWaitMs(snapshot: RateLimitSnapshot, now: number): number {
  let wait = 0;
  for (const w of RATE_LIMIT_WINDOWS) {
    const state = snapshot[w];
    if (state && state.remaining <= 0 && state.resetAt > now) wait = Math.max(wait, state.resetAt - now);
  }
  return wait;
}

/** The window that forces `rateLimitWaitMs`, for messages ("the hour quota is used up"). */
export function exhaustedWindow(snapshot: RateLimitSnapshot, now: number): RateLimitWindow | undefined {
  let found: RateLimitWindowState | undefined;
  for (const w of RATE_LIMIT_WINDOWS) {
    const state = snapshot[w];
    if (state && state.remaining <= 0 && state.resetAt > now && (!found || state.resetAt > found.resetAt)) found = state;
  }
  return found?.window;
}

/**
 * Retry-After (SPEC 8.4): delay-seconds, or an HTTP-date as RFC 9110 also allows. Undefined when absent or
 * unreadable; never negative.
 */
export function parseRetryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (!/[a-z]/i.test(text) || Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

// When and for which endpoints the Endpoints view asks for live health again: only endpoints with work (at the
// last look, or a job of ours running there), a few seconds apart, and slower or not at all when a rate-limit
// window runs low. No `vscode` import: unit-tested in plain Node.
import { rateLimitWaitMs } from '../core/http/rateLimit';
import { RATE_LIMIT_WINDOWS } from '../core/schemas';
import type { RateLimitSnapshot } from '../core/service';
import { isBusy, type HealthLook } from './healthText';

/** Between two looks at a busy endpoint: a cold start is seconds, so a few seconds shows each step. */
export const HEALTH_POLL_MS = 3_000;
/** Between two looks when a rate-limit window has less than LOW_REMAINING_SHARE of its quota left. */
export const HEALTH_POLL_LOW_QUOTA_MS = 30_000;
/** The share of a window below which live health steps back, leaving the requests to jobs and billing. */
export const LOW_REMAINING_SHARE = 0.1;
/** Without a quota in the headers (no RateLimit-Policy), this many requests left counts as low. */
const LOW_REMAINING_COUNT = 20;

/** The endpoints to look at again: those busy at their last look, and those where a job of ours runs. */
export function endpointsToPoll(watched: readonly string[], looks: ReadonlyMap<string, HealthLook>, running: ReadonlySet<string>): string[] {
  return watched.filter((id) => running.has(id) || (looks.has(id) && isBusy(looks.get(id)!.health)));
}

/** How long to wait before the next look: the usual beat, the wait of an exhausted window, or a slow beat when one is low. */
export function nextHealthPollMs(snapshot: RateLimitSnapshot, now: number): number {
  const exhausted = rateLimitWaitMs(snapshot, now);
  if (exhausted > 0) return Math.max(exhausted, HEALTH_POLL_MS);
  for (const w of RATE_LIMIT_WINDOWS) {
    const s = snapshot[w];
    if (!s || s.resetAt <= now) continue;
    const low = s.quota !== undefined ? s.remaining < s.quota * LOW_REMAINING_SHARE : s.remaining < LOW_REMAINING_COUNT;
    if (low) return HEALTH_POLL_LOW_QUOTA_MS;
  }
  return HEALTH_POLL_MS;
}

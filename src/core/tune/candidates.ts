// The settings Tune Endpoint tries (issue 29): the current ones first, then one change at a time: idle timeout
// 1, 5, 15, 60, 300 s; workers max around the current one; each scaler type at a few values; workers min 0 or 1.
// Never a value outside the platform's ranges (REST reference: idleTimeout 1..3600 s, requestCount >= 1,
// queueDelay >= 0.5, workers >= 0, min <= max). The idle timeout is not a setting of a queue endpoint scaling on
// REQUEST_COUNT (the reference: refused, omitted): such an endpoint gets no idle candidate, and its idle workers
// stop after the platform's own delay in every REQUEST_COUNT candidate (the engine is given it); idle timeouts
// are offered there only with a switch to QUEUE_DELAY, which carries one.
import type { ReplaySettings } from './replay';
import { onRequestCount } from './traffic';

export const IDLE_TIMEOUTS_S = [1, 5, 15, 60, 300] as const;
export const REQUEST_COUNTS = [1, 2, 4] as const;
export const QUEUE_DELAYS_S = [2, 4, 8] as const;

/** Whether the platform accepts these settings. */
export function withinPlatformRanges(s: ReplaySettings): boolean {
  const idleS = s.idleTimeoutMs / 1000;
  const scaler = s.scalerType === 'REQUEST_COUNT' ? Number.isInteger(s.scalerValue) && s.scalerValue >= 1 : s.scalerValue >= 0.5;
  return idleS >= 1 && idleS <= 3600 && Number.isInteger(s.workersMin) && Number.isInteger(s.workersMax)
    && s.workersMin >= 0 && s.workersMax >= 1 && s.workersMin <= s.workersMax && scaler;
}

/** A short label of what differs from `current` ("idle 60 s", "max 5", "QUEUE_DELAY 8 s"); "current" for none. */
export function changeLabel(current: ReplaySettings, s: ReplaySettings): string {
  const parts: string[] = [];
  // Said only where it is a setting: on QUEUE_DELAY (a switch to it names the idle timeout it carries).
  if (s.scalerType === 'QUEUE_DELAY' && (s.idleTimeoutMs !== current.idleTimeoutMs || current.scalerType !== 'QUEUE_DELAY')) parts.push(`idle ${s.idleTimeoutMs / 1000} s`);
  if (s.workersMax !== current.workersMax) parts.push(`max ${s.workersMax}`);
  if (s.workersMin !== current.workersMin) parts.push(`min ${s.workersMin}`);
  if (s.scalerType !== current.scalerType || s.scalerValue !== current.scalerValue) {
    parts.push(s.scalerType === 'REQUEST_COUNT' ? `REQUEST_COUNT ${s.scalerValue}` : `QUEUE_DELAY ${s.scalerValue} s`);
  }
  return parts.length ? parts.join(', ') : 'current';
}

export function tuneCandidates(current: ReplaySettings): ReplaySettings[] {
  const out: ReplaySettings[] = [current];
  const seen = new Set([key(current)]);
  const add = (change: Partial<ReplaySettings>): void => {
    const s = { ...current, ...change };
    if (s.workersMin > s.workersMax) s.workersMin = s.workersMax;
    const k = key(s);
    if (!withinPlatformRanges(s) || seen.has(k)) return;
    seen.add(k);
    out.push(s);
  };
  const requestCount = current.scalerType === 'REQUEST_COUNT';
  if (!requestCount) for (const idle of IDLE_TIMEOUTS_S) add({ idleTimeoutMs: idle * 1000 });
  for (const d of [-2, -1, 1, 2]) add({ workersMax: current.workersMax + d });
  for (const n of REQUEST_COUNTS) add(onRequestCount(current, n));
  for (const q of QUEUE_DELAYS_S) add({ scalerType: 'QUEUE_DELAY', scalerValue: q });
  // From REQUEST_COUNT, the idle timeouts come with a switch to QUEUE_DELAY (its default 4 s).
  if (requestCount) for (const idle of IDLE_TIMEOUTS_S) add({ scalerType: 'QUEUE_DELAY', scalerValue: 4, idleTimeoutMs: idle * 1000 });
  for (const min of [0, 1]) add({ workersMin: min });
  return out;
}

function key(s: ReplaySettings): string {
  return [s.workersMin, s.workersMax, s.idleTimeoutMs, s.scalerType, s.scalerValue].join('/');
}

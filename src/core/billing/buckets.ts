// Bucket arithmetic of the billing route (SPEC 4.1), in UTC: shared by the client (to predict the window the
// server will resolve) and the emulator (to resolve it). Weeks start Monday 00:00 UTC (ISO 8601); months and
// years at their first instant. date-fns with the `utc` context does the calendar work, so month ends and
// leap days are date-fns's problem, not ours.
import { utc } from '@date-fns/utc';
import {
  addDays, addHours, addMonths, addWeeks, addYears,
  startOfDay, startOfHour, startOfISOWeek, startOfMonth, startOfYear,
} from 'date-fns';
import type { BucketSize } from '../schemas';

const inUtc = { in: utc };

/** The start of the bucket of `size` that contains `instant` (snap down). */
export function bucketStart(instant: Date, size: BucketSize): Date {
  switch (size) {
    case 'hour': return new Date(startOfHour(instant, inUtc).getTime());
    case 'day': return new Date(startOfDay(instant, inUtc).getTime());
    case 'week': return new Date(startOfISOWeek(instant, inUtc).getTime());
    case 'month': return new Date(startOfMonth(instant, inUtc).getTime());
    case 'year': return new Date(startOfYear(instant, inUtc).getTime());
  }
}

/** `instant` moved by `n` buckets of `size` (n may be negative). Only meaningful on bucket boundaries. */
export function addBuckets(instant: Date, size: BucketSize, n: number): Date {
  switch (size) {
    case 'hour': return new Date(addHours(instant, n, inUtc).getTime());
    case 'day': return new Date(addDays(instant, n, inUtc).getTime());
    case 'week': return new Date(addWeeks(instant, n, inUtc).getTime());
    case 'month': return new Date(addMonths(instant, n, inUtc).getTime());
    case 'year': return new Date(addYears(instant, n, inUtc).getTime());
  }
}

export function isBoundary(instant: Date, size: BucketSize): boolean {
  return bucketStart(instant, size).getTime() === instant.getTime();
}

/** The end of the bucket `instant` falls in, unless it is already on a boundary (SPEC 4.1, endTime). */
export function snapUp(instant: Date, size: BucketSize): Date {
  const start = bucketStart(instant, size);
  return start.getTime() === instant.getTime() ? start : addBuckets(start, size, 1);
}

/** The bucket starts that tile [start, end); both must be boundaries of `size`. */
export function bucketStarts(start: Date, end: Date, size: BucketSize, max = Number.POSITIVE_INFINITY): Date[] {
  const out: Date[] = [];
  for (let t = start; t.getTime() < end.getTime(); t = addBuckets(t, size, 1)) {
    if (out.length >= max) throw new RangeError(`more than ${max} buckets of ${size}`);
    out.push(t);
  }
  return out;
}

/** How many buckets of `size` tile [start, end) (start on a boundary), counted without building them. */
export function countBuckets(start: Date, end: Date, size: BucketSize): number {
  const ms = end.getTime() - start.getTime();
  if (ms <= 0) return 0;
  switch (size) {
    case 'hour': return Math.ceil(ms / 3_600_000);
    case 'day': return Math.ceil(ms / 86_400_000);
    case 'week': return Math.ceil(ms / (7 * 86_400_000));
    case 'month': return (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth() + (isBoundary(end, 'month') ? 0 : 1);
    case 'year': return end.getUTCFullYear() - start.getUTCFullYear() + (isBoundary(end, 'year') ? 0 : 1);
  }
}

export const DEFAULT_BUCKET_SIZE: BucketSize = 'day';
export const DEFAULT_WINDOW_DAYS = 30;

export interface WindowRequest {
  startTime?: string;
  endTime?: string;
  bucketSize?: BucketSize;
  lastN?: number;
}

export interface ResolvedWindow {
  start: Date;
  end: Date;
  bucketSize: BucketSize;
}

/**
 * The window the billing route resolves for a query at `now` (SPEC 4.1): defaults (start 30 days before now,
 * end now, bucket day), start snapped down, end snapped up unless on a boundary; lastN = the last N buckets
 * ending with the current, in-progress one. Validation (lastN with start/end, start before end) is the
 * caller's: this only computes.
 */
export function resolveWindow(q: WindowRequest, now: Date): ResolvedWindow {
  const bucketSize = q.bucketSize ?? DEFAULT_BUCKET_SIZE;
  if (q.lastN !== undefined) {
    const current = bucketStart(now, bucketSize);
    return { start: addBuckets(current, bucketSize, -(q.lastN - 1)), end: addBuckets(current, bucketSize, 1), bucketSize };
  }
  const rawStart = q.startTime !== undefined ? new Date(q.startTime) : new Date(now.getTime() - DEFAULT_WINDOW_DAYS * 86_400_000);
  const rawEnd = q.endTime !== undefined ? new Date(q.endTime) : now;
  return { start: bucketStart(rawStart, bucketSize), end: snapUp(rawEnd, bucketSize), bucketSize };
}

// Validation and resolution of the billing route's query string (SPEC 4.1, issue 3 "Billing"). Each bad
// parameter gets its own line in `errors`, named first, so a client can point at the field. The field syntax
// reuses the core's BillingQueryParams schema; the window arithmetic is the core's resolveWindow.
import { countBuckets, DEFAULT_BUCKET_SIZE, DEFAULT_WINDOW_DAYS, resolveWindow, type ResolvedWindow } from '../../core/billing/buckets';
import { BillingQueryParams, BUCKET_SIZES, type BucketSize } from '../../core/schemas';
import { readQueryParams } from '../http/queryParams';
import { HttpProblem } from '../http/respond';

/** A window longer than this is refused (issue 3): it bounds the size of one response. */
export const MAX_BUCKETS = 10_000;

const MIN_INSTANT = Date.parse('0000-01-01T00:00:00Z');
const END_OF_TIME = Date.parse('+010000-01-01T00:00:00Z');

const PARAMS = ['startTime', 'endTime', 'bucketSize', 'lastN', 'serverlessId'] as const;
const fields = BillingQueryParams.shape;

export interface BillingQuery {
  window: ResolvedWindow;
  serverlessId?: string;
}

export function parseBillingQuery(search: URLSearchParams, nowMs: number): BillingQuery {
  const { values: raw, errors } = readQueryParams(search, PARAMS);

  const q: { startTime?: string; endTime?: string; bucketSize?: BucketSize; lastN?: number; serverlessId?: string } = {};
  for (const name of ['startTime', 'endTime'] as const) {
    const v = raw[name];
    if (v === undefined) continue;
    if (fields[name].safeParse(v).success) q[name] = v;
    else errors.push(`${name}: "${v}" is not a real RFC 3339 date-time with an offset (such as 2026-06-01T00:00:00Z or 2026-06-01T02:00:00+02:00)`);
  }
  if (raw.bucketSize !== undefined) {
    const r = fields.bucketSize.safeParse(raw.bucketSize);
    if (r.success) q.bucketSize = r.data;
    else errors.push(`bucketSize: "${raw.bucketSize}" is not one of ${BUCKET_SIZES.join(', ')}`);
  }
  if (raw.lastN !== undefined) {
    const n = /^\d+$/.test(raw.lastN) ? Number(raw.lastN) : Number.NaN;
    if (fields.lastN.safeParse(n).success) q.lastN = n;
    else errors.push(`lastN: must be an integer of at least 1 (got "${raw.lastN}")`);
  }
  if (raw.serverlessId !== undefined) {
    if (fields.serverlessId.safeParse(raw.serverlessId).success) q.serverlessId = raw.serverlessId;
    else errors.push('serverlessId: must not be empty');
  }
  if (raw.lastN !== undefined && (raw.startTime !== undefined || raw.endTime !== undefined)) {
    // SPEC 4.1 says mutually exclusive and leaves the status open: a 400 naming the conflict.
    errors.push('lastN: cannot be combined with startTime or endTime');
  }
  if (errors.length) throw badQuery(errors);

  if (q.lastN !== undefined && q.lastN > MAX_BUCKETS) {
    throw badQuery([`lastN: ${q.lastN} buckets is more than the ${MAX_BUCKETS} one response may hold`]);
  }
  const bucketSize = q.bucketSize ?? DEFAULT_BUCKET_SIZE;
  if (q.lastN === undefined) {
    // Compare the instants as given (or defaulted): snapping never turns an empty window into a non-empty one.
    const start = q.startTime !== undefined ? Date.parse(q.startTime) : nowMs - DEFAULT_WINDOW_DAYS * 86_400_000;
    const end = q.endTime !== undefined ? Date.parse(q.endTime) : nowMs;
    if (start >= end) {
      const s = q.startTime !== undefined ? 'startTime' : `startTime (default: ${DEFAULT_WINDOW_DAYS} days before now)`;
      const e = q.endTime !== undefined ? 'endTime' : 'endTime (default: now)';
      const named = q.startTime !== undefined ? 'startTime' : 'endTime';
      throw badQuery([`${named}: ${s} must be before ${e}`]);
    }
  }
  const window = resolveWindow({ ...q, bucketSize }, new Date(nowMs));
  if (window.start.getTime() < MIN_INSTANT || window.end.getTime() >= END_OF_TIME) {
    // RFC 3339 has four-digit years only: a window reaching outside 0000..9999 could not be echoed.
    const named = q.lastN !== undefined ? 'lastN' : window.start.getTime() < MIN_INSTANT ? 'startTime' : 'endTime';
    throw badQuery([`${named}: the resolved window must lie between 0000-01-01 and the end of 9999 (RFC 3339 years)`]);
  }
  const n = countBuckets(window.start, window.end, bucketSize);
  if (n > MAX_BUCKETS) {
    const named = [q.startTime !== undefined ? 'startTime' : '', q.endTime !== undefined ? 'endTime' : ''].filter(Boolean).join('/') || 'startTime';
    throw badQuery([`${named}: the window holds ${n} ${bucketSize} buckets, more than the ${MAX_BUCKETS} one response may hold`]);
  }
  return q.serverlessId !== undefined ? { window, serverlessId: q.serverlessId } : { window };
}

function badQuery(errors: string[]): HttpProblem {
  return new HttpProblem(400, `The billing query is invalid: ${errors.length === 1 ? errors[0] : `${errors.length} problems, see errors`}.`, errors);
}

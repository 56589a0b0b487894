// The billing query (SPEC 4.1) checked before anything is sent, and turned into a query string. A bad
// query gets words a user can act on and no request: the spec leaves the server's answer to some of these
// (lastN with startTime/endTime) unstated, so we never find out by asking.
import { BUCKET_SIZES, DateTime, type BillingQueryParams } from '../schemas';

const KNOWN_PARAMETERS: readonly string[] = ['startTime', 'endTime', 'bucketSize', 'lastN', 'serverlessId'];

function checkDateTime(name: string, value: unknown, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !DateTime.safeParse(value).success) {
    problems.push(`${name} must be an RFC 3339 date-time with a time zone, such as 2026-01-31T00:00:00Z (got ${JSON.stringify(value)}).`);
    return undefined;
  }
  return Date.parse(value);
}

/**
 * Every problem of `query`, in words; empty when it may be sent. Accepts `unknown` fields too, because a
 * query may come from a form or a stored setting rather than typed code.
 */
export function validateBillingQuery(query: BillingQueryParams): string[] {
  const q = query as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(q)) {
    if (!KNOWN_PARAMETERS.includes(key) && q[key] !== undefined) problems.push(`Unknown query parameter "${key}".`);
  }
  const lastN = q['lastN'];
  if (lastN !== undefined) {
    if (typeof lastN !== 'number' || !Number.isInteger(lastN) || lastN < 1) {
      problems.push(`lastN must be a whole number of at least 1 (SPEC 8.5; got ${JSON.stringify(lastN)}).`);
    }
    if (q['startTime'] !== undefined || q['endTime'] !== undefined) {
      problems.push('lastN cannot be combined with startTime or endTime: choose the last N buckets or a time range.');
    }
  }
  const bucketSize = q['bucketSize'];
  if (bucketSize !== undefined && !(BUCKET_SIZES as readonly unknown[]).includes(bucketSize)) {
    problems.push(`bucketSize must be one of ${BUCKET_SIZES.join(', ')} (got ${JSON.stringify(bucketSize)}).`);
  }
  const start = checkDateTime('startTime', q['startTime'], problems);
  const end = checkDateTime('endTime', q['endTime'], problems);
  if (start !== undefined && end !== undefined && start >= end) {
    problems.push('startTime must be before endTime (the range is [startTime, endTime), SPEC 2.1).');
  }
  const serverlessId = q['serverlessId'];
  if (serverlessId !== undefined && (typeof serverlessId !== 'string' || serverlessId.trim() === '')) {
    problems.push('serverlessId must be a non-empty endpoint id.');
  }
  return problems;
}

/** The query string of a valid query, parameters in a fixed order (stable URLs for logs and caches). */
export function billingQueryString(query: BillingQueryParams): URLSearchParams {
  const params = new URLSearchParams();
  if (query.startTime !== undefined) params.set('startTime', query.startTime);
  if (query.endTime !== undefined) params.set('endTime', query.endTime);
  if (query.bucketSize !== undefined) params.set('bucketSize', query.bucketSize);
  if (query.lastN !== undefined) params.set('lastN', String(query.lastN));
  if (query.serverlessId !== undefined) params.set('serverlessId', query.serverlessId);
  return params;
}

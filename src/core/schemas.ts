// The wire types of the service (../shared/SPEC.md section 2): the one definition shared by the client,
// the editor layer and the emulator. Types are inferred from these schemas, never written twice.
//
// Reading vs writing: what we *read* from the service is lenient where the real service is known to differ
// from the spec (extra fields are kept, more job states exist, image outputs come in two shapes). What we
// *send* (and what the emulator accepts) is strict.
//
// `zod/mini`, zod 4's functional API on the same core as classic `zod`: tree-shakable, so extension.js carries
// only the parts of zod these schemas use (~35 KB instead of classic zod's ~99 KB; issue 11's 200 KB budget).
// Wrappers and checks are functions (`z.optional(s)`, `s.check(z.minLength(1))`); `parse`/`safeParse` stay
// methods. Mini has no messages of its own: every module that turns an issue into text imports ./zodMessages.
// A namespace import, not `import { z }`: through the re-exported `z` object esbuild keeps all of zod, its
// 60 locales included. Every module imports zod this way, and uses no `z.x.y` (a second namespace level,
// such as `z.iso.datetime` or `z.catch` inside, keeps a whole zod module: see DateTime and ./zodCatch.ts).
import * as z from 'zod/mini';
import { pathSegment } from './ids';

// ---------------------------------------------------------------------------------------------------------
// Time (SPEC 2.1). Strict RFC 3339: a full date, a time, and an offset (Z or +hh:mm). `z.iso.datetime` with
// `offset: true` accepts any offset; `isRealInstant` rejects impossible calendar dates such as 2027-02-29,
// which Date.parse would silently roll over into March.
// ---------------------------------------------------------------------------------------------------------
export function isRealInstant(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999, which would refuse 0050-01-01.
  const probe = new Date(0);
  probe.setUTCFullYear(y, mo - 1, d);
  probe.setUTCHours(h, mi, se, 0);
  return (
    probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d &&
    h < 24 && mi < 60 && se < 60 && !Number.isNaN(Date.parse(s))
  );
}

/**
 * isRealInstant's exact verdict, without a regex, a Date or Date.parse, for the shape services write
 * (YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm)); any other string goes to isRealInstant itself.
 * DateTime runs on two strings per billing record: with isRealInstant the refine cost twice JSON.parse on a
 * 175,200-record response (test/bench/billing.bench.ts). Equivalence: test/unit/schemas.dateTime.test.ts.
 */
export function isRealInstantQuick(s: string): boolean {
  const n = s.length;
  if (n < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 ||
      s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return isRealInstant(s);
  const c = twoDigits(s, 0), yy = twoDigits(s, 2), mo = twoDigits(s, 5), d = twoDigits(s, 8);
  const h = twoDigits(s, 11), mi = twoDigits(s, 14), se = twoDigits(s, 17);
  if (c < 0 || yy < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || se < 0) return isRealInstant(s);
  let i = 19;
  if (s.charCodeAt(i) === 46 /* . */) {
    const first = ++i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === first) return isRealInstant(s);
  }
  const zone = s.charCodeAt(i);
  if (zone === 90 /* Z */) {
    if (i + 1 !== n) return isRealInstant(s);
  } else if (zone === 43 /* + */ || zone === 45 /* - */) {
    const oh = twoDigits(s, i + 1), om = twoDigits(s, i + 4);
    if (i + 6 !== n || s.charCodeAt(i + 3) !== 58 || oh < 0 || oh > 23 || om < 0 || om > 59) return isRealInstant(s);
  } else {
    return isRealInstant(s);
  }
  const y = c * 100 + yy;
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 59) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31);
}

/** The number written by the two ASCII digits at s[i], s[i+1]; -1 if they are not digits. A top-level function:
 * as a closure inside isRealInstantQuick it made that function ten times slower. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48, b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

// `z.iso.datetime({ offset: true, local: false })` spelled as the def it builds: reaching it through the `z.iso`
// namespace makes esbuild keep all of zod's iso module (date, time, duration: 1.3 KB of extension.js).
export const DateTime = new z.ZodMiniISODateTime({
  type: 'string',
  format: 'datetime',
  check: 'string_format',
  offset: true,
  local: false,
  precision: null,
}).check(z.refine(isRealInstantQuick, { message: 'not a real calendar date-time' }));

export const TimeRange = z.looseObject({
  startTime: DateTime,
  endTime: DateTime,
});
export type TimeRange = z.infer<typeof TimeRange>;

// ---------------------------------------------------------------------------------------------------------
// Billing (SPEC 2.2 - 2.6, 4.1)
// ---------------------------------------------------------------------------------------------------------
export const BUCKET_SIZES = ['hour', 'day', 'week', 'month', 'year'] as const;
export const BucketSize = z.enum(BUCKET_SIZES);
export type BucketSize = z.infer<typeof BucketSize>;

export const BillingAmounts = z.looseObject({
  totalAmount: z.number(),
  gpuAmount: z.number(),
  cpuAmount: z.number(),
  diskAmount: z.number(),
  feeAmount: z.number(),
});
export type BillingAmounts = z.infer<typeof BillingAmounts>;
export const AMOUNT_KEYS = ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount', 'feeAmount'] as const;
export type AmountKey = (typeof AMOUNT_KEYS)[number];

export const ServerlessBillingRecord = z.looseObject({
  ...TimeRange.shape,
  ...BillingAmounts.shape,
  serverlessId: z.string(),
});
export type ServerlessBillingRecord = z.infer<typeof ServerlessBillingRecord>;

export const BillingQueryEcho = z.looseObject({
  startTime: DateTime,
  endTime: DateTime,
  bucketSize: BucketSize,
  serverlessId: z.optional(z.nullable(z.string())),
});
export type BillingQueryEcho = z.infer<typeof BillingQueryEcho>;

export const ServerlessBillingMetadata = z.looseObject({
  query: BillingQueryEcho,
  recordCount: z.int().check(z.nonnegative()),
  uniqueServerlessCount: z.int().check(z.nonnegative()),
  totals: BillingAmounts,
});
export type ServerlessBillingMetadata = z.infer<typeof ServerlessBillingMetadata>;

export const ListServerlessBillingResponse = z.looseObject({
  records: z.array(ServerlessBillingRecord),
  metadata: ServerlessBillingMetadata,
});
export type ListServerlessBillingResponse = z.infer<typeof ListServerlessBillingResponse>;

/** The query parameters of GET /v2/billing/serverless (SPEC 4.1), all optional, as we send them. */
export const BillingQueryParams = z.strictObject({
  startTime: z.optional(DateTime),
  endTime: z.optional(DateTime),
  bucketSize: z.optional(BucketSize),
  lastN: z.optional(z.int().check(z.gte(1))),
  serverlessId: z.optional(z.string().check(z.minLength(1))),
});
export type BillingQueryParams = z.infer<typeof BillingQueryParams>;

// ---------------------------------------------------------------------------------------------------------
// Jobs (SPEC 2.7, 3, 4.2 - 4.4)
// ---------------------------------------------------------------------------------------------------------
/** The four states of the spec (SPEC 3). */
export const SPEC_JOB_STATES = ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
/** States the real service also reports; CANCELLED and TIMED_OUT are terminal, RUNNING is not. */
export const EXTRA_JOB_STATES = ['RUNNING', 'CANCELLED', 'TIMED_OUT'] as const;
export const TERMINAL_JOB_STATES: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);
export type KnownJobStatus = (typeof SPEC_JOB_STATES)[number] | (typeof EXTRA_JOB_STATES)[number];
/** Any string is accepted on read: an unknown state is shown as it is and treated as not yet terminal. */
export const JobStatus = z.string().check(z.minLength(1));
export function isTerminalStatus(status: string): boolean {
  return TERMINAL_JOB_STATES.has(status);
}

/** The `input` object of a job: endpoint-specific (SPEC 2.8), so any JSON object. */
export const JobInput = z.record(z.string(), z.unknown());
export type JobInput = z.infer<typeof JobInput>;

/** The body of /run and /runsync (SPEC 4.2): exactly one property, `input`. Only the emulator parses it: pure, so
 * extension.js, which sends it, does not carry it. */
export const RunRequest = /* @__PURE__ */ z.strictObject({ input: JobInput });
export type RunRequest = z.infer<typeof RunRequest>;

/** The answer of /run (SPEC 4.2): only id and status. Read leniently. */
export const RunResponse = z.looseObject({ id: z.string().check(z.minLength(1)), status: JobStatus });
export type RunResponse = z.infer<typeof RunResponse>;

export const Job = z.looseObject({
  id: z.string().check(z.minLength(1)),
  status: JobStatus,
  delayTime: z.optional(z.number()),
  executionTime: z.optional(z.number()),
  input: z.optional(z.unknown()),
  output: z.optional(z.unknown()),
  workerId: z.optional(z.string()),
  /** Not in the spec: the real service puts a failed job's message here. */
  error: z.optional(z.unknown()),
});
export type Job = z.infer<typeof Job>;

// ---------------------------------------------------------------------------------------------------------
// Output shapes (SPEC 2.8): no schema. An output is whatever a worker returned, read as hostile data by
// src/core/outputs/outputs.ts, which lists the shapes real workers return (the dedicated endpoint's
// [{image_url, seed}], a public endpoint's {image_url | video_url | audio_url, cost}, and more).
// ---------------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------------
// Errors (SPEC 2.9): application/problem+json
// ---------------------------------------------------------------------------------------------------------
export const PROBLEM_JSON = 'application/problem+json';
export const ProblemDetails = z.looseObject({
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  errors: z.optional(z.array(z.string())),
});
export type ProblemDetails = z.infer<typeof ProblemDetails>;

// ---------------------------------------------------------------------------------------------------------
// Rate limits (SPEC 8)
// ---------------------------------------------------------------------------------------------------------
export const RATE_LIMIT_WINDOWS = ['minute', 'hour', 'day'] as const;
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];
export const RATE_LIMIT_WINDOW_SECONDS: Record<RateLimitWindow, number> = { minute: 60, hour: 3600, day: 86400 };

// ---------------------------------------------------------------------------------------------------------
// Routes (SPEC 4, 9): one place for every path, so client and emulator cannot disagree.
// ---------------------------------------------------------------------------------------------------------
// Each id is checked and encoded as one segment (./ids.ts): an id of `..` would otherwise send the key to
// another route (issue 12).
export const routes = {
  billing: '/v2/billing/serverless',
  run: (endpointId: string) => `/v2/${pathSegment(endpointId, 'endpoint')}/run`,
  runsync: (endpointId: string) => `/v2/${pathSegment(endpointId, 'endpoint')}/runsync`,
  status: (endpointId: string, jobId: string) => `/v2/${pathSegment(endpointId, 'endpoint')}/status/${pathSegment(jobId, 'job')}`,
} as const;

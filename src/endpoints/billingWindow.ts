// The billing windows the user picks from ("Change Billing Window"), as billing queries (SPEC 4.1), and the
// words that describe a resolved window. No `vscode` import: the bench and unit tests use it in plain Node.
//
// lastN is used where it is what the user means ("the last 7 days" = the last 7 daily buckets, ending with the
// current one, SPEC 4.1). "Today" is not lastN 24 (that would reach into yesterday): it starts at today's
// 00:00 UTC, by hour, and ends with the current hour. A custom range sends its start and end, which the
// server snaps to the bucket size.
import { bucketStart } from '../core/billing/buckets';
import * as z from 'zod/mini';
import type { BillingQueryParams, BillingQueryEcho } from '../core/schemas';
import { BucketSize, DateTime } from '../core/schemas';

export const PRESET_IDS = ['today', 'last7Days', 'last30Days', 'last12Weeks', 'last12Months', 'last5Years'] as const;
export type PresetId = (typeof PRESET_IDS)[number];

/** A window as the picker makes it and globalState keeps it (where an older shape may linger). */
const BillingWindowSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('preset'), preset: z.enum(PRESET_IDS) }),
  z.object({ kind: z.literal('custom'), startTime: DateTime, endTime: DateTime, bucketSize: BucketSize }),
]);
export type BillingWindow = z.infer<typeof BillingWindowSchema>;

export const DEFAULT_WINDOW: BillingWindow = { kind: 'preset', preset: 'last30Days' };

interface PresetInfo {
  label: string;
  bucketSize: BucketSize;
  /** undefined: "today", computed from the clock. */
  lastN?: number;
}

export const PRESETS: Record<PresetId, PresetInfo> = {
  today: { label: 'Today', bucketSize: 'hour' },
  last7Days: { label: 'Last 7 days', bucketSize: 'day', lastN: 7 },
  last30Days: { label: 'Last 30 days', bucketSize: 'day', lastN: 30 },
  last12Weeks: { label: 'Last 12 weeks', bucketSize: 'week', lastN: 12 },
  last12Months: { label: 'Last 12 months', bucketSize: 'month', lastN: 12 },
  last5Years: { label: 'Last 5 years', bucketSize: 'year', lastN: 5 },
};

export const BUCKET_ADJECTIVE: Record<BucketSize, string> = {
  hour: 'hourly',
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
  year: 'yearly',
};

/** The billing query for a window, at `now` (only "today" depends on the clock). */
export function windowQuery(w: BillingWindow, now: Date = new Date()): BillingQueryParams {
  if (w.kind === 'custom') return { startTime: w.startTime, endTime: w.endTime, bucketSize: w.bucketSize };
  const p = PRESETS[w.preset];
  if (p.lastN !== undefined) return { lastN: p.lastN, bucketSize: p.bucketSize };
  const midnight = bucketStart(now, 'day');
  return { startTime: midnight.toISOString().replace('.000Z', 'Z'), bucketSize: p.bucketSize };
}

/** Accepts a stored window only if it is still well formed (globalState may hold an older shape). */
export function parseStoredWindow(value: unknown): BillingWindow {
  const parsed = BillingWindowSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_WINDOW;
}

/** For validateInput as the user types: undefined when valid, else what is wrong. */
export function validateRfc3339(text: string): string | undefined {
  const t = text.trim();
  if (!t) return 'Enter a date-time such as 2026-01-01T00:00:00Z';
  if (!DateTime.safeParse(t).success) return 'Not an RFC 3339 date-time: use the form 2026-01-01T00:00:00Z (an offset such as +02:00 also works)';
  return undefined;
}

/** The custom end must come after the start (SPEC 4.1, a window is [start, end)). */
export function validateRange(startTime: string, endTime: string): string | undefined {
  const bad = validateRfc3339(endTime);
  if (bad) return bad;
  if (Date.parse(endTime.trim()) <= Date.parse(startTime.trim())) return `The end must be after the start (${startTime.trim()})`;
  return undefined;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** "2026-06-01 – 2026-06-15" or, for hourly windows, with the times. From the server's echoed query. */
export function describeRange(echo: Pick<BillingQueryEcho, 'startTime' | 'endTime' | 'bucketSize'>): string {
  if (echo.bucketSize === 'hour') {
    const fmt = (s: string): string => new Date(s).toISOString().slice(0, 16).replace('T', ' ');
    return `${fmt(echo.startTime)} – ${fmt(echo.endTime)} UTC`;
  }
  return `${day(new Date(echo.startTime).toISOString())} – ${day(new Date(echo.endTime).toISOString())}`;
}

/** The view's description: "Last 30 days, daily, $123.45", from the echoed query and metadata totals. */
export function describeWindow(w: BillingWindow, echo: Pick<BillingQueryEcho, 'startTime' | 'endTime' | 'bucketSize'>, total: string): string {
  const name = w.kind === 'preset' ? PRESETS[w.preset].label : describeRange(echo);
  return `${name}, ${BUCKET_ADJECTIVE[echo.bucketSize]}, ${total}`;
}

/** The picker's label of a window, before any response ("Last 30 days (daily)"). */
export function windowLabel(w: BillingWindow): string {
  if (w.kind === 'preset') return `${PRESETS[w.preset].label} (${BUCKET_ADJECTIVE[PRESETS[w.preset].bucketSize]})`;
  return `${w.startTime} – ${w.endTime} (${BUCKET_ADJECTIVE[w.bucketSize]})`;
}

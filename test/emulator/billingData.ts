// The usage the billing suites run on, and an oracle that computes the records the spec demands from it
// (SPEC 4.1 rules 1-3, issue #3 "Billing"). Events sit on the edges calendars get wrong: a leap day's first and
// last millisecond, an ISO week's Sunday night and Monday morning at a year change, a month's last instant.
import { bucketStarts, addBuckets } from '../../src/core/billing/buckets';
import type { BucketSize } from '../../src/core/schemas';
import { config, usage, type UsageEvent } from './fixtures';

/** A few seconds after noon on Monday 2026-06-15: not on an hour boundary, so "now" snaps up to 13:00. */
export const BILLING_NOW = '2026-06-15T12:00:30Z';

/** alpha and zeta are listed zeta-first in the config, so ordering by id cannot come from config order. */
export const ALICE_USAGE: UsageEvent[] = [
  usage('zeta', '2026-01-05T00:00:00Z', 32), // Monday 00:00: the second ISO week of 2026
  usage('alpha', '2024-02-29T00:00:00Z', 2), // first instant of the leap day
  usage('alpha', '2024-03-01T00:00:00Z', 8),
  usage('zeta', '2024-02-29T23:59:59.999Z', 4), // last millisecond of the leap day
  usage('alpha', '2024-02-28T23:59:59Z', 1),
  usage('zeta', '2026-01-04T23:59:59Z', 16), // Sunday night: still ISO week 1 of 2026 (from Mon 2025-12-29)
  usage('alpha', '2025-12-29T00:00:00Z', 0.5), // Monday that starts ISO week 1 of 2026
  usage('alpha', '2025-12-28T23:59:59Z', 0.25), // Sunday: last ISO week of 2025
  usage('alpha', '2026-01-31T23:59:59.999Z', 64),
  usage('alpha', '2026-02-01T00:00:00Z', 128),
  usage('zeta', '2024-12-31T23:59:59Z', 3),
  usage('zeta', '2025-01-01T00:00:00Z', 5),
  // The default window (2026-05-16 .. 2026-06-16 by day):
  usage('ep1', '2026-05-15T23:59:59Z', 100), // one second before it: excluded
  usage('ep1', '2026-05-16T00:00:00Z', 1.5), // its first instant: included
  usage('ep1', '2026-06-01T10:15:00Z', 1.5, 0.25, 0.25, 0.25), // the example event
  usage('ep1', '2026-06-01T10:45:00Z', 0.5),
  usage('alpha', '2026-06-10T08:00:00Z', 0.75),
  usage('zeta', '2026-06-15T11:59:00Z', 2.5),
];

/** Bob's usage must never show up in Alice's billing (SPEC 5 rule 4). */
export const BOB_USAGE: UsageEvent[] = [usage('bob-ep', '2026-06-10T00:00:00Z', 1000)];

export function billingConfig() {
  return config({
    now: BILLING_NOW,
    aliceUsage: ALICE_USAGE,
    bobUsage: BOB_USAGE,
    aliceEndpoints: [{ id: 'zeta', kind: 'echo' }, { id: 'alpha', kind: 'echo' }],
  });
}

export interface ExpectedRecord {
  startTime: string;
  endTime: string;
  serverlessId: string;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
  feeAmount: number;
  totalAmount: number;
}

/**
 * What SPEC 4.1 demands for the resolved window [start, end): per bucket, one record per endpoint with any
 * usage in the window (or just `only`), zeros in empty buckets, ordered by startTime then serverlessId.
 */
export function expectedRecords(events: UsageEvent[], start: string, end: string, size: BucketSize, only?: string): ExpectedRecord[] {
  const s = new Date(start);
  const e = new Date(end);
  const inWindow = events.filter((u) => Date.parse(u.time) >= s.getTime() && Date.parse(u.time) < e.getTime());
  const ids = only !== undefined ? [only] : [...new Set(inWindow.map((u) => u.serverlessId))].sort();
  const out: ExpectedRecord[] = [];
  for (const b of bucketStarts(s, e, size)) {
    const bEnd = addBuckets(b, size, 1);
    for (const id of ids) {
      const mine = inWindow.filter((u) => u.serverlessId === id && Date.parse(u.time) >= b.getTime() && Date.parse(u.time) < bEnd.getTime());
      const sum = (k: 'gpuAmount' | 'cpuAmount' | 'diskAmount' | 'feeAmount') => mine.reduce((a, u) => a + u[k], 0);
      const r = { startTime: b.toISOString(), endTime: bEnd.toISOString(), serverlessId: id, gpuAmount: sum('gpuAmount'), cpuAmount: sum('cpuAmount'), diskAmount: sum('diskAmount'), feeAmount: sum('feeAmount'), totalAmount: 0 };
      r.totalAmount = r.gpuAmount + r.cpuAmount + r.diskAmount + r.feeAmount;
      out.push(r);
    }
  }
  return out;
}

/** A record from the wire, normalised for comparison (instants as toISOString, only the spec's fields). */
export function normalise(r: Record<string, unknown>): ExpectedRecord {
  return {
    startTime: new Date(r.startTime as string).toISOString(),
    endTime: new Date(r.endTime as string).toISOString(),
    serverlessId: r.serverlessId as string,
    gpuAmount: r.gpuAmount as number,
    cpuAmount: r.cpuAmount as number,
    diskAmount: r.diskAmount as number,
    feeAmount: r.feeAmount as number,
    totalAmount: r.totalAmount as number,
  };
}

// What the billing views show, computed from one ListServerlessBillingResponse (SPEC 2.6) in one pass:
// per-endpoint totals (the tree), each endpoint's buckets newest first (its children), and a per-bucket
// series of the cost components for a stacked chart (all endpoints, or one).
// A year of hourly buckets for 20 endpoints is 175,200 records, so the pass allocates per endpoint and per
// bucket, not per record (test/bench/billing.bench.ts keeps it honest).
import type { ServerlessBillingRecord } from '../schemas';

export interface EndpointTotals {
  serverlessId: string;
  totalAmount: number;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
  feeAmount: number;
  /** How many records (buckets) the endpoint has. */
  recordCount: number;
}

/** One bucket of the stacked chart: the cost components summed over the endpoints chosen. */
export interface BucketPoint {
  /** The bucket's startTime as the service wrote it (of the first record seen for that instant). */
  startTime: string;
  startMs: number;
  totalAmount: number;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
  feeAmount: number;
}

export interface BillingAggregate {
  /** Sorted by totalAmount, highest first; endpoints that cost nothing come last; ties by id. */
  endpoints: EndpointTotals[];
  /** Each endpoint's records, newest bucket first. */
  bucketsOf(serverlessId: string): readonly ServerlessBillingRecord[];
  /** The epoch ms of each of bucketsOf(serverlessId)'s startTimes, in the same order (parsed once already). */
  bucketStartsOf(serverlessId: string): readonly number[];
  /** Per-bucket sums, oldest first (a chart's x axis), over every endpoint or only `serverlessId`. */
  series(serverlessId?: string): BucketPoint[];
}

interface EndpointAccumulator {
  totals: EndpointTotals;
  records: ServerlessBillingRecord[];
  starts: number[];
  /** Whether `starts` is still ascending / descending as records arrive: most responses are in order, so no sort is needed. */
  ascending: boolean;
  descending: boolean;
  sorted: boolean;
}

export function aggregateBilling(response: { records: readonly ServerlessBillingRecord[] }): BillingAggregate {
  const byEndpoint = new Map<string, EndpointAccumulator>();
  const allSeries = new Map<number, BucketPoint>();
  // Records repeat one startTime per endpoint: parse each distinct string once.
  const startMsOf = new Map<string, number>();

  // Responses usually list every endpoint of a bucket together: the previous record's bucket is the first guess.
  let lastStartTime = '';
  let lastStartMs = Number.NaN;
  let lastPoint: BucketPoint | undefined;

  const records = response.records;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    let startMs: number | undefined;
    if (r.startTime === lastStartTime) {
      startMs = lastStartMs;
    } else {
      startMs = startMsOf.get(r.startTime);
      if (startMs === undefined) {
        startMs = Date.parse(r.startTime);
        startMsOf.set(r.startTime, startMs);
      }
      lastStartTime = r.startTime;
    }

    let acc = byEndpoint.get(r.serverlessId);
    if (acc === undefined) {
      acc = {
        totals: { serverlessId: r.serverlessId, totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0, recordCount: 0 },
        records: [], starts: [], ascending: true, descending: true, sorted: false,
      };
      byEndpoint.set(r.serverlessId, acc);
    }
    const t = acc.totals;
    t.totalAmount += r.totalAmount;
    t.gpuAmount += r.gpuAmount;
    t.cpuAmount += r.cpuAmount;
    t.diskAmount += r.diskAmount;
    t.feeAmount += r.feeAmount;
    t.recordCount++;
    const n = acc.starts.length;
    if (n > 0) {
      const prev = acc.starts[n - 1]!;
      if (startMs < prev) acc.ascending = false;
      if (startMs > prev) acc.descending = false;
    }
    acc.records.push(r);
    acc.starts.push(startMs);

    const point = startMs === lastStartMs && lastPoint !== undefined ? lastPoint : allSeries.get(startMs);
    lastStartMs = startMs;
    if (point === undefined) {
      lastPoint = {
        startTime: r.startTime, startMs,
        totalAmount: r.totalAmount, gpuAmount: r.gpuAmount, cpuAmount: r.cpuAmount, diskAmount: r.diskAmount, feeAmount: r.feeAmount,
      };
      allSeries.set(startMs, lastPoint);
    } else {
      lastPoint = point;
      point.totalAmount += r.totalAmount;
      point.gpuAmount += r.gpuAmount;
      point.cpuAmount += r.cpuAmount;
      point.diskAmount += r.diskAmount;
      point.feeAmount += r.feeAmount;
    }
  }

  const endpoints = [...byEndpoint.values()].map((a) => a.totals).sort(compareEndpoints);
  const overall = [...allSeries.values()].sort((a, b) => a.startMs - b.startMs);

  const newestFirst = (acc: EndpointAccumulator): ServerlessBillingRecord[] => {
    if (!acc.sorted) {
      if (acc.ascending) {
        acc.records.reverse();
        acc.starts.reverse();
      } else if (!acc.descending) {
        const order = acc.starts.map((_, i) => i).sort((a, b) => acc.starts[b]! - acc.starts[a]!);
        acc.records = order.map((i) => acc.records[i]!);
        acc.starts = order.map((i) => acc.starts[i]!);
      }
      acc.sorted = true;
    }
    return acc.records;
  };

  return {
    endpoints,
    bucketsOf: (serverlessId) => {
      const acc = byEndpoint.get(serverlessId);
      return acc ? newestFirst(acc) : [];
    },
    bucketStartsOf: (serverlessId) => {
      const acc = byEndpoint.get(serverlessId);
      if (!acc) return [];
      newestFirst(acc);
      return acc.starts;
    },
    series: (serverlessId) => {
      if (serverlessId === undefined) return overall.map((p) => ({ ...p }));
      const acc = byEndpoint.get(serverlessId);
      if (!acc) return [];
      const points = new Map<number, BucketPoint>();
      const recs = newestFirst(acc);
      for (let i = recs.length - 1; i >= 0; i--) {
        const r = recs[i]!;
        const startMs = acc.starts[i]!;
        const p = points.get(startMs);
        if (p === undefined) {
          points.set(startMs, { startTime: r.startTime, startMs, totalAmount: r.totalAmount, gpuAmount: r.gpuAmount, cpuAmount: r.cpuAmount, diskAmount: r.diskAmount, feeAmount: r.feeAmount });
        } else {
          p.totalAmount += r.totalAmount;
          p.gpuAmount += r.gpuAmount;
          p.cpuAmount += r.cpuAmount;
          p.diskAmount += r.diskAmount;
          p.feeAmount += r.feeAmount;
        }
      }
      return [...points.values()].sort((a, b) => a.startMs - b.startMs);
    },
  };
}

function compareEndpoints(a: EndpointTotals, b: EndpointTotals): number {
  const aZero = a.totalAmount === 0 ? 1 : 0;
  const bZero = b.totalAmount === 0 ? 1 : 0;
  if (aZero !== bZero) return aZero - bZero;
  if (a.totalAmount !== b.totalAmount) return b.totalAmount - a.totalAmount;
  return a.serverlessId < b.serverlessId ? -1 : a.serverlessId > b.serverlessId ? 1 : 0;
}

// What the billing views need from one response, in columns: per-endpoint totals, each endpoint's buckets
// newest first, and the all-endpoint series oldest first, with every number in a Float64Array. Built where the
// response is parsed (the billing worker, see ./billingReader.ts) and sent to the extension host's thread by
// transfer, not by copy: a year of hourly billing is 175,000+ records, and a structured clone of them as
// objects would block that thread about as long as parsing them there did. No `vscode` import.
import { AMOUNT_KEYS, type AmountKey, type BillingAmounts, type BucketSize, type ListServerlessBillingResponse } from '../schemas';
import { aggregateBilling, type BillingAggregate } from './aggregate';

/** A bucket's or a total's five amounts: in a column, they sit in AMOUNT_KEYS order. */
export type TableAmounts = Pick<BillingAmounts, AmountKey>;
export const AMOUNTS_PER_ROW = AMOUNT_KEYS.length;

/** An endpoint's totals; its buckets are the rows bucketOffsets[i] .. bucketOffsets[i + 1]. */
export interface TableEndpoint extends TableAmounts {
  id: string;
}

export interface BillingTable {
  /** metadata.query as the service echoed it. */
  query: { startTime: string; endTime: string; bucketSize: BucketSize };
  /** metadata.totals (SPEC 4.1 rule 3), not our own sum. */
  totals: TableAmounts;
  /** Sorted by total, biggest first; zero-cost endpoints last; ties by id (aggregate.ts's order). */
  endpoints: TableEndpoint[];
  /** endpoints.length + 1 row offsets into the bucket columns. */
  bucketOffsets: Uint32Array;
  bucketStartMs: Float64Array;
  bucketEndMs: Float64Array;
  /** AMOUNTS_PER_ROW per bucket, in AMOUNT_KEYS order. */
  bucketAmounts: Float64Array;
  /** The all-endpoint series (a chart's x axis), oldest first. */
  seriesStartMs: Float64Array;
  seriesAmounts: Float64Array;
}

/** One pass of aggregateBilling, written into columns. */
export function buildBillingTable(response: ListServerlessBillingResponse, aggregate: BillingAggregate = aggregateBilling(response)): BillingTable {
  const rows = response.records.length;
  const bucketOffsets = new Uint32Array(aggregate.endpoints.length + 1);
  const bucketStartMs = new Float64Array(rows);
  const bucketEndMs = new Float64Array(rows);
  const bucketAmounts = new Float64Array(rows * AMOUNTS_PER_ROW);
  let row = 0;
  const endpoints = aggregate.endpoints.map((t, i): TableEndpoint => {
    bucketOffsets[i] = row;
    const records = aggregate.bucketsOf(t.serverlessId);
    const starts = aggregate.bucketStartsOf(t.serverlessId);
    for (let k = 0; k < records.length; k++) {
      const r = records[k]!;
      // Buckets are contiguous: newest first, a bucket ends where the one before it in the list starts, so
      // most end times are read off the start already parsed rather than parsed again.
      const newer = k > 0 ? records[k - 1]! : undefined;
      bucketStartMs[row] = starts[k]!;
      bucketEndMs[row] = newer !== undefined && newer.startTime === r.endTime ? starts[k - 1]! : Date.parse(r.endTime);
      writeAmounts(bucketAmounts, row, r);
      row++;
    }
    return { id: t.serverlessId, ...amountsOf(t) };
  });
  bucketOffsets[endpoints.length] = row;
  const series = aggregate.series();
  const seriesStartMs = new Float64Array(series.length);
  const seriesAmounts = new Float64Array(series.length * AMOUNTS_PER_ROW);
  series.forEach((p, i) => {
    seriesStartMs[i] = p.startMs;
    writeAmounts(seriesAmounts, i, p);
  });
  const q = response.metadata.query;
  return {
    query: { startTime: q.startTime, endTime: q.endTime, bucketSize: q.bucketSize },
    totals: amountsOf(response.metadata.totals),
    endpoints, bucketOffsets, bucketStartMs, bucketEndMs, bucketAmounts, seriesStartMs, seriesAmounts,
  };
}

/** The buffers to transfer (never copy) when the table crosses threads. */
export function tableBuffers(table: BillingTable): ArrayBuffer[] {
  return [table.bucketOffsets, table.bucketStartMs, table.bucketEndMs, table.bucketAmounts, table.seriesStartMs, table.seriesAmounts]
    .map((a) => a.buffer as ArrayBuffer);
}

/** An instant as the service writes it: ISO 8601 in UTC, without milliseconds when there are none. */
export function isoFromMs(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

function amountsOf(a: TableAmounts): TableAmounts {
  return { totalAmount: a.totalAmount, gpuAmount: a.gpuAmount, cpuAmount: a.cpuAmount, diskAmount: a.diskAmount, feeAmount: a.feeAmount };
}

function writeAmounts(column: Float64Array, row: number, a: TableAmounts): void {
  const at = row * AMOUNTS_PER_ROW;
  column[at] = a.totalAmount;
  column[at + 1] = a.gpuAmount;
  column[at + 2] = a.cpuAmount;
  column[at + 3] = a.diskAmount;
  column[at + 4] = a.feeAmount;
}

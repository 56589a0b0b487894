// Fixture builder for ListServerlessBillingResponse (SPEC 2.6): one record per endpoint per bucket, with
// metadata that agrees with the records, so tests say what they mean instead of pasting JSON.
//   aBillingResponse().withEndpoints(3).hourly(24).startingAt('2026-01-01T00:00:00Z').build()
import { addBuckets } from '../../../src/core/billing/buckets';
import type { BillingAmounts, BucketSize, ListServerlessBillingResponse, ServerlessBillingRecord } from '../../../src/core/schemas';

export type Amounts = Pick<BillingAmounts, 'gpuAmount' | 'cpuAmount' | 'diskAmount' | 'feeAmount'>;
/** Amounts of endpoint `endpoint` (0-based) in bucket `bucket` (0-based, oldest first). totalAmount is their sum. */
export type AmountsFn = (endpoint: number, bucket: number) => Amounts;

/** Deterministic, varied, non-zero amounts (a few cents), different per endpoint and per bucket. */
export const defaultAmounts: AmountsFn = (e, b) => ({
  gpuAmount: round(0.01 * (e + 1) + 0.0007 * ((b * 7 + e) % 24)),
  cpuAmount: round(0.002 * ((e % 3) + 1)),
  diskAmount: round(0.0003 * ((b % 5) + 1)),
  feeAmount: round(0.0001 * (e + 1)),
});

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** An instant as the service writes it: RFC 3339 UTC without milliseconds. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, 'Z');
}

export class BillingResponseBuilder {
  private ids: string[] = ['ep-1'];
  private size: BucketSize = 'day';
  private count = 1;
  private start = new Date('2026-01-01T00:00:00Z');
  private amounts: AmountsFn = defaultAmounts;
  private filter: string | null = null;
  private newestFirst = false;

  /** `n` endpoints named ep-01, ep-02, ... or the ids given. */
  withEndpoints(n: number | string[]): this {
    this.ids = typeof n === 'number' ? Array.from({ length: n }, (_, i) => `ep-${String(i + 1).padStart(2, '0')}`) : [...n];
    return this;
  }
  buckets(size: BucketSize, count: number): this {
    this.size = size;
    this.count = count;
    return this;
  }
  hourly(count: number): this { return this.buckets('hour', count); }
  daily(count: number): this { return this.buckets('day', count); }
  monthly(count: number): this { return this.buckets('month', count); }
  startingAt(iso: string): this {
    this.start = new Date(iso);
    return this;
  }
  withAmounts(fn: AmountsFn): this {
    this.amounts = fn;
    return this;
  }
  /** The serverlessId filter echoed in metadata.query (SPEC 2.4). */
  filteredTo(serverlessId: string): this {
    this.filter = serverlessId;
    return this;
  }
  /** Emit buckets newest first (the spec does not fix the order). */
  newestBucketsFirst(): this {
    this.newestFirst = true;
    return this;
  }

  build(): ListServerlessBillingResponse {
    const starts: string[] = [];
    let t = this.start;
    for (let b = 0; b <= this.count; b++) {
      starts.push(rfc3339(t));
      t = addBuckets(t, this.size, 1);
    }
    const records: ServerlessBillingRecord[] = [];
    const totals = { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0 };
    for (let k = 0; k < this.count; k++) {
      const b = this.newestFirst ? this.count - 1 - k : k;
      for (let e = 0; e < this.ids.length; e++) {
        const a = this.amounts(e, b);
        const totalAmount = round(a.gpuAmount + a.cpuAmount + a.diskAmount + a.feeAmount);
        records.push({ startTime: starts[b]!, endTime: starts[b + 1]!, serverlessId: this.ids[e]!, totalAmount, ...a });
        totals.totalAmount += totalAmount;
        totals.gpuAmount += a.gpuAmount;
        totals.cpuAmount += a.cpuAmount;
        totals.diskAmount += a.diskAmount;
        totals.feeAmount += a.feeAmount;
      }
    }
    return {
      records,
      metadata: {
        query: { startTime: starts[0]!, endTime: starts[this.count]!, bucketSize: this.size, serverlessId: this.filter },
        recordCount: records.length,
        uniqueServerlessCount: this.count > 0 ? this.ids.length : 0,
        totals,
      },
    };
  }
}

export function aBillingResponse(): BillingResponseBuilder {
  return new BillingResponseBuilder();
}

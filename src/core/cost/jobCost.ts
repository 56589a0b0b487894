// What one job cost (issue 23 "Cost per job", docs/batches.md "Cost"). Public endpoints say so themselves: their
// output carries `cost` (USD), which is shown as it is. Dedicated endpoints say nothing per job, so the cost is an
// ESTIMATE, always labelled as one with how it was made: the job's execution time times a price per second.
// The platform bills a worker "from when it starts until it fully stops, rounded up to the nearest second"
// (docs.runpod.io/serverless/pricing): the start (cold start) and the idle time after a job are billed too, but
// to the worker, not to a job, and the rounding is per worker life. So a job's estimate is its execution time,
// unrounded; cold starts and idle time are counted once per batch in its range (costRange.ts).
import { outputCost } from '../outputs/outputCost';
import type { Job } from '../schemas';
import { formatUsd } from '../billing/usd';

/** Where a price per second came from: shown in the estimate's tooltip. */
export interface PricePerSecond {
  usdPerSecond: number;
  /** e.g. "billing: $0.0123 over 28 s of ep1's jobs, 12:00-13:00 UTC" or "price table: RTX 4090 (ADA_24) $0.00031/s". */
  source: string;
  /** The GPU pool the price is of, and GPUs per worker, when it came from a pool's price (priceTable.ts). */
  pool?: string;
  gpus?: number;
}

export type JobCost =
  | { kind: 'reported'; usd: number; how: string }
  | { kind: 'estimate'; usd: number; how: string }
  | { kind: 'unknown'; how: string };

/** The `cost` a public endpoint's output reports (the single job's reader), when it is not negative. */
export function reportedCost(job: Pick<Job, 'output'>): number | undefined {
  const cost = outputCost(job.output);
  return cost !== undefined && cost >= 0 ? cost : undefined;
}

/**
 * The cost of a job that has ended: the output's own `cost` when present, else execution time x `price` (an
 * estimate), else unknown (no price, or no execution time).
 */
export function jobCost(job: Pick<Job, 'output' | 'executionTime'>, price: PricePerSecond | undefined): JobCost {
  const reported = reportedCost(job);
  if (reported !== undefined) return { kind: 'reported', usd: reported, how: 'reported by the endpoint in its output (`cost`)' };
  const ms = job.executionTime;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return { kind: 'unknown', how: 'the service gave no execution time' };
  if (!price) return { kind: 'unknown', how: 'no price per second is known for this endpoint' };
  const seconds = ms / 1000;
  return {
    kind: 'estimate',
    usd: seconds * price.usdPerSecond,
    how: `estimate: ${seconds.toFixed(2)} s of execution x ${formatUsd(price.usdPerSecond)}/s (${price.source}); the worker's start and idle time are billed to the worker, not counted here`,
  };
}

/**
 * A price per second from the billing route itself: what an endpoint was billed over a window divided by the
 * seconds its workers ran in it, which the billing route does not give: the caller knows them from jobs it ran
 * and timed (a finished batch's manifest), alone on the endpoint in that window. Undefined without seconds.
 */
export function priceFromBilling(billedUsd: number, billedSeconds: number, window: string): PricePerSecond | undefined {
  if (!(billedSeconds > 0) || !(billedUsd >= 0)) return undefined;
  return { usdPerSecond: billedUsd / billedSeconds, source: `billing: ${formatUsd(billedUsd)} over ${billedSeconds.toFixed(1)} s billed, ${window}` };
}

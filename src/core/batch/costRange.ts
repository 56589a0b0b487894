// What a batch will cost, before it is sent (issue 23 "Before sending"): a RANGE, never one number, because the
// durations it rests on vary. Per job: the endpoint's learned execution time (../jobs/durationModel.ts) minus and
// plus its spread, times the price per second; or, for public endpoints, the spread of the `cost` their earlier
// outputs reported. Per batch, the high end adds what the platform bills to workers rather than jobs: a cold
// start for each worker the batch may wake, and each worker's idle timeout after its last job (docs.runpod.io
// serverless pricing: "billed from when a worker starts until it fully stops, rounded up to the nearest second").
import type { DurationEstimate } from '../jobs/durationModel';
import type { PricePerSecond } from '../cost/jobCost';
import { formatUsd } from '../billing/usd';

export interface CostRangeInput {
  jobs: number;
  /** What is known of the endpoint's job durations; without it there is no range. */
  durations?: DurationEstimate;
  price?: PricePerSecond;
  /** Public endpoints: the `cost` of its recent jobs, as reported (USD). Used instead of durations x price. */
  reportedCosts?: readonly number[];
  /** Workers the batch may start (its concurrency, at most the endpoint's workers.max). */
  workers?: number;
  coldStartMs?: number;
  idleTimeoutMs?: number;
}

export interface CostRange {
  lowUsd: number;
  highUsd: number;
  /** How it was made, in words, for the confirmation and the tooltip. */
  how: string;
}

/** Undefined when nothing is known to base a range on (no durations or no price, no reported costs). */
export function estimateBatchCost(input: CostRangeInput): CostRange | undefined {
  const n = Math.max(0, input.jobs);
  const costs = input.reportedCosts?.filter((c) => Number.isFinite(c) && c >= 0) ?? [];
  if (costs.length > 0) {
    const low = Math.min(...costs);
    const high = Math.max(...costs);
    return { lowUsd: n * low, highUsd: n * high, how: `${n} jobs x ${formatUsd(low)} to ${formatUsd(high)}, the costs the endpoint reported for its last ${costs.length} jobs` };
  }
  const { durations, price } = input;
  if (!durations || !price) return undefined;
  const lowMs = Math.max(0, durations.executionMs - durations.executionSpreadMs);
  const highMs = durations.executionMs + durations.executionSpreadMs;
  const workers = Math.max(0, input.workers ?? 0);
  // Per worker life: its start, its idle timeout, and up to a second more, as each life is rounded up to the
  // second (checked against the emulator's bill: test/emulator/scaling-billing.test.ts).
  const overheadSeconds = workers > 0 ? workers * ((input.coldStartMs ?? 0) + (input.idleTimeoutMs ?? 0) + 1000) / 1000 : 0;
  const perSecond = price.usdPerSecond;
  const parts = [
    `${n} jobs x ${(lowMs / 1000).toFixed(1)} to ${(highMs / 1000).toFixed(1)} s (the endpoint's last ${durations.samples} jobs)`,
    `x ${formatUsd(perSecond)}/s (${price.source})`,
  ];
  if (overheadSeconds > 0) parts.push(`; the high end adds ${overheadSeconds.toFixed(0)} s of worker start, idle and round-up time for ${workers} workers`);
  return {
    lowUsd: (n * lowMs / 1000) * perSecond,
    highUsd: (n * highMs / 1000 + overheadSeconds) * perSecond,
    how: `estimate: ${parts.join(' ')}`,
  };
}

// What the editor knows of an endpoint before a batch is sent to it (issue 23 "Before sending"): how many jobs to
// keep in flight, the price per second a job's estimate uses, and the batch's estimated cost range. Reads the
// endpoint (GET /v2/serverless/{id}) and its health when it can; a public endpoint has neither, and its range
// comes from the costs its earlier jobs reported. No `vscode` import.
import { defaultConcurrency, estimateBatchCost, type CostRange } from '../core/batch';
import { endpointPrice, sharedEndpointPrices, type PricePerSecond } from '../core/cost';
import { durationKey, type JobDurationModel } from '../core/jobs';
import type { ServiceClient } from '../core/service';
import { formatUsd } from '../core/billing/usd';
import { scaleDownMsOf } from '../core/serverless/scaleDown';

export interface BatchPlanFacts {
  concurrency: number;
  price?: PricePerSecond;
  range?: CostRange;
}

export interface PlanningInput {
  client: ServiceClient;
  endpointId: string;
  jobs: number;
  /** The setting (0: chosen from the endpoint). */
  concurrencySetting: number;
  gpuPrices: Record<string, number>;
  durations: JobDurationModel;
  /** Costs reported by this endpoint's earlier jobs (history). */
  reportedCosts: readonly number[];
}

export async function planBatch(p: PlanningInput): Promise<BatchPlanFacts> {
  const endpoint = await p.client.getEndpoint(p.endpointId).catch(() => undefined);
  const health = await p.client.health(p.endpointId).catch(() => undefined);
  const concurrency = p.concurrencySetting > 0 ? p.concurrencySetting : defaultConcurrency(endpoint?.workers.max, health);
  // Kept for the single jobs' estimates too; the price is resolved as theirs is.
  if (endpoint) sharedEndpointPrices.remember(p.client.settings.billingBaseUrl, [endpoint]);
  const price = endpointPrice(endpoint, p.gpuPrices);
  const workersMax = endpoint?.workers.max;
  const durations = p.durations.estimate(durationKey(p.client.settings.jobsBaseUrl, p.endpointId));
  const range = estimateBatchCost({
    jobs: p.jobs,
    ...(durations ? { durations } : {}),
    ...(price ? { price } : {}),
    reportedCosts: p.reportedCosts,
    workers: Math.min(concurrency, workersMax ?? concurrency),
    // REQUEST_COUNT endpoints show no idle timeout (REST v2): their workers still stay the platform's 5 s.
    ...(endpoint ? { idleTimeoutMs: scaleDownMsOf(endpoint) } : {}),
  });
  return { concurrency, ...(price ? { price } : {}), ...(range ? { range } : {}) };
}

/**
 * "$0.12 to $0.31": the range as the confirmation says it. Without a range but with the price its rows will be
 * estimated with, the price is said: "unknown" only where no price is known either (issue 27 item 7).
 */
export function rangeText(range: CostRange | undefined, price?: PricePerSecond): string {
  if (!range && price) return `not known yet (no job of this endpoint has run here to learn how long one takes); each job is estimated at ${formatUsd(price.usdPerSecond)} per second it runs (${price.source})`;
  if (!range) return 'unknown (no earlier jobs of this endpoint to learn from, and no price for it)';
  return `${formatUsd(range.lowUsd)} to ${formatUsd(range.highUsd)} (estimate)`;
}

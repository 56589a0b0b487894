// What the emulated platform bills for the work of an endpoint's workers (issue 21, "billing that adds up";
// issue 29, "the platform's bill, exactly"): RunPod bills a serverless worker "from when a worker starts until
// it fully stops, rounded up to the nearest second" (docs "Pricing"): its start (the cold start), the time it
// executes requests and its idle timeout, each GPU at the pool's price (that price split into the route's four
// parts, billing/workerPrices.ts). The engine counts each worker's life
// (jobs/workerLives.ts) and hands every span of it here as it passes, so the billing route's buckets hold, per
// worker life, (start + execution + idle) rounded up to the second x the price. A span is split at whole hours:
// each hour's bucket holds exactly the worker time that fell in it.
import type { EndpointConfig } from '../config';
import type { UserUsage, Amounts } from './billingStore';
import { perWorkerSecond } from './workerPrices';

const HOUR_MS = 3_600_000;

/**
 * The price of `seconds` of one worker of the endpoint: its per-second prices, once per GPU (every part of a
 * catalog price, only the GPU part of prices a config writes; see WorkerPrices.allPerGpu).
 */
export function amountsOf(endpoint: EndpointConfig, seconds: number): Amounts {
  const p = endpoint.prices;
  const gpus = endpoint.gpuCount ?? 1;
  const rest = p.allPerGpu ? seconds * gpus : seconds;
  return { gpu: seconds * p.gpuPerSecond * gpus, cpu: rest * p.cpuPerSecond, disk: rest * p.diskPerSecond, fee: rest * p.feePerSecond };
}

/** A worker's total price per second (what a replay multiplies its seconds by). */
export function pricePerWorkerSecond(endpoint: EndpointConfig): number {
  return perWorkerSecond(endpoint.prices, endpoint.gpuCount ?? 1);
}

/** Bills the worker time from `fromMs` to `toMs`, into the hour buckets it falls in. */
export function billWorkerSpan(usage: UserUsage, endpoint: EndpointConfig, fromMs: number, toMs: number): void {
  for (let a = fromMs; a < toMs;) {
    const b = Math.min(toMs, (Math.floor(a / HOUR_MS) + 1) * HOUR_MS);
    usage.add(endpoint.id, a, amountsOf(endpoint, (b - a) / 1000));
    a = b;
  }
}

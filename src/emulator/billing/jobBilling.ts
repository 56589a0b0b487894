// What the emulated platform bills for the work of an endpoint's workers (issue 21, "billing that adds up"):
// RunPod bills a serverless worker "from when a worker starts until it fully stops" (docs "Pricing"): its start
// time (the cold start), the time it executes requests, and its idle timeout. The emulator bills the first two,
// each at the endpoint's per-second prices, into the owner's usage at the instant it ends, so the billing route's
// buckets hold exactly the sum of (cold start + execution seconds) x price. Idle time is not billed here (the
// emulator keeps no record of when an idle worker would have been stopped on the platform; see docs/emulator.md).
import type { EndpointConfig } from '../config';
import type { UserUsage, Amounts } from './billingStore';

/** The endpoint's per-second prices times `seconds`. */
export function amountsOf(endpoint: EndpointConfig, seconds: number): Amounts {
  const p = endpoint.prices;
  return { gpu: seconds * p.gpuPerSecond, cpu: seconds * p.cpuPerSecond, disk: seconds * p.diskPerSecond, fee: seconds * p.feePerSecond };
}

/** Bills `ms` of worker time (a job's execution, or a cold start) that ended at `endedAtMs`. */
export function billWorkerTime(usage: UserUsage, endpoint: EndpointConfig, endedAtMs: number, ms: number): void {
  if (ms > 0) usage.add(endpoint.id, endedAtMs, amountsOf(endpoint, ms / 1000));
}

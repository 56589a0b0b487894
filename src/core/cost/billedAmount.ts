// What the service billed an endpoint over a batch's time (issue 23: "after the batch, when billing for that
// window is available, show the billed amount beside the estimate"). The billing route buckets by whole UTC
// hours (SPEC 4.1), so the amount covers the hours the batch touched, and with them any other job the endpoint ran
// in those hours, and its workers' start and idle time: said in `note`, so a UI never presents it as the batch's
// alone. The platform's billing lags behind the jobs; an amount read too early is low, which the note says too.
import type { ServiceClient } from '../service';
import type { CallOptions } from '../http/connectionSettings';

export interface BilledAmount {
  usd: number;
  /** The hours it covers (RFC 3339, UTC). */
  startTime: string;
  endTime: string;
  note: string;
}

const HOUR_MS = 3_600_000;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** The endpoint's billed total (gpu + cpu + disk + fee) over the whole hours from `fromMs` to `toMs`. */
export async function billedAmount(client: ServiceClient, endpointId: string, fromMs: number, toMs: number, options: CallOptions = {}): Promise<BilledAmount> {
  const start = Math.floor(fromMs / HOUR_MS) * HOUR_MS;
  const end = Math.max(start + HOUR_MS, Math.ceil(toMs / HOUR_MS) * HOUR_MS);
  const startTime = iso(start);
  const endTime = iso(end);
  const { table } = await client.listBillingTable({ startTime, endTime, bucketSize: 'hour', serverlessId: endpointId }, options);
  return {
    usd: table.totals.totalAmount,
    startTime,
    endTime,
    note: `billed to ${endpointId} from ${startTime} to ${endTime} (whole hours: other jobs of the endpoint in them, and its workers' start and idle time, are included; billing may still be catching up on the last minutes)`,
  };
}

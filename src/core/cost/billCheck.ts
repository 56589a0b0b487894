// After a batch (issue 27 "Prices that match the bill"): the bill against the estimate the rows were given. When
// they differ by more than BILL_MISMATCH, the panel says so in words and why they can differ, and offers Tune
// Endpoint… to see where the money went.
//
// No price is ever offered from the bill (a decision, docs/batches.md "The price"): the billing route's buckets
// are whole hours of the whole endpoint, so they hold earlier batches in the same hour, other traffic, and each
// worker's start and idle time (issue 29: the emulator bills as the platform does). Bill / this batch's seconds
// gave $0.00787/s for a $0.00053/s pool, and one click wrote it into the user's settings, skewing every later
// estimate 6x. A price a user trusts goes into `serverlessGpu.batch.gpuPrices` by their own hand.
import { formatUsd } from '../billing/usd';

/** More than this apart (relative to the estimate), the bill and the estimate are said to differ. */
export const BILL_MISMATCH = 0.25;

export interface BillCheck {
  /** "Billed $0.0429, 69% more than this batch's estimate ($0.0254): …why…". */
  words: string;
}

export interface BillCheckContext {
  /** The endpoint, named in the words ("whole hours of flux-dev"). */
  endpointId: string;
  /** The batch was cancelled: its estimate counts only the time its jobs ran before the cancel. */
  cancelled?: boolean;
}

export function checkBill(billedUsd: number, estimateUsd: number, c: BillCheckContext): BillCheck | undefined {
  if (!(estimateUsd > 0) || !Number.isFinite(billedUsd)) return undefined;
  const ratio = billedUsd / estimateUsd;
  if (Math.abs(ratio - 1) <= BILL_MISMATCH) return undefined;
  const billed = formatUsd(billedUsd);
  const estimate = formatUsd(estimateUsd);
  if (ratio < 1) {
    return { words: `Billed ${billed}, less than this batch's estimate (${estimate}): the billing route may not have counted the last minutes of ${c.endpointId} yet.` };
  }
  const hours = `the bill counts whole hours of ${c.endpointId}, with its workers' start and idle time and any other jobs in those hours`;
  if (c.cancelled) {
    return { words: `Billed ${billed} over the hours of this cancelled batch; its estimate (${estimate}) counts only the seconds its jobs ran before the cancel, while ${hours}.` };
  }
  const pct = Math.round((ratio - 1) * 100);
  return { words: `Billed ${billed}, ${pct}% more than this batch's estimate (${estimate}): ${hours}, where the estimate counts only the seconds this batch's jobs ran.` };
}

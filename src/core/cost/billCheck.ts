// After a batch (issue 27 "Prices that match the bill"): the bill against the estimate the rows were given. When
// they differ by more than BILL_MISMATCH, the panel says so and offers the price per second the bill implies, for
// the GPU pool the estimate was priced by: the user's choice, written to their `batch.gpuPrices`. The bill covers
// whole hours (other jobs of the endpoint, workers' start and idle time), so the offer is a suggestion, never applied
// by itself.
import type { PricePerSecond } from './jobCost';

/** More than this apart (relative to the estimate), the bill and the estimate are said to differ. */
export const BILL_MISMATCH = 0.25;

export interface BillCheck {
  /** "Billed 69% more than the estimate ($0.0429 against $0.0254)." */
  words: string;
  /** The pool price the bill implies (USD per second per GPU), when the estimate came from a pool's price. */
  suggested?: { pool: string; usdPerSecond: number };
}

export function checkBill(billedUsd: number, estimateUsd: number, price: PricePerSecond | undefined): BillCheck | undefined {
  if (!(estimateUsd > 0) || !Number.isFinite(billedUsd)) return undefined;
  const ratio = billedUsd / estimateUsd;
  if (Math.abs(ratio - 1) <= BILL_MISMATCH) return undefined;
  const pct = Math.round(Math.abs(ratio - 1) * 100);
  const words = `Billed ${pct}% ${ratio > 1 ? 'more' : 'less'} than the estimate ($${billedUsd.toFixed(4)} against $${estimateUsd.toFixed(4)}).`;
  if (!price?.pool) return { words };
  const perGpu = (price.usdPerSecond / (price.gpus ?? 1)) * ratio;
  return { words, suggested: { pool: price.pool, usdPerSecond: Number(perGpu.toPrecision(3)) } };
}

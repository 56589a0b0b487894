// The batch's two brakes (issue 23 "Spend guard", issue 27): a spend limit, per batch and per hour, checked before
// each job is sent against what every attempt cost plus what the jobs in flight and this one will cost by their
// estimates; and a streak of failures (the runaway-retry case users report: a broken endpoint that fails every job
// in a second, billed each time). Either one pauses the batch with its reason; the user decides. Pure
// bookkeeping: the scheduler calls `beforeSend` and `noteEnd` and pauses on what they return.

import type { PricePerSecond } from '../cost/jobCost';
import type { BatchTally } from './batchTally';

export interface GuardLimits {
  /** USD for the whole batch; undefined: no limit. */
  maxUsd?: number;
  /** USD within any 60 minutes; undefined: no limit. */
  maxUsdPerHour?: number;
  /** Failed jobs in a row (in the order they ended) that pause the batch; undefined or 0: never. */
  failureStreak?: number;
}

export type GuardTrip =
  | { kind: 'spend'; message: string; spentUsd: number }
  | { kind: 'spendPerHour'; message: string; lastHourUsd: number }
  | { kind: 'failures'; message: string; errors: string[] };

const HOUR_MS = 3_600_000;

/**
 * What the next job of a batch will likely cost, for the spend guard's committed money: the mean of the batch's
 * priced jobs, else the price x the endpoint's learned execution time, else 0 (nothing known: the first jobs go,
 * and the limit holds from the first priced end on).
 */
export function nextJobUsd(t: Pick<BatchTally, 'priced' | 'pricedUsd'>, price: PricePerSecond | undefined, learned: { executionMs: number } | undefined): number {
  if (t.priced > 0) return Math.max(0, t.pricedUsd / t.priced);
  return price && learned ? (price.usdPerSecond * learned.executionMs) / 1000 : 0;
}

/** A limit as the user set it: cents, or the digits a limit under a cent needs ($0.00017, not "$0.00"). */
function limitText(limit: number): string {
  return limit >= 0.01 || limit === 0 ? `$${limit.toFixed(2)}` : `$${Number(limit.toPrecision(2))}`;
}

export class BatchGuards {
  /** Ended attempts within the last hour, and their sum kept as they enter and leave it (summing it at every
   *  job's end was quadratic: a 10,000-job batch spent ~0.6 s of the extension host in it). */
  private readonly recent: Array<{ at: number; usd: number }> = [];
  private recentUsd = 0;
  private streak: string[] = [];

  constructor(private limits: GuardLimits) {}

  /** New limits (Retry Failed starts from the batch's own); the streak starts again. */
  setLimits(limits: GuardLimits): void {
    this.limits = limits;
    this.streak = [];
  }

  /**
   * The user resumed the batch, with new limits or the same: the streak starts again either way. They saw the
   * failures and chose to go on, so it takes N more in a row to pause again, not the next single one.
   */
  resumed(limits?: GuardLimits): void {
    this.setLimits(limits ?? this.limits);
  }

  /** Counts what an attempt cost before this batch run (a resumed batch's ended jobs) in the hour, tripping nothing. */
  addPrior(usd: number, at: number): void {
    this.addToHour(usd, at);
  }

  /** The cost of the ended attempts within the hour before `at`. */
  lastHourUsd(at: number): number {
    let drop = 0;
    while (drop < this.recent.length && this.recent[drop]!.at <= at - HOUR_MS) this.recentUsd -= this.recent[drop++]!.usd;
    // One splice for all that left the hour (shift() one at a time moves the whole array each time).
    if (drop > 0) this.recent.splice(0, drop);
    // Never below 0 from float rounding as amounts leave.
    return Math.max(0, this.recentUsd);
  }

  /**
   * An attempt ended: its cost (0 when unknown) goes into the hour, and whether it failed into the streak. Returns
   * the streak's trip; money never trips here: it is checked before each job is sent (`beforeSend`).
   */
  noteEnd(at: number, usd: number, failed: boolean, error: string | undefined): GuardTrip | undefined {
    this.addToHour(usd, at);
    this.streak = failed ? [...this.streak, error ?? 'no error message'] : [];
    const { failureStreak } = this.limits;
    if (failureStreak && this.streak.length >= failureStreak) {
      const errors = [...new Set(this.streak)].slice(0, 3);
      return { kind: 'failures', errors, message: `${this.streak.length} jobs failed in a row: ${errors.join('; ')}` };
    }
    return undefined;
  }

  /**
   * Before a job is sent (docs/batches.md "Spend limit"): `spentUsd` is what every ended attempt of the batch cost
   * (the tally's), `committedUsd` what the jobs on the service and this one will cost by their estimates. The job
   * is not sent when the sum would pass a limit: so the batch passes it only by what jobs already sent cost above
   * their estimates. The words name the limit, not an amount: the amount is the tally's, said where it is shown.
   */
  beforeSend(at: number, spentUsd: number, committedUsd: number): GuardTrip | undefined {
    const { maxUsd, maxUsdPerHour } = this.limits;
    if (maxUsd !== undefined && spentUsd + committedUsd > maxUsd) {
      return { kind: 'spend', spentUsd, message: `the next job would take the batch past its spend limit of ${limitText(maxUsd)}.` };
    }
    const hour = this.lastHourUsd(at);
    if (maxUsdPerHour !== undefined && hour + committedUsd > maxUsdPerHour) {
      return { kind: 'spendPerHour', lastHourUsd: hour, message: `the next job would take the batch past its limit of ${limitText(maxUsdPerHour)} per hour.` };
    }
    return undefined;
  }

  private addToHour(usd: number, at: number): void {
    if (usd === 0) return;
    this.recent.push({ at, usd });
    this.recentUsd += usd;
  }
}

// The batch's two brakes (issue 23 "Spend guard"): a spend limit, per batch and per hour, on the running cost
// (each ended job's reported cost or estimate), and a streak of failures (the runaway-retry case users report:
// a broken endpoint that fails every job in a second, billed each time). Either one pauses the batch with its
// reason; the user decides. Pure bookkeeping: the scheduler calls `noteEnd` and pauses on what it returns.
import { formatUsd } from '../billing/usd';

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

/** A limit as the user set it: cents, or the digits a limit under a cent needs ($0.00017, not "$0.00"). */
function limitText(limit: number): string {
  return limit >= 0.01 || limit === 0 ? `$${limit.toFixed(2)}` : `$${Number(limit.toPrecision(2))}`;
}

export class BatchGuards {
  private spent = 0;
  private readonly recent: Array<{ at: number; usd: number }> = [];
  /** The sum of `recent`, kept as jobs enter and leave the hour: summing it at every job's end was quadratic
   *  (a 10,000-job batch spent ~0.6 s of the extension host in it). */
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

  get spentUsd(): number {
    return this.spent;
  }

  /** Counts what a job cost before this batch run (a resumed batch's ended jobs), without tripping anything. */
  addPrior(usd: number, at: number): void {
    this.spent += usd;
    this.recent.push({ at, usd });
    this.recentUsd += usd;
  }

  /** A job ended: its cost (0 when unknown) and whether it failed (with its error). */
  noteEnd(at: number, usd: number, failed: boolean, error: string | undefined): GuardTrip | undefined {
    this.spent += usd;
    this.recent.push({ at, usd });
    this.recentUsd += usd;
    let drop = 0;
    while (drop < this.recent.length && this.recent[drop]!.at <= at - HOUR_MS) this.recentUsd -= this.recent[drop++]!.usd;
    // One splice for all that left the hour (shift() one at a time moves the whole array each time).
    if (drop > 0) this.recent.splice(0, drop);
    this.streak = failed ? [...this.streak, error ?? 'no error message'] : [];
    const { maxUsd, maxUsdPerHour, failureStreak } = this.limits;
    if (failureStreak && this.streak.length >= failureStreak) {
      const errors = [...new Set(this.streak)].slice(0, 3);
      return { kind: 'failures', errors, message: `${this.streak.length} jobs failed in a row: ${errors.join('; ')}` };
    }
    if (maxUsd !== undefined && this.spent >= maxUsd) {
      return { kind: 'spend', spentUsd: this.spent, message: `The batch has cost about ${formatUsd(this.spent)}, over its limit of ${limitText(maxUsd)}.` };
    }
    // Never below 0 from float rounding as amounts leave.
    const hour = Math.max(0, this.recentUsd);
    if (maxUsdPerHour !== undefined && hour >= maxUsdPerHour) {
      return { kind: 'spendPerHour', lastHourUsd: hour, message: `The batch has cost about ${formatUsd(hour)} in the last hour, over the limit of ${limitText(maxUsdPerHour)} per hour.` };
    }
    return undefined;
  }
}

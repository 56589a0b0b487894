// A batch's counts and spend (issues 23 and 27), kept row by row by BatchRows as rows change, in step with its map
// of rows: the one place the panel's header, the progress notification, a guard's question, the CSV's total line
// and the manifest's reader get their numbers from (counting 10,000 rows several times a second cost a batch that
// size ~1.5 s of the extension host). Every row is in exactly one of completed, failed, cancelled, skipped, unknown,
// running and not sent, so the parts add up to the total; a job's cost is the sum of its attempts. A job a cancel
// stopped before it was sent is `skipped`, "not sent (batch cancelled)", never counted as cancelled: the header
// said "10 cancelled" beside two rows that read otherwise.
import type { JobRow } from './manifestFormat';
import { rowCost, rowUsd } from './rowCost';

const FAILED = new Set(['FAILED', 'TIMED_OUT', 'REJECTED']);

export interface BatchTally {
  total: number;
  /** Nothing more will happen to it unless the user acts: completed + failed + cancelled + unknown. */
  done: number;
  completed: number;
  /** Ended FAILED, TIMED_OUT or REJECTED (stays so until retried). */
  failed: number;
  /** Ended CANCELLED on the service. */
  cancelled: number;
  /** Never sent: the batch was cancelled first. */
  skipped: number;
  /** Its /run answer was lost, or the service forgot it: the batch cannot tell its end. */
  unknown: number;
  /** Sent (or being sent) and not ended. */
  running: number;
  notSent: number;
  /** Rows in the phase `ended` (whatever their status). */
  ended: number;
  /** Every attempt of every job (USD; unknown costs count 0). */
  usd: number;
  /** Rows whose cost is an estimate: the spend is one while any is. */
  estimated: number;
  /** Rows whose last attempt has a known cost, and their sum: the mean is the next job's estimate. */
  priced: number;
  pricedUsd: number;
}

export function emptyTally(): BatchTally {
  return { total: 0, done: 0, completed: 0, failed: 0, cancelled: 0, skipped: 0, unknown: 0, running: 0, notSent: 0, ended: 0, usd: 0, estimated: 0, priced: 0, pricedUsd: 0 };
}

/** Adds one row's part to `t` (sign 1) or takes it away (-1). */
export function countRow(t: BatchTally, r: JobRow, sign: 1 | -1): void {
  t.total += sign;
  if (r.phase === 'ended') {
    t.ended += sign;
    t.done += sign;
    if (FAILED.has(r.status ?? '')) t.failed += sign;
    else if (r.status === 'CANCELLED') t.cancelled += sign;
    else t.completed += sign;
  } else if (r.phase === 'active' || r.phase === 'submitting') t.running += sign;
  else if (r.phase === 'pending') t.notSent += sign;
  else if (r.phase === 'skipped') {
    t.skipped += sign;
    t.done += sign;
  } else {
    t.unknown += sign;
    t.done += sign;
  }
  const usd = rowUsd(r);
  if (usd !== 0) t.usd += sign * usd;
  if (rowCost(r)?.kind === 'estimate') t.estimated += sign;
  if (r.cost?.usd !== undefined) {
    t.priced += sign;
    t.pricedUsd += sign * r.cost.usd;
  }
}

/** The tally of `rows`, counted from scratch. */
export function tally(rows: Iterable<JobRow>): BatchTally {
  const t = emptyTally();
  for (const r of rows) countRow(t, r, 1);
  return t;
}

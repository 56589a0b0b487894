// A batch's counts and spend (issue 23), kept row by row by BatchRows as rows change, in step with its map of
// rows, so the panel's header and the progress notification read them without counting every row: counting
// 10,000 rows several times a second cost a batch that size ~1.5 s of the extension host.
import type { JobRow } from './manifestFormat';

const FAILED = new Set(['FAILED', 'TIMED_OUT', 'REJECTED']);

export interface BatchTally {
  total: number;
  ended: number;
  running: number;
  notSent: number;
  failed: number;
  cancelled: number;
  unknown: number;
  usd: number;
  /** Rows whose cost is an estimate: the spend is one while any is. */
  estimated: number;
}

export function emptyTally(): BatchTally {
  return { total: 0, ended: 0, running: 0, notSent: 0, failed: 0, cancelled: 0, unknown: 0, usd: 0, estimated: 0 };
}

/** Adds one row's part to `t` (sign 1) or takes it away (-1). */
export function countRow(t: BatchTally, r: JobRow, sign: 1 | -1): void {
  t.total += sign;
  if (r.phase === 'ended') t.ended += sign;
  else if (r.phase === 'active' || r.phase === 'submitting') t.running += sign;
  else if (r.phase === 'pending') t.notSent += sign;
  else if (r.phase === 'skipped') t.cancelled += sign;
  else t.unknown += sign;
  if (r.phase === 'ended' && FAILED.has(r.status ?? '')) t.failed += sign;
  if (r.phase === 'ended' && r.status === 'CANCELLED') t.cancelled += sign;
  if (r.cost?.usd !== undefined) {
    t.usd += sign * r.cost.usd;
    if (r.cost.kind === 'estimate') t.estimated += sign;
  }
}

/** The tally of `rows`, counted from scratch. */
export function tally(rows: Iterable<JobRow>): BatchTally {
  const t = emptyTally();
  for (const r of rows) countRow(t, r, 1);
  return t;
}

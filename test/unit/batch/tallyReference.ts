// The tests' reference for a batch's tally: counted from scratch over every row, to check the one BatchRows keeps
// row by row as rows change (src/core/batch/batchTally.ts). Only tests count a whole batch: the extension never
// does (it cost a 10,000-job batch ~1.5 s of the extension host), so this lives here, not in src/.
import { countRow, emptyTally, type BatchTally } from '../../../src/core/batch/batchTally';
import type { JobRow } from '../../../src/core/batch/manifestFormat';

export function tally(rows: Iterable<JobRow>): BatchTally {
  const t = emptyTally();
  for (const r of rows) countRow(t, r, 1);
  return t;
}

// A batch's rows as it starts (docs/batches.md "Resume"): a new batch writes a pending row per input; a resumed
// one takes the manifest's last row of each input as it was, counts what those jobs cost (for the spend guard),
// follows the sent ones by id and sends the rest, and marks a row whose /run was on its way when the batch
// stopped as `unknown`: that job may exist, so it is never resent by itself.
import type { BatchItem } from './batchInputs';
import type { BatchRows } from './batchRows';
import type { BatchGuards } from './guards';
import type { ManifestState } from './manifestFile';

/** One piece of a slot's work: send an input, follow a sent job, or retry a failed one. */
export type Work = { index: number; action: 'submit' | 'follow' | 'retry' };

/** The rows of `items` set in `rows` (and their manifest lines written); returns the work they start with. */
export async function startRows(rows: BatchRows, guards: BatchGuards, items: readonly BatchItem[], prior: ManifestState | undefined, now: () => number): Promise<Work[]> {
  const work: Work[] = [];
  for (const item of items) {
    const old = prior?.rows.get(item.index);
    if (!old) {
      rows.adopt({ type: 'job', index: item.index, ref: { ...item.ref }, digest: item.digest, phase: 'pending', at: now() });
      await rows.update(item.index, {});
      work.push({ index: item.index, action: 'submit' });
      continue;
    }
    rows.adopt(old);
    if (old.cost?.usd !== undefined) guards.addPrior(old.cost.usd, old.endedAt ?? old.at);
    if (old.phase === 'pending') work.push({ index: item.index, action: 'submit' });
    else if (old.phase === 'active') work.push({ index: item.index, action: 'follow' });
    else if (old.phase === 'submitting') {
      await rows.update(item.index, { phase: 'unknown', error: 'The batch stopped while this job\'s /run was on its way; it may have been created. It is not resent unless you choose to.' });
    }
  }
  return work;
}

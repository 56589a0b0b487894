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

/**
 * Lines asked for before one is awaited: they go to the manifest in one append (ManifestWriter joins the lines asked
 * for while the previous append is under way). Awaiting each line made a 10,000-job batch start with 10,000 appends
 * in a row, each a trip to libuv's file threads and back, on the shared host, before its first /run (issue 30).
 * Not all at once: the rows' listeners are told as a line is written, so this many are told in one turn.
 */
export const START_LINES_AT_ONCE = 250;

/** The rows of `items` set in `rows` (and their manifest lines written); returns the work they start with. */
export async function startRows(rows: BatchRows, guards: BatchGuards, items: readonly BatchItem[], prior: ManifestState | undefined, now: () => number): Promise<Work[]> {
  const work: Work[] = [];
  // Not awaited one by one: asked for in a row with no await between them, they join one append.
  let written: Promise<unknown>[] = [];
  /** Adds a line; when START_LINES_AT_ONCE are waiting, their promise (await it: `await undefined` would yield too). */
  const write = (line: Promise<unknown>): Promise<unknown> | undefined => {
    line.catch(() => undefined); // its failure is seen by the Promise.all below, not reported unhandled before it
    written.push(line);
    if (written.length < START_LINES_AT_ONCE) return undefined;
    const lines = written;
    written = [];
    return Promise.all(lines);
  };
  for (const item of items) {
    const old = prior?.rows.get(item.index);
    if (!old) {
      rows.adopt({ type: 'job', index: item.index, ref: { ...item.ref }, digest: item.digest, phase: 'pending', at: now() });
      work.push({ index: item.index, action: 'submit' });
      const full = write(rows.update(item.index, {}));
      if (full) await full;
      continue;
    }
    rows.adopt(old);
    if (old.cost?.usd !== undefined) guards.addPrior(old.cost.usd, old.endedAt ?? old.at);
    if (old.phase === 'pending') work.push({ index: item.index, action: 'submit' });
    else if (old.phase === 'active') work.push({ index: item.index, action: 'follow' });
    else if (old.phase === 'submitting') {
      const full = write(rows.update(item.index, { phase: 'unknown', error: 'The batch stopped while this job\'s /run was on its way; it may have been created. It is not resent unless you choose to.' }));
      if (full) await full;
    }
  }
  await Promise.all(written);
  return work;
}

// The cost line's words, one formatter for every view (issue 23: "single jobs get the same cost line in their
// panel and history"): the Batch panel's row, the job panel's Cost row and the Jobs view say a cost the same way.
// An estimate always says so ("est."); an unknown cost is blank, never "$0"; the tooltip says how it was made.
// Plain functions on plain data: bundled into the webviews too.
import * as z from 'zod/mini';
import type { JobCost } from './jobCost';
import { formatUsd } from '../billing/usd';

/**
 * A job's cost as it is kept (a batch's manifest line, a single job's record and job.json) and sent to a panel:
 * `usd` is absent when the cost is unknown. Read leniently: it comes back from files.
 */
export const SavedCost = z.looseObject({
  kind: z.enum(['reported', 'estimate', 'unknown']),
  usd: z.optional(z.number()),
  how: z.string(),
});
export type SavedCost = z.infer<typeof SavedCost>;

/** The kept form of a cost worked out by `jobCost`. */
export function savedCost(cost: JobCost): SavedCost {
  return cost.kind === 'unknown' ? { kind: 'unknown', how: cost.how } : { kind: cost.kind, usd: cost.usd, how: cost.how };
}

/** "$0.000218 est." for an estimate, "$0.0300" for a reported cost, "" when unknown (never "$0"). */
export function costText(cost: Pick<SavedCost, 'kind' | 'usd'> | undefined): string {
  if (!cost || cost.kind === 'unknown' || cost.usd === undefined) return '';
  const usd = formatUsd(cost.usd);
  return cost.kind === 'estimate' ? `${usd} est.` : usd;
}

/** The tooltip: how the cost was made ("estimate: 4.00 s of execution x …", "Reported by the endpoint: …"). */
export function costTooltip(cost: Pick<SavedCost, 'kind' | 'how'> | undefined): string {
  if (!cost) return '';
  return cost.kind === 'reported' ? `Reported by the endpoint: ${cost.how}` : cost.how;
}

/**
 * The cost a single job's views show: the kept one, or for a job recorded before costs were kept, the bare
 * `cost` its output reported.
 */
export function shownCost(kept: SavedCost | undefined, reportedUsd: number | undefined): SavedCost | undefined {
  if (kept) return kept;
  return reportedUsd !== undefined ? { kind: 'reported', usd: reportedUsd, how: 'reported by the endpoint in its output (`cost`)' } : undefined;
}

// What a batch job cost (issue 27 item 3): the sum of its attempts. A Retry Failed runs the job again, and the
// service bills every attempt, so the row keeps what the earlier attempts cost (`earlierAttemptsUsd`) beside the
// last attempt's own cost. The tally, the panel's row, the CSV and the spend guard all read it from here.
import type { SavedCost } from '../cost/costText';
import { formatUsd } from '../billing/usd';
import type { JobRow } from './manifestFormat';

/** The row's cost over all its attempts, as a cost line shows it; undefined when nothing is known of any attempt. */
export function rowCost(row: Pick<JobRow, 'cost' | 'earlierAttemptsUsd' | 'retries'>): SavedCost | undefined {
  const earlier = row.earlierAttemptsUsd ?? 0;
  if (earlier === 0) return row.cost;
  const last = row.cost?.usd;
  const usd = earlier + (last ?? 0);
  const attempts = (row.retries ?? 0) + 1;
  const lastWords = last === undefined ? 'the last one not known yet' : `the last ${formatUsd(last)}`;
  return {
    // The earlier attempts' part is an estimate unless every part was reported: say "est." unless sure.
    kind: row.cost?.kind === 'reported' ? 'reported' : 'estimate',
    usd,
    how: `${attempts} attempts, each billed: the earlier ones ${formatUsd(earlier)}, ${lastWords}${row.cost?.how ? ` (${row.cost.how})` : ''}`,
  };
}

/** The row's cost in USD over all its attempts (0 when unknown): what the spend guard counts. */
export function rowUsd(row: Pick<JobRow, 'cost' | 'earlierAttemptsUsd'>): number {
  return (row.earlierAttemptsUsd ?? 0) + (row.cost?.usd ?? 0);
}

/** The change that starts a new attempt of `row`: the last attempt's cost moves into the earlier ones. */
export function newAttempt(row: Pick<JobRow, 'cost' | 'earlierAttemptsUsd'>): Pick<JobRow, 'earlierAttemptsUsd' | 'cost'> {
  const earlier = rowUsd(row);
  return { earlierAttemptsUsd: earlier > 0 ? earlier : undefined, cost: undefined };
}

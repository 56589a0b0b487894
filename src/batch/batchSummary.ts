// The batch in one line of words, for the panel's header and the progress notification: how many jobs are done,
// running, not sent, failed; what the batch has cost so far (labelled as an estimate when any part of it is one).
import type { BatchTally } from '../core/batch';
import { formatUsd } from '../core/billing/usd';
import type { BilledAmount } from '../core/cost';
import type { BatchSummary } from './batchProtocol';

/** What the summary reads of a batch (a BatchSession; named here so this file needs no import of it). */
export interface SummarySource {
  o: { title: string };
  endpointId: string;
  notice: string | undefined;
  billed: BilledAmount | undefined;
  runner: { paused: unknown };
  running: boolean;
  tally(): Readonly<BatchTally>;
}

export function countsText(t: Readonly<BatchTally>): string {
  const parts = [`${t.ended} of ${t.total} ended`];
  if (t.running) parts.push(`${t.running} running`);
  if (t.notSent) parts.push(`${t.notSent} not sent`);
  if (t.failed) parts.push(`${t.failed} failed`);
  if (t.cancelled) parts.push(`${t.cancelled} cancelled`);
  if (t.unknown) parts.push(`${t.unknown} unknown or lost`);
  return parts.join(' · ');
}

export function spentText(t: Readonly<BatchTally>): string {
  // max(0): float rounding as costs are taken away must never show "-0.0000".
  return `Cost so far: ${formatUsd(Math.max(0, t.usd))}${t.estimated > 0 ? ' (estimate)' : ''}`;
}

export function summaryOf(session: SummarySource): BatchSummary {
  const t = session.tally();
  const notice = session.notice;
  return {
    title: `${session.o.title} on ${session.endpointId}`,
    total: t.total,
    counts: countsText(t),
    spent: spentText(t),
    ...(notice ? { notice } : {}),
    ...(session.billed ? { billed: `Billed: ${formatUsd(session.billed.usd)}`, billedHow: session.billed.note } : {}),
    paused: session.runner.paused !== undefined,
    running: session.running,
    hasFailed: t.failed > 0,
  };
}

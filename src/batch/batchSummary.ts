// The batch in one line of words, for the panel's header, the progress notification and a guard's question, from
// one reading of the batch (BatchSession.snapshot): how many jobs are done, running, not sent, failed; what the
// batch has cost so far over every attempt (labelled as an estimate when any part of it is one).
import type { BatchStateKind, BatchTally } from '../core/batch';
import type { BillCheck, BilledAmount } from '../core/cost';
import { formatUsd } from '../core/billing/usd';
import type { BatchSummary } from './batchProtocol';

/**
 * One reading of the batch, made once per beat, that every view of that beat shows (issue 27 item 6): the panel's
 * header, the progress notification and a guard's question read the same numbers, never two countings a moment
 * apart. What may be clicked comes from the batch's life (core batchLife.ts), not from flags of the views.
 */
export interface BatchSnapshot {
  tally: Readonly<BatchTally>;
  state: BatchStateKind;
  /** Why the batch waits, is paused, or that it was cancelled; undefined while it just runs or once it finished. */
  notice: string | undefined;
  canPause: boolean;
  canResume: boolean;
  canCancel: boolean;
  canRetryFailed: boolean;
  /** Jobs are still to be sent or followed, or wait for a resume. */
  active: boolean;
}

/** What the summary reads of a batch (a BatchSession; named here so this file needs no import of it). */
export interface SummarySource {
  o: { title: string };
  endpointId: string;
  billed: BilledAmount | undefined;
  billCheck?: BillCheck | undefined;
  snapshot: BatchSnapshot;
}

/**
 * "12 of 40 done · 9 completed · 3 cancelled · 28 running": every job is in exactly one part, so the parts add up
 * to the total (issue 27 item 6: a cancelled job was counted as ended and as cancelled).
 */
export function countsText(t: Readonly<BatchTally>): string {
  const parts = [`${t.done} of ${t.total} done`];
  if (t.completed) parts.push(`${t.completed} completed`);
  if (t.failed) parts.push(`${t.failed} failed`);
  if (t.cancelled) parts.push(`${t.cancelled} cancelled`);
  if (t.skipped) parts.push(`${t.skipped} not sent (batch cancelled)`);
  if (t.unknown) parts.push(`${t.unknown} unknown or lost`);
  if (t.running) parts.push(`${t.running} running`);
  if (t.notSent) parts.push(`${t.notSent} not sent`);
  return parts.join(' · ');
}

/**
 * "Cost so far: $0.0170 (estimate)" while jobs are sent or followed, "Cost: $0.0170 (estimate)" once the batch has
 * ended: every attempt of every job, the one amount every view says.
 */
export function spentText(t: Readonly<BatchTally>, ended = false): string {
  // max(0): float rounding as costs are taken away must never show "-0.0000".
  return `${ended ? 'Cost' : 'Cost so far'}: ${formatUsd(Math.max(0, t.usd))}${t.estimated > 0 ? ' (estimate)' : ''}`;
}

/** Nothing is left to send or follow, and nothing waits for a resume: the batch's cost is final (until a retry). */
function ended(s: BatchSnapshot): boolean {
  return !s.active && (s.state === 'finished' || s.state === 'cancelled');
}

/** The notification's line: the same counts, amount and notice as the header of the same beat. */
export function progressText(s: BatchSnapshot): string {
  return `${countsText(s.tally)} · ${spentText(s.tally, ended(s))}${s.notice ? ` · ${s.notice}` : ''}`;
}

/**
 * The notification when a batch has ended: "Batch pix on flux: 6 of 6 done · 2 cancelled · 4 not sent (batch
 * cancelled). Cost: $0.0012. Cancelled." Its state's words end as a sentence (a bare "Cancelled" trailed the cost).
 */
export function endText(title: string, endpointId: string, t: Readonly<BatchTally>, notice: string | undefined): string {
  const words = notice && !/[.!?…]$/.test(notice) ? `${notice}.` : notice;
  return `Batch ${title} on ${endpointId}: ${countsText(t)}. ${spentText(t, true)}.${words ? ` ${words}` : ''}`;
}

/** Retry Failed's tooltip: what it will run, or why it is off (a cancel's dialog used to promise what it then refused). */
export function retryTitle(s: BatchSnapshot): string {
  const t = s.tally;
  if (s.canRetryFailed) return `Run the ${t.failed === 1 ? 'failed job' : `${t.failed} failed jobs`} again (after a cancel too)`;
  if (t.failed === 0) {
    const stopped = t.cancelled + t.skipped;
    return `No failed jobs to retry${stopped ? `: Retry Failed runs failed jobs only, not the ${stopped} stopped by Cancel Batch` : ''}`;
  }
  return 'Retry Failed runs once the batch has finished or was cancelled';
}

export function summaryOf(session: SummarySource): BatchSummary {
  const s = session.snapshot;
  const t = s.tally;
  return {
    title: `${session.o.title} on ${session.endpointId}`,
    total: t.total,
    counts: countsText(t),
    spent: spentText(t, ended(s)),
    ...(s.notice ? { notice: s.notice } : {}),
    ...(session.billed ? { billed: `Billed: ${formatUsd(session.billed.usd)}`, billedHow: session.billed.note } : {}),
    ...(session.billCheck ? { billCheck: session.billCheck.words } : {}),
    state: s.state,
    paused: s.state === 'paused',
    running: s.active,
    canPause: s.canPause,
    canResume: s.canResume,
    canCancel: s.canCancel,
    canRetryFailed: s.canRetryFailed,
    retryTitle: retryTitle(s),
  };
}

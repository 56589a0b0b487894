// The batch in one line of words, for the panel's header and the progress notification: how many jobs are done,
// running, not sent, failed; what the batch has cost so far (labelled as an estimate when any part of it is one).
import type { BatchSummary } from './batchProtocol';
import type { BatchSession } from './batchSession';

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
  estimated: boolean;
}

export function tally(session: Pick<BatchSession, 'rows'>): BatchTally {
  const t: BatchTally = { total: 0, ended: 0, running: 0, notSent: 0, failed: 0, cancelled: 0, unknown: 0, usd: 0, estimated: false };
  for (const r of session.rows()) {
    t.total++;
    if (r.phase === 'ended') t.ended++;
    else if (r.phase === 'active' || r.phase === 'submitting') t.running++;
    else if (r.phase === 'pending') t.notSent++;
    else if (r.phase === 'skipped') t.cancelled++;
    else t.unknown++;
    if (r.phase === 'ended' && FAILED.has(r.status ?? '')) t.failed++;
    if (r.phase === 'ended' && r.status === 'CANCELLED') t.cancelled++;
    if (r.cost?.usd !== undefined) {
      t.usd += r.cost.usd;
      if (r.cost.kind === 'estimate') t.estimated = true;
    }
  }
  return t;
}

export function countsText(t: BatchTally): string {
  const parts = [`${t.ended} of ${t.total} ended`];
  if (t.running) parts.push(`${t.running} running`);
  if (t.notSent) parts.push(`${t.notSent} not sent`);
  if (t.failed) parts.push(`${t.failed} failed`);
  if (t.cancelled) parts.push(`${t.cancelled} cancelled`);
  if (t.unknown) parts.push(`${t.unknown} unknown or lost`);
  return parts.join(' · ');
}

export function spentText(t: BatchTally): string {
  return `Cost so far: $${t.usd.toFixed(4)}${t.estimated ? ' (estimate)' : ''}`;
}

export function summaryOf(session: BatchSession): BatchSummary {
  const t = tally(session);
  const notice = session.notice;
  return {
    title: `${session.o.title} on ${session.endpointId}`,
    total: t.total,
    counts: countsText(t),
    spent: spentText(t),
    ...(notice ? { notice } : {}),
    ...(session.billed ? { billed: `Billed: $${session.billed.usd.toFixed(4)}`, billedHow: session.billed.note } : {}),
    paused: session.runner.paused !== undefined,
    running: session.running,
    hasFailed: t.failed > 0,
  };
}

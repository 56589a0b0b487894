// A batch job's row as the Batch panel shows it (batchProtocol.ts BatchRowView), from its manifest row: a view of
// the job's life (issue 22, src/core/jobs/jobLife.ts: the same status words as its own panel, "In queue",
// "Completed", "Failed · attempt 2"), the service's delay and execution times in the job life's one duration
// format, the cost with how it was made. The batch's own phases (not sent, skipped, unknown, lost) have no job
// life yet and are said plainly. Plain data, no `vscode` import.
import { rowCost, type JobRow } from '../core/batch';
import { costText, costTooltip } from '../core/cost';
import { describeJob, LocalStatus } from '../core/jobs/jobLife';
import { formatDuration } from '../core/jobs/durationText';
import type { BatchRowView, RowGroup } from './batchProtocol';

/** The job life's status line of a sent job of the batch, and whether the job still moves (its "so far" ticks). */
function describeRow(row: JobRow, status: string): { text: string; live: boolean } {
  const d = describeJob({
    status,
    submittedAt: row.submittedAt ?? row.at,
    finishedAt: row.endedAt,
    delayTime: row.delayTime,
    executionTime: row.executionTime,
    attempt: (row.retries ?? 0) + 1,
  });
  return { text: d.statusText, live: d.live };
}

/**
 * The row's status in words (the batch's phase where the service has no status for it: not sent, unknown...),
 * its filter group, and whether the job still moves (sent, in queue, in progress: its "so far" ticks).
 */
export function rowStatus(row: JobRow): { text: string; group: RowGroup; live: boolean } {
  switch (row.phase) {
    case 'pending':
      return { text: row.error ? 'Not sent yet (waiting)' : 'Not sent yet', group: 'waiting', live: false };
    case 'submitting':
      return { ...describeRow(row, LocalStatus.submitting), group: 'running' };
    case 'unknown':
      return { text: 'Unknown (answer to /run lost)', group: 'failed', live: false };
    case 'skipped':
      // The header's words for it ("2 not sent (batch cancelled)"): it never ran, nothing of it was cancelled.
      return { text: 'Not sent (batch cancelled)', group: 'stopped', live: false };
    case 'lost':
      return { text: 'Lost (past retention)', group: 'failed', live: false };
    case 'active':
      return { ...describeRow(row, row.status ?? 'IN_QUEUE'), group: 'running' };
    case 'ended': {
      const s = row.status ?? 'COMPLETED';
      const group: RowGroup = s === 'COMPLETED' ? 'completed' : s === 'CANCELLED' ? 'stopped' : 'failed';
      return { text: s === 'REJECTED' ? 'Rejected (bad input)' : describeRow(row, s).text, group, live: false };
    }
  }
}

/** "prompts.jsonl:12", "cat.input.json", "sweep.input.json seed=2 width=1024". */
export function inputSummary(ref: JobRow['ref']): string {
  const name = ref.file.split(/[\\/]/).pop() ?? ref.file;
  const at = ref.line !== undefined ? `${name}:${ref.line}` : name;
  if (!ref.sweep) return at;
  const values = Object.entries(ref.sweep).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${at} ${values.join(' ')}`;
}

/** `thumbnail`: the webview URI of the row's first saved image (the host makes it: see batchThumbnail.ts). */
export function rowView(row: JobRow, thumbnail?: string): BatchRowView {
  const { text, group, live } = rowStatus(row);
  // When the moving job's attempt was sent: the page ticks its "so far" from it.
  const since = live ? (row.submittedAt ?? row.at) : undefined;
  const ms = (v: number | undefined): string => (v === undefined ? '' : formatDuration(v));
  // Every attempt of the job, each billed (issue 27 item 3): the same sum the header's cost adds up.
  const cost = rowCost(row);
  return {
    index: row.index,
    summary: inputSummary(row.ref),
    status: text,
    group,
    ...(row.delayTime !== undefined ? { delayMs: row.delayTime } : {}),
    ...(row.executionTime !== undefined ? { executionMs: row.executionTime } : {}),
    delayText: ms(row.delayTime),
    executionText: ms(row.executionTime),
    ...(cost?.usd !== undefined ? { costUsd: cost.usd } : {}),
    costText: costText(cost),
    costHow: costTooltip(cost),
    note: (row.error ?? row.firstLine ?? '').split('\n')[0]!.slice(0, 200),
    ...(row.jobId ? { jobId: row.jobId } : {}),
    ...(thumbnail !== undefined ? { thumbnail } : {}),
    ...(since !== undefined ? { liveSince: since } : {}),
  };
}

// The batch table as CSV (RFC 4180), for a spreadsheet: one row per job, from the manifest's rows. A cell that a
// spreadsheet would run as a formula (=, +, -, @ first; a worker's error text is not ours) is prefixed with ',
// the usual defence against CSV injection. Jobs are numbered as the Batch panel numbers them (# from 1), and the
// file ends with a total line: the counts and the cost the panel's header says, from the same tally.
import type { JobRow } from './manifestFormat';
import { rowCost } from './rowCost';

const COLUMNS = ['#', 'file', 'line', 'sweep', 'jobId', 'phase', 'status', 'delayMs', 'executionMs', 'costUsd', 'costKind', 'outputs', 'firstLine', 'error'] as const;

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The last line: `counts` in the status column, the batch's cost in the cost columns. */
export interface CsvTotal {
  counts: string;
  usd: number;
  estimated: boolean;
}

export function rowsToCsv(rows: Iterable<JobRow>, total?: CsvTotal): string {
  const lines = [COLUMNS.join(',')];
  const sorted = [...rows].sort((a, b) => a.index - b.index);
  for (const r of sorted) {
    lines.push(
      [
        r.index + 1, r.ref.file, r.ref.line, r.ref.sweep, r.jobId, r.phase, r.status, r.delayTime, r.executionTime,
        rowCost(r)?.usd, rowCost(r)?.kind, r.outputs?.join(' '), r.firstLine, r.error,
      ].map(cell).join(','),
    );
  }
  if (total) {
    const usd = Number(Math.max(0, total.usd).toFixed(6));
    lines.push(['total', '', '', '', '', '', total.counts, '', '', usd, total.estimated ? 'estimate' : 'reported', '', '', ''].map(cell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

// What the compare panel shows of each job, from a job's record (the Jobs view, a job panel) or from a batch's
// manifest row and the input it ran: the input, the job life's status line, the cost as a batch row says it, and
// the saved files, only those inside the job's own outputs folder, each by its extension (the saver named it by
// the file's sniffed bytes). Plain data, no `vscode` import.
import { access, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobRow } from '../core/batch';
import { costText, costTooltip, shownCost } from '../core/cost';
import { cellMedia, cellStatus, isInside, type CellMediaKind } from '../core/grid/gridCell';
import { formatDuration } from '../core/jobs/durationText';
import { lifeLine } from '../core/jobs/jobLife';
import type { JobRecord } from '../jobs/jobRecord';

export interface CompareSide {
  title: string;
  input: Record<string, unknown>;
  status: string;
  cost: string;
  costHow: string;
  /** Saved files to show (inside `folder`), and how many the job names that are gone. */
  media: { kind: CellMediaKind; file: string }[];
  missing: number;
  text?: string;
  error?: string;
  /** The folder the webview may read this side's files from. */
  folder?: string;
  /** Opens the job's own panel. */
  open: () => void;
}

/** A text output larger than this is compared by its first part. */
const MAX_TEXT = 64 * 1024;

const exists = (file: string): Promise<boolean> => access(file).then(() => true, () => false);

async function mediaOf(files: readonly string[], folder: string | undefined): Promise<{ media: CompareSide['media']; missing: number }> {
  const media: CompareSide['media'] = [];
  let missing = 0;
  for (const file of files) {
    if (!folder || !isInside(file, folder, path.sep)) continue;
    const one = cellMedia([file], folder, path.sep);
    if (!(await exists(file))) missing++;
    else if (one) media.push(one);
  }
  return { media, missing };
}

async function textOf(files: readonly string[], folder: string | undefined): Promise<string | undefined> {
  const file = files.find((f) => f.endsWith('.txt') && folder && isInside(f, folder, path.sep));
  if (!file || !(await exists(file))) return undefined;
  if ((await stat(file)).size > MAX_TEXT) return (await readFile(file, 'utf8')).slice(0, MAX_TEXT);
  return readFile(file, 'utf8');
}

const uriPath = (u: string): string => (u.startsWith('file:') ? fileURLToPath(u) : u);

export async function sideOfRecord(record: JobRecord, open: () => void): Promise<CompareSide> {
  const folder = record.outputsFolder ? uriPath(record.outputsFolder) : undefined;
  const files = record.outputs.flatMap((o) => (o.file ? [uriPath(o.file)] : []));
  const { media, missing } = await mediaOf(files, folder);
  const text = record.outputs.find((o) => o.kind === 'text' || o.kind === 'transcript')?.text ?? (await textOf(files, folder));
  const cost = shownCost(record.jobCost, record.cost);
  const input = record.inputFile ? path.basename(uriPath(record.inputFile)) : 'input';
  return {
    title: `${record.endpointId} · ${input} · ${new Date(record.submittedAt).toLocaleTimeString()}`,
    input: record.input,
    status: lifeLine(record),
    cost: costText(cost),
    costHow: costTooltip(cost),
    media,
    missing,
    ...(text !== undefined ? { text } : {}),
    ...(record.error ? { error: record.error } : {}),
    ...(folder ? { folder } : {}),
    open,
  };
}

export async function sideOfRow(row: JobRow, input: Record<string, unknown> | undefined, batchDir: string, open: () => void): Promise<CompareSide> {
  const files = row.outputs ?? [];
  const folder = files[0] ? path.dirname(files[0]) : undefined;
  const inBatch = folder && isInside(folder, batchDir, path.sep) ? folder : undefined;
  const { media, missing } = await mediaOf(files, inBatch);
  const text = await textOf(files, inBatch);
  const time = row.delayTime !== undefined || row.executionTime !== undefined ? formatDuration((row.delayTime ?? 0) + (row.executionTime ?? 0)) : '';
  const sweep = row.ref.sweep ? ` ${Object.entries(row.ref.sweep).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ')}` : '';
  return {
    title: `job ${row.index + 1} · ${path.basename(row.ref.file)}${row.ref.line !== undefined ? `:${row.ref.line}` : ''}${sweep}`,
    input: input ?? { ...(row.ref.sweep ?? {}) },
    status: time ? `${cellStatus(row).text} · ${time}` : cellStatus(row).text,
    cost: costText(row.cost),
    costHow: costTooltip(row.cost),
    media,
    missing,
    ...(text !== undefined ? { text } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(inBatch ? { folder: inBatch } : {}),
    open,
  };
}

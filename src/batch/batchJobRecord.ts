// A batch job as the single job's record (src/jobs/jobRecord.ts), so clicking its row opens the same job panel a
// single job has: its input, status, times, cost, error and saved outputs (read back from the files the batch
// saved: the manifest keeps their paths). The record is put in the history under a key of the batch's own.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { BatchItem, JobRow } from '../core/batch';
import { LocalStatus, type JobRecord, type SavedOutput } from '../jobs/jobRecord';

/** What a row's record needs of its batch: a BatchSession, or a past batch read from its manifest (no inputs). */
export interface RowOwner {
  batchId: string;
  endpointId: string;
  o: { title: string; items?: readonly BatchItem[] };
  /** "batch (started 08:45:26)" (core batchName.ts). */
  name: string;
}

const KINDS: Record<string, SavedOutput['kind']> = {
  '.png': 'image', '.jpg': 'image', '.jpeg': 'image', '.webp': 'image', '.gif': 'image',
  '.mp4': 'video', '.webm': 'video', '.mov': 'video',
  '.wav': 'audio', '.mp3': 'audio', '.ogg': 'audio', '.flac': 'audio',
  '.txt': 'text',
};
/** Text outputs larger than this are opened from the file, not shown inline. */
const MAX_TEXT = 64 * 1024;

export function batchJobKey(batchId: string, index: number): string {
  return `batch:${batchId}:${index}`;
}

export function recordOfRow(session: RowOwner, row: JobRow): JobRecord {
  const item = session.o.items?.[row.index];
  const status = row.phase === 'ended' ? row.status ?? 'COMPLETED' : row.phase === 'active' ? row.status ?? 'IN_QUEUE' : row.phase === 'submitting' ? LocalStatus.submitting : LocalStatus.error;
  const outputs = (row.outputs ?? []).map(savedOutputOf);
  const folder = row.outputs?.[0] ? path.dirname(row.outputs[0]) : undefined;
  const usd = row.cost?.usd;
  return {
    key: batchJobKey(session.batchId, row.index),
    endpointId: session.endpointId,
    ...(row.jobId ? { jobId: row.jobId } : {}),
    mode: 'async',
    ...((item?.ref ?? row.ref).line === undefined ? { inputFile: vscode.Uri.file((item?.ref ?? row.ref).file).toString() } : {}),
    input: item?.input ?? {},
    ...(item?.request ? { request: item.request as Record<string, unknown> } : {}),
    status,
    submittedAt: row.submittedAt ?? row.at,
    ...(row.retries ? { attempt: row.retries + 1 } : {}),
    ...(row.endedAt !== undefined ? { finishedAt: row.endedAt } : {}),
    ...(row.delayTime !== undefined ? { delayTime: row.delayTime } : {}),
    ...(row.executionTime !== undefined ? { executionTime: row.executionTime } : {}),
    ...(usd !== undefined ? { cost: usd } : {}),
    ...(row.error ? { error: row.error } : {}),
    note: `Job ${row.index + 1} of the batch ${session.o.title}${row.cost && row.cost.kind !== 'unknown' ? ` · cost ${row.cost.kind === 'estimate' ? 'estimated' : 'reported'}: ${row.cost.how}` : ''}`,
    ...(folder ? { outputsFolder: vscode.Uri.file(folder).toString() } : {}),
    outputs,
    ...(outputs.find((o) => o.kind === 'image')?.file ? { thumbnail: outputs.find((o) => o.kind === 'image')!.file! } : {}),
  };
}

function savedOutputOf(file: string, i: number): SavedOutput {
  const kind = KINDS[path.extname(file).toLowerCase()] ?? 'json';
  const uri = vscode.Uri.file(file).toString();
  if (kind === 'text') {
    let text = '';
    try {
      text = readFileSync(file, 'utf8').slice(0, MAX_TEXT);
    } catch {
      // The file was moved or deleted since: the panel shows the output without its words.
    }
    return { kind, field: `output ${i + 1}`, file: uri, text };
  }
  if (kind === 'json') return { kind: 'notice', field: `output ${i + 1}`, text: `Saved as ${path.basename(file)}` };
  return { kind, field: `output ${i + 1}`, file: uri };
}

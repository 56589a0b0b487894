// What one cell of a batch's grid says of its job, from the job's manifest row: its status in the job life's words
// (src/core/jobs/jobLife.ts: "In queue", "Failed · attempt 2", the same as the Batch panel's row and the job's own
// panel), whether it is done, and which saved file it shows. Only files inside the batch's folder are shown, and a
// file's kind is its extension, which the saver set from the file's sniffed bytes (src/core/outputs/mediaFormat.ts).
import { describeJob, LocalStatus } from '../jobs/jobLife';
import { MEDIA_FORMATS } from '../outputs/mediaFormat';
import type { JobRow } from '../batch/manifestFormat';

export type CellMediaKind = 'image' | 'video' | 'audio';

const KIND_OF_EXT = new Map<string, CellMediaKind>(
  MEDIA_FORMATS.filter((f) => f.kind === 'image' || f.kind === 'video' || f.kind === 'audio').map((f) => [`.${f.ext}`, f.kind as CellMediaKind]),
);

/** The job life's status words of a row (the batch's own phases, which have no job life yet, said plainly). */
export function cellStatus(row: JobRow): { text: string; done: boolean; failed: boolean } {
  const life = (status: string): string =>
    describeJob({ status, submittedAt: row.submittedAt ?? row.at, finishedAt: row.endedAt, delayTime: row.delayTime, executionTime: row.executionTime, attempt: (row.retries ?? 0) + 1 }).statusText;
  switch (row.phase) {
    case 'pending':
      return { text: 'Not sent yet', done: false, failed: false };
    case 'submitting':
      return { text: life(LocalStatus.submitting), done: false, failed: false };
    case 'active':
      return { text: life(row.status ?? 'IN_QUEUE'), done: false, failed: false };
    case 'unknown':
      return { text: 'Unknown (answer to /run lost)', done: false, failed: true };
    case 'skipped':
      return { text: 'Not sent (batch cancelled)', done: false, failed: false };
    case 'lost':
      return { text: 'Lost (past retention)', done: false, failed: true };
    case 'ended': {
      const status = row.status ?? 'COMPLETED';
      return { text: life(status), done: status === 'COMPLETED', failed: status !== 'COMPLETED' && status !== 'CANCELLED' };
    }
  }
}

/** The first saved file the cell can show (image first, then video, then audio) inside `dir`, with its kind. */
export function cellMedia(outputs: readonly string[] | undefined, dir: string, sep = '/'): { file: string; kind: CellMediaKind } | undefined {
  const inside = (outputs ?? []).filter((f) => isInside(f, dir, sep));
  for (const want of ['image', 'video', 'audio'] as const) {
    const file = inside.find((f) => KIND_OF_EXT.get(extOf(f)) === want);
    if (file) return { file, kind: want };
  }
  return undefined;
}

function extOf(file: string): string {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? '' : file.slice(dot).toLowerCase();
}

/** `file` lies under `dir` (no `..` step, same root): a manifest edited to point elsewhere is not shown. */
export function isInside(file: string, dir: string, sep = '/'): boolean {
  const norm = (p: string): string[] => p.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  const f = norm(file);
  const d = norm(dir);
  if (f.includes('..') || f.length <= d.length) return false;
  const caseless = sep === '\\';
  return d.every((part, i) => (caseless ? part.toLowerCase() === f[i]!.toLowerCase() : part === f[i]));
}

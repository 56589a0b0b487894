// What a batch is called where the user picks or tells batches apart (a panel's tab, a Jobs view row, a grid's
// tab, a "Which batch?" pick): what they ran (the folder or file) and when it started, in words. The walk found two
// tabs both "Batch: batch" (a folder named batch, run twice), Jobs rows "Batch batch", and a grid tab titled with
// the internal id "Grid: 2026-11-27T08-45-26-sweep.input.json".

const pad = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "08:45:26" today, "Nov 26, 08:45:26" another day, "Nov 26 2025, 08:45:26" another year (local time). */
export function startedWords(at: Date, now: Date = new Date()): string {
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  if (at.toDateString() === now.toDateString()) return time;
  const year = at.getFullYear() === now.getFullYear() ? '' : ` ${at.getFullYear()}`;
  return `${MONTHS[at.getMonth()]} ${at.getDate()}${year}, ${time}`;
}

/** "batch (started 08:45:26)": the seconds tell apart two runs of one folder started in the same minute. */
export function batchName(title: string, createdAt: string | number, now?: Date): string {
  const at = new Date(createdAt);
  return Number.isNaN(at.getTime()) ? title : `${title} (started ${startedWords(at, now)})`;
}

/**
 * The name read back from a batch's folder name (its id: the UTC start to the second, then the file or folder it
 * ran, as BatchManager makes it), for a view that has only the folder. Undefined for a folder named otherwise.
 */
export function batchNameFromId(batchId: string, now?: Date): string | undefined {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(.+)$/.exec(batchId);
  if (!m) return undefined;
  return batchName(m[5]!, `${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`, now);
}

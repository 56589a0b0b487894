// Writing and reading a batch manifest (the lines of manifestFormat.ts). The writer appends lines through one open
// file, in order, the lines asked for while an append is under way going together in the next one (a 10,000-job
// batch asks for ~30,000: one trip each to libuv's file threads woke them ~30,000 times in the shared extension
// host, issue 30); `write` resolves once the line is handed to the OS; `writeNow` hands it over
// before it returns, for the line written in one synchronous step with a /run's bytes (a process that dies after
// it leaves the line; an OS crash may not, which is accepted: see docs/batches.md). The reader rebuilds the batch
// from the file: the last line of each job wins; a torn last line (a crash mid-write) is dropped and said so; any
// other unreadable line is reported.
import { writeSync } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { parseJsonLine } from './jsonLine';
import { ManifestLine, type BatchEventLine, type JobRow, type ManifestHeader, type RowPhase } from './manifestFormat';

export class ManifestWriter {
  private chain: Promise<void> = Promise.resolve();
  /** Lines asked for by `write` and not yet written (or failed). */
  private writing = 0;
  private closed = false;
  /** The lines of the next append, which takes more until it starts. */
  private next: { text: string; lines: number; done: Promise<void> } | undefined;

  private constructor(private readonly handle: FileHandle, readonly path: string) {}

  /**
   * Opens `path` for appending (created if missing): a resumed batch writes on after its old lines. A file left
   * with a torn last line (no newline: the process died mid-write) gets its newline first, or the first line of
   * the resume would be glued to the torn one and lost with it.
   */
  static async open(path: string): Promise<ManifestWriter> {
    const handle = await open(path, 'a+');
    try {
      const { size } = await handle.stat();
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) await handle.appendFile('\n', 'utf8');
      }
    } catch (e) {
      await handle.close();
      throw e;
    }
    return new ManifestWriter(handle, path);
  }

  /**
   * Appends one line; lines are written in the order of the calls. It joins the next append while that has not
   * started (its promise is that append's), so a failure fails the lines written with it, and no others.
   */
  write(line: ManifestLine): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The batch manifest is closed.'));
    const text = `${JSON.stringify(line)}\n`; // before the count: a line that cannot be made must not hold `idle`
    this.writing++;
    const next = this.next ?? this.startNext();
    next.text += text;
    next.lines++;
    return next.done;
  }

  private startNext(): { text: string; lines: number; done: Promise<void> } {
    const next = { text: '', lines: 0, done: Promise.resolve() };
    this.next = next;
    next.done = this.chain.then(() => {
      this.next = undefined; // from here on, lines go to the append after this one
      return this.handle.appendFile(next.text, 'utf8');
    });
    // One failed append must not stop the ones after it from being tried (and failing loudly themselves).
    this.chain = next.done.then(
      () => void (this.writing -= next.lines),
      () => void (this.writing -= next.lines),
    );
    return next;
  }

  /** Resolves once every line asked for so far is written (or failed): `writeNow` may then write. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** No line asked for by `write` is still being written: `writeNow` would not pass one (the order is kept). */
  get idle(): boolean {
    return this.writing === 0;
  }

  /**
   * Appends one line synchronously: it is handed to the OS before this returns, so the caller's next statement (a
   * /run's bytes written to its socket) follows with nothing in between (docs/batches.md "What is safe to resend").
   * One short line: microseconds. Only when `idle` (throws otherwise: the line would pass the ones before it).
   */
  writeNow(line: ManifestLine): void {
    if (this.closed) throw new Error('The batch manifest is closed.');
    if (!this.idle) throw new Error('Earlier lines of the batch manifest are still being written.');
    writeSync(this.handle.fd, `${JSON.stringify(line)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.chain;
    await this.handle.close();
  }
}

export interface ManifestProblem {
  line: number;
  message: string;
}

export interface ManifestState {
  header?: ManifestHeader;
  /** The latest row of each job, by index. */
  rows: Map<number, JobRow>;
  events: BatchEventLine[];
  /** The last line was cut short (a crash mid-write) and was dropped. */
  tornLastLine: boolean;
  problems: ManifestProblem[];
}

/** Rebuilds a batch's state from its manifest text. Never throws for a bad line. */
export function readManifestText(text: string): ManifestState {
  const state = emptyState();
  const lines = text.split('\n');
  lines.forEach((raw, i) => addLine(state, raw, i, lines.length - 1));
  return state;
}

/**
 * Lines read between two yields to the event loop. A 10,000-job batch leaves ~40,000 lines (8.5 MB), which read at
 * one go held the extension host ~200 ms at every start (the resume scan reads each manifest); 512 lines are ~3 ms.
 */
const LINES_PER_TURN = 512;

/** `readManifestText` of a file, yielding to the event loop as it goes. */
export async function readManifest(path: string): Promise<ManifestState> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const state = emptyState();
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % LINES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    addLine(state, lines[i]!, i, lines.length - 1);
  }
  return state;
}

/**
 * Whether the manifest's last line is its `finished` event: the resume scan's shortcut, which reads only the
 * file's end, so a finished batch (most of them) costs no parse of its whole manifest at every start.
 */
export async function endsFinished(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const length = Math.min(size, 4096);
    const { buffer, bytesRead } = await file.read(Buffer.alloc(length), 0, length, size - length);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    // Only a line ended by its newline counts (a torn last line is not an event); the file ends with one.
    const lines = text.split('\n');
    const last = lines.length >= 2 ? lines[lines.length - 2]! : '';
    const parsed = parseJsonLine(last, ManifestLine);
    return text.endsWith('\n') && parsed.ok && parsed.value.type === 'event' && parsed.value.event === 'finished';
  } finally {
    await file.close();
  }
}

function emptyState(): ManifestState {
  return { rows: new Map(), events: [], tornLastLine: false, problems: [] };
}

/** Line `i` (0-based) of `last + 1` into `state`. Text after the last newline is a line whose end was never written. */
function addLine(state: ManifestState, raw: string, i: number, last: number): void {
  if (raw.trim() === '') return;
  const parsed = parseJsonLine(raw, ManifestLine);
  if (!parsed.ok) {
    if (i === last) state.tornLastLine = true;
    else state.problems.push({ line: i + 1, message: parsed.message });
    return;
  }
  const line = parsed.value;
  if (line.type === 'batch') {
    if (!state.header) state.header = line;
  } else if (line.type === 'job') {
    state.rows.set(line.index, line);
  } else {
    state.events.push(line);
  }
}

/**
 * Inputs that changed since the batch wrote their row and are still to be sent (a resume sends them as they are
 * now): the indices, so the resume prompt can say so before anything goes out.
 */
export function changedInputs(state: Pick<ManifestState, 'rows'>, digests: ReadonlyMap<number, string>): number[] {
  const changed: number[] = [];
  for (const row of state.rows.values()) {
    const now = digests.get(row.index);
    if (row.phase === 'pending' && now !== undefined && now !== row.digest) changed.push(row.index);
  }
  return changed.sort((a, b) => a - b);
}

/** How many rows are in each phase: what a resume prompt says ("120 done, 4 running, 76 not sent"). */
export function countPhases(state: Pick<ManifestState, 'rows'>): Record<RowPhase, number> {
  const counts: Record<RowPhase, number> = { pending: 0, submitting: 0, unknown: 0, active: 0, ended: 0, skipped: 0, lost: 0 };
  for (const row of state.rows.values()) counts[row.phase]++;
  return counts;
}

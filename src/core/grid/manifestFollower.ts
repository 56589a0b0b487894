// Follows a batch's manifest as it grows, for the grid (issue 31): the file is append-only (manifestFile.ts), so
// each read parses only the bytes added since the last one, through the core reader (`readManifestText`), and the
// last line of a job wins as it does there. A line still being written (no newline yet) waits for the next read.
import { open } from 'node:fs/promises';
import { readManifestText, type ManifestState } from '../batch/manifestFile';
import type { JobRow, ManifestHeader } from '../batch/manifestFormat';

/** Bytes read per turn, so a 10,000-job manifest (~8.5 MB) is parsed in slices, never at one go. */
const SLICE = 256 * 1024;

export class ManifestFollower {
  header: ManifestHeader | undefined;
  readonly rows = new Map<number, JobRow>();
  finished = false;
  private offset = 0;
  /** Bytes after the last newline read (a line still being written, or a character cut by a slice). */
  private pending = Buffer.alloc(0);

  constructor(readonly path: string) {}

  /** Reads what was added since the last call; returns the rows that changed (their latest line). */
  async read(): Promise<JobRow[]> {
    const file = await open(this.path, 'r');
    const changed = new Map<number, JobRow>();
    try {
      const { size } = await file.stat();
      // A file that shrank was replaced: start over.
      if (size < this.offset) this.reset();
      while (this.offset < size) {
        const length = Math.min(SLICE, size - this.offset);
        const { buffer, bytesRead } = await file.read(Buffer.alloc(length), 0, length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        const bytes = Buffer.concat([this.pending, buffer.subarray(0, bytesRead)]);
        const end = bytes.lastIndexOf(0x0a);
        this.pending = bytes.subarray(end + 1);
        if (end >= 0) this.take(readManifestText(bytes.subarray(0, end + 1).toString('utf8')), changed);
        if (this.offset < size) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await file.close();
    }
    return [...changed.values()];
  }

  private take(state: ManifestState, changed: Map<number, JobRow>): void {
    this.header ??= state.header;
    for (const row of state.rows.values()) {
      this.rows.set(row.index, row);
      changed.set(row.index, row);
    }
    for (const e of state.events) this.finished = e.event === 'finished' ? true : e.event === 'resumed' ? false : this.finished;
  }

  private reset(): void {
    this.offset = 0;
    this.pending = Buffer.alloc(0);
    this.rows.clear();
    this.header = undefined;
    this.finished = false;
  }
}

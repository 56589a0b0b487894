// The rows of a batch as the runner holds them: one small record per job (the manifest's JobRow), changed only
// through `update`, which writes the manifest line first and then tells the listeners. It is the one place a
// batch job's state is set, so when the job life (src/core/jobs/, issue 22) lands, a row becomes a view of it here.
import type { ManifestWriter } from './manifestFile';
import type { JobRow } from './manifestFormat';
import { countRow, emptyTally, type BatchTally } from './batchTally';
import type { Clock } from '../http/clock';

export class BatchRows {
  private readonly rows = new Map<number, JobRow>();
  /** The counts and spend of `rows`, changed with it (never ahead or behind it, even while a line is written). */
  readonly tally: BatchTally = emptyTally();

  constructor(
    private readonly manifest: ManifestWriter,
    private readonly clock: Clock,
    private readonly onRow: (row: JobRow) => void,
  ) {}

  /** Takes a row as it is (a new batch's pending rows, a resumed batch's last lines), without writing. */
  adopt(row: JobRow): void {
    this.set(row);
  }

  get(index: number): JobRow {
    const row = this.rows.get(index);
    if (!row) throw new Error(`No row ${index} in this batch.`);
    return row;
  }

  all(): IterableIterator<JobRow> {
    return this.rows.values();
  }

  /** Sets fields of a row (undefined removes one), appends its line (`now`: ManifestWriter.write), then tells the listeners. */
  async update(index: number, change: Partial<Omit<JobRow, 'type' | 'index' | 'at'>>, options: { now?: boolean } = {}): Promise<JobRow> {
    const next: JobRow = { ...this.get(index), ...change, at: this.clock.now() };
    // A field is removed by building the row again without it, not by `delete`: a deleted property turns the
    // object into a slow dictionary (3-4x the bytes, for every row of a 10,000-job batch the host holds).
    const removed = (Object.keys(change) as (keyof typeof change)[]).some((key) => change[key] === undefined);
    if (removed) return this.commit(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as JobRow, options);
    return this.commit(next, options);
  }

  private async commit(next: JobRow, options: { now?: boolean }): Promise<JobRow> {
    this.set(next);
    await this.manifest.write(next, options);
    this.onRow(next);
    return next;
  }

  private set(row: JobRow): void {
    const previous = this.rows.get(row.index);
    if (previous) countRow(this.tally, previous, -1);
    countRow(this.tally, row, 1);
    this.rows.set(row.index, row);
  }
}

// The rows of a batch as the runner holds them: one small record per job (the manifest's JobRow), changed only
// through `update`, which writes the manifest line first and then tells the listeners. It is the one place a
// batch job's state is set, so when the job life (src/core/jobs/, issue 22) lands, a row becomes a view of it here.
import type { ManifestWriter } from './manifestFile';
import type { JobRow } from './manifestFormat';
import { countRow, emptyTally, type BatchTally } from './batchTally';
import type { Clock } from '../http/clock';

type RowChange = Partial<Omit<JobRow, 'type' | 'index' | 'at'>>;

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

  /** Sets fields of a row (undefined removes one), appends its line, then tells the listeners. */
  async update(index: number, change: RowChange): Promise<JobRow> {
    const next = this.changed(index, change);
    this.set(next);
    await this.manifest.write(next);
    this.onRow(next);
    return next;
  }

  /** Resolves once every line asked for so far is written: `updateNow` can then write at once. */
  settled(): Promise<void> {
    return this.manifest.settled();
  }

  /**
   * `update` in one synchronous step: the line is handed to the OS before this returns, and the listeners are told
   * only after the caller's step (a microtask later), so that the caller's next statement follows the line with
   * nothing in between: a /run's bytes (docs/batches.md "What is safe to resend"). Undefined, with nothing changed,
   * while earlier lines are still being written (their order is kept): await `settled` and call again.
   */
  updateNow(index: number, change: RowChange): JobRow | undefined {
    if (!this.manifest.idle) return undefined;
    const next = this.changed(index, change);
    this.manifest.writeNow(next);
    this.set(next);
    queueMicrotask(() => this.onRow(next));
    return next;
  }

  private changed(index: number, change: RowChange): JobRow {
    const next: JobRow = { ...this.get(index), ...change, at: this.clock.now() };
    // A field is removed by building the row again without it, not by `delete`: a deleted property turns the
    // object into a slow dictionary (3-4x the bytes, for every row of a 10,000-job batch the host holds).
    const removed = (Object.keys(change) as (keyof typeof change)[]).some((key) => change[key] === undefined);
    return removed ? (Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as JobRow) : next;
  }

  private set(row: JobRow): void {
    const previous = this.rows.get(row.index);
    if (previous) countRow(this.tally, previous, -1);
    countRow(this.tally, row, 1);
    this.rows.set(row.index, row);
  }
}

// The job history of this workspace: every job started here, newest first, capped by a setting. Kept in
// workspaceState so it survives a reload and a restart; each finished job's outputs folder also holds its
// job.json, from which the panel is reopened. Running jobs are in here too, which is how a job still
// running when the window closed is found again on the next start.
import * as vscode from 'vscode';
import { JobRecord } from '../jobs/jobRecord';

const STORAGE_KEY = 'serverlessGpu.jobHistory.v1';

export class HistoryStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<JobRecord | undefined>();
  /** A record changed (or undefined: the whole list did). */
  readonly onDidChange = this.emitter.event;
  private records: JobRecord[];

  constructor(private readonly memento: vscode.Memento, private readonly limit: () => number) {
    this.records = readRecords(memento.get<unknown>(STORAGE_KEY));
  }

  dispose(): void {
    this.emitter.dispose();
  }

  /** Newest first. */
  all(): readonly JobRecord[] {
    return this.records;
  }

  get(key: string): JobRecord | undefined {
    return this.records.find((r) => r.key === key);
  }

  /** Adds a new record or replaces the one with the same key, and persists the list. */
  async upsert(record: JobRecord): Promise<void> {
    const i = this.records.findIndex((r) => r.key === record.key);
    if (i >= 0) this.records[i] = record;
    else this.records.unshift(record);
    this.records.sort((a, b) => b.submittedAt - a.submittedAt);
    this.trim();
    this.emitter.fire(record);
    await this.persist();
  }

  async remove(key: string): Promise<void> {
    this.records = this.records.filter((r) => r.key !== key);
    this.emitter.fire(undefined);
    await this.persist();
  }

  /** Forgets finished jobs; jobs still running stay (they are still being followed). */
  async clearFinished(isRunning: (key: string) => boolean): Promise<void> {
    this.records = this.records.filter((r) => isRunning(r.key));
    this.emitter.fire(undefined);
    await this.persist();
  }

  /** Applies a changed limit setting. */
  async applyLimit(): Promise<void> {
    if (this.trim()) {
      this.emitter.fire(undefined);
      await this.persist();
    }
  }

  private trim(): boolean {
    const limit = Math.max(1, this.limit());
    if (this.records.length <= limit) return false;
    this.records = this.records.slice(0, limit);
    return true;
  }

  private persist(): Thenable<void> {
    return this.memento.update(STORAGE_KEY, this.records);
  }
}

/** Reads the stored list leniently: one broken record is dropped, not the whole history. */
function readRecords(raw: unknown): JobRecord[] {
  if (!Array.isArray(raw)) return [];
  const out: JobRecord[] = [];
  for (const item of raw) {
    const parsed = JobRecord.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out.sort((a, b) => b.submittedAt - a.submittedAt);
}

// The batches of this workspace as the Jobs view lists them (issue 27 item 11): one row per batch with its counts
// and cost, its jobs as children, opened as the Batch panel's rows open them. The batches of this window come from
// their sessions (kept as they run); the others from their manifests on disk, read once, when the view first asks.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { batchName, MANIFEST_FILE, readManifest, tally, type BatchTally, type JobRow, type ManifestState } from '../core/batch';
import type { Logger } from '../core/log';
import type { BatchGroup, BatchGroups } from '../history/jobsView';
import type { JobRecord } from '../jobs/jobRecord';
import { recordOfRow, type RowOwner } from './batchJobRecord';
import type { BatchManager } from './batchManager';
import type { BatchSession } from './batchSession';
import { batchTitle } from './batchTitle';
import { countsText } from './batchSummary';
import { formatUsd } from '../core/billing/usd';

export const OPEN_BATCH_JOB = 'serverlessGpu.openBatchJob';
/** A running batch changes a row many times a second: the view is told at most this often. */
const REFRESH_MS = 1000;

interface PastBatch {
  owner: RowOwner;
  manifestPath: string;
  state: ManifestState;
  startedAt: number;
}

export class BatchJobGroups implements BatchGroups, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private past: PastBatch[] | undefined;
  private loading = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly manager: BatchManager,
    private readonly roots: () => readonly string[],
    private readonly open: (record: JobRecord) => Promise<void>,
    private readonly logger: Logger,
  ) {
    const watch = (s: BatchSession): void => {
      this.subscriptions.push(s.onDidChangeRow(() => this.changed()), s.onDidChangeState(() => this.changed()));
    };
    manager.sessions.forEach(watch);
    this.subscriptions.push(manager.onDidStart((s) => {
      watch(s);
      this.changed();
    }));
    this.subscriptions.push(vscode.commands.registerCommand(OPEN_BATCH_JOB, (batchId: string, index: number) => this.openJob(batchId, index)));
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.emitter.dispose();
  }

  groups(): BatchGroup[] {
    if (!this.past && !this.loading) void this.loadPast();
    const live = this.manager.sessions.map((s) => this.groupOf(s, s.tally(), () => s.rows(), s.running, Date.parse(s.o.header.createdAt), s.manifestPath));
    const liveIds = new Set(this.manager.sessions.map((s) => s.batchId));
    const past = (this.past ?? []).filter((p) => !liveIds.has(p.owner.batchId)).map((p) => this.groupOf(p.owner, tally(p.state.rows.values()), () => [...p.state.rows.values()], false, p.startedAt, p.manifestPath));
    // A tree id may appear once, or VS Code refuses the whole view ("Element with id … is already registered"):
    // manifests of two outputs folders (or written before ids were made unique) may share a batch id.
    const seen = new Set<string>();
    return [...live, ...past].filter((g) => !seen.has(g.batchId) && Boolean(seen.add(g.batchId)));
  }

  /** Every batch listed, for Show Batch Panel's pick (the manifests on disk read first, if they were not yet). */
  async listed(): Promise<Array<{ batchId: string; label: string; description: string; manifestPath?: string }>> {
    if (!this.past && !this.loading) await this.loadPast();
    return this.groups().map((g) => ({ batchId: g.batchId, label: g.label, description: g.description, ...(g.manifestPath ? { manifestPath: g.manifestPath } : {}) }));
  }

  private groupOf(owner: RowOwner, t: Readonly<BatchTally>, rows: () => JobRow[], running: boolean, startedAt: number, manifestPath?: string): BatchGroup {
    // The one money format (issue 32), the Batch panel's amount: "$0.0028 est." here beside "$0.00279" there.
    const cost = `${formatUsd(Math.max(0, t.usd))}${t.estimated > 0 ? ' est.' : ''}`;
    return {
      batchId: owner.batchId,
      label: owner.name,
      description: `${owner.endpointId} · ${countsText(t)} · ${cost}`,
      tooltip: `A batch of ${t.total} jobs on ${owner.endpointId}, started ${new Date(startedAt).toLocaleString()}: ${countsText(t)}. ${running ? 'Cost so far' : 'Cost'}: ${cost}.`,
      startedAt,
      running,
      ...(manifestPath ? { manifestPath } : {}),
      jobs: () => rows().sort((a, b) => a.index - b.index).map((r) => recordOfRow(owner, r)),
      open: (record) => ({ command: OPEN_BATCH_JOB, title: 'Open Job', arguments: [owner.batchId, Number(record.key.split(':').at(-1))] }),
    };
  }

  private async openJob(batchId: string, index: number): Promise<void> {
    const session = this.manager.sessions.find((s) => s.batchId === batchId);
    if (session) return this.manager.ui.openRow(session, index);
    const past = this.past?.find((p) => p.owner.batchId === batchId);
    const row = past?.state.rows.get(index);
    if (!past || !row) return;
    if (!row.jobId) {
      void vscode.window.showInformationMessage(row.error ?? 'This job was never sent.');
      return;
    }
    await this.open(recordOfRow(past.owner, row));
  }

  private changed(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.emitter.fire();
    }, REFRESH_MS);
  }

  /** Every manifest under the outputs folders, read (yielding as it goes) once. */
  private async loadPast(): Promise<void> {
    this.loading = true;
    const found: PastBatch[] = [];
    try {
      for (const root of new Set(this.roots())) {
        const dir = path.join(root, 'batches');
        for (const name of await readdir(dir).catch(() => [] as string[])) {
          const state = await readManifest(path.join(dir, name, MANIFEST_FILE)).catch(() => undefined);
          const h = state?.header;
          if (!state || !h) continue;
          const title = batchTitle(h);
          found.push({ manifestPath: path.join(dir, name, MANIFEST_FILE), owner: { batchId: h.batchId, endpointId: h.endpointId, o: { title }, name: batchName(title, h.createdAt) }, state, startedAt: Date.parse(h.createdAt) || 0 });
        }
      }
    } catch (e) {
      this.logger.error('reading past batches for the Jobs view failed', e);
    }
    this.past = found;
    this.loading = false;
    this.emitter.fire();
  }
}

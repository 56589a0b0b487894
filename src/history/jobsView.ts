// The "Jobs" view in the sidebar: this workspace's job history, newest first, each with its status, endpoint
// and duration as the job life describes them (the panel's words exactly), its cost as a batch row says it, and
// the saved PNG as its icon where there is one. A job still moving ticks its "so far" once a second. Clicking
// opens the job's panel. A batch is one collapsible row with its counts and cost (issue 27 item 11); its children
// are its jobs, opened as the Batch panel's rows open them. The batch feature supplies them (BatchGroups).
import * as vscode from 'vscode';
import { costText, costTooltip, shownCost } from '../core/cost';
import { describeJob, jobActions, msToNextTick } from '../core/jobs/jobLife';
import { JobCommands } from '../jobs/commandIds';
import type { JobRecord } from '../jobs/jobRecord';
import type { HistoryStore } from './historyStore';
import { retryWaitText, type WaitLike } from '../errors/retryWaitText';

const STATUS_ICONS: Record<string, [string, string?]> = {
  COMPLETED: ['pass', 'testing.iconPassed'],
  FAILED: ['error', 'testing.iconFailed'],
  ERROR: ['error', 'testing.iconFailed'],
  TIMED_OUT: ['watch', 'testing.iconFailed'],
  CANCELLED: ['circle-slash'],
  STOPPED: ['debug-stop'],
};

export class JobItem extends vscode.TreeItem {
  constructor(readonly record: JobRecord, followed: boolean, retryWait?: WaitLike, now = Date.now()) {
    super(record.endpointId, vscode.TreeItemCollapsibleState.None);
    this.id = record.key;
    const life = describeJob(record, now);
    // Followed only to write job.json after the service ended it: already shown as ended, nothing to stop.
    const running = followed && !life.final;
    // A poll waiting before its retry says so first (issue 12), counting down with the view's refresh.
    const waiting = running && retryWait ? `${retryWaitText(retryWait)} · ` : '';
    const duration = life.durationText ? ` · ${life.durationText}` : '';
    // The cost line in the batch row's words ("$0.00304 est."), blank when unknown; how it was made in the tooltip.
    const cost = shownCost(record.jobCost, record.cost);
    const costLine = costText(cost);
    const costWords = costLine ? ` · ${costLine}` : '';
    this.description = `${waiting}${life.statusText}${duration}${costWords} · ${formatWhen(record.submittedAt)}`;
    // A job whose outputs are being saved offers no "Stop waiting": the service already ended it.
    // Finished: `.retryable` for a FAILED / TIMED_OUT job the service knows (Retry), `.stopped` for one only no
    // longer followed (Cancel Job can still end it there); the manifest's menus key on these.
    const actions = jobActions(record, followed);
    const finishedKind = actions.retry ? 'serverlessGpu.job.retryable' : actions.cancel ? 'serverlessGpu.job.stopped' : 'serverlessGpu.job';
    this.contextValue = !running ? finishedKind : actions.stopWaiting ? 'serverlessGpu.job.running' : 'serverlessGpu.job.saving';
    const tip = new vscode.MarkdownString(undefined, true);
    tip.isTrusted = false;
    tip.supportHtml = false;
    tip.appendText(`${record.endpointId} · ${record.status}\n`);
    if (record.jobId) tip.appendText(`job ${record.jobId}\n`);
    tip.appendText(`${record.mode} · started ${new Date(record.submittedAt).toLocaleString()}\n`);
    if (costLine) tip.appendText(`\nCost: ${costLine}\n${costTooltip(cost)}\n`);
    if (record.error) tip.appendText(`\n${record.error.slice(0, 500)}`);
    this.tooltip = tip;
    if (record.thumbnail) {
      // The saved PNG itself as the thumbnail: a local file, never a remote URL.
      this.iconPath = vscode.Uri.parse(record.thumbnail);
    } else if (!life.final) {
      this.iconPath = new vscode.ThemeIcon('sync~spin');
    } else {
      const [icon, color] = STATUS_ICONS[record.status] ?? ['circle-outline'];
      this.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    }
    this.command = { command: JobCommands.openJob, title: 'Open Job', arguments: [record.key] };
    this.accessibilityInformation = { label: `${record.endpointId}, ${life.statusText}, ${life.durationText}` };
  }
}

/** A batch as the Jobs view shows it: one row, its jobs as children. */
export interface BatchGroup {
  batchId: string;
  /** "Batch prompts.jsonl" */
  label: string;
  /** "flux-dev · 12 of 12 done · 9 completed · 3 failed · $0.0123" */
  description: string;
  tooltip: string;
  startedAt: number;
  running: boolean;
  /** Its rows as job records (keys `batch:<id>:<index>`), in the batch's order. */
  jobs(): JobRecord[];
  /** What a click on one of its jobs runs. */
  open(record: JobRecord): vscode.Command;
  /** Its manifest: Show Batch Panel on the row opens the batch's panel (read-only for an earlier window's). */
  manifestPath?: string;
}

/** The batches of this workspace (those of this window and those on disk), told when they change. */
export interface BatchGroups {
  groups(): BatchGroup[];
  readonly onDidChange: vscode.Event<void>;
}

export class BatchGroupItem extends vscode.TreeItem {
  constructor(readonly group: BatchGroup) {
    super(group.label, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `batch:${group.batchId}`;
    this.description = group.description;
    this.tooltip = group.tooltip;
    this.contextValue = 'serverlessGpu.batch';
    this.iconPath = new vscode.ThemeIcon(group.running ? 'sync~spin' : 'run-all');
  }
}

type JobsNode = JobItem | BatchGroupItem;

export class JobsTreeProvider implements vscode.TreeDataProvider<JobsNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<JobsNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  /** Redraws once a second while a job shown is live, so its "so far" ticks like the panel's. */
  private ticker: ReturnType<typeof setTimeout> | undefined;
  /** What each item showed when last drawn: a change to anything else (streamed text, why it waits) redraws nothing. */
  private readonly drawn = new Map<string, string>();
  private batches: BatchGroups | undefined;
  private batchSubscription: vscode.Disposable | undefined;

  constructor(
    private readonly history: HistoryStore,
    private readonly isRunning: (key: string) => boolean,
    private readonly retryWait: (key: string) => WaitLike | undefined = () => undefined,
  ) {
    // A streaming job changes its record up to every 200 ms (its text) and a queued one every few seconds (why
    // it waits): neither shows here, so only changes the view shows redraw it.
    this.subscription = history.onDidChange((record) => {
      if (record && this.drawn.get(record.key) === drawnFacts(record, this.isRunning(record.key))) return;
      this.refresh();
    });
  }

  /** Lists the batches beside the single jobs (wired by the batch feature). */
  showBatches(batches: BatchGroups): void {
    this.batchSubscription?.dispose();
    this.batches = batches;
    this.batchSubscription = batches.onDidChange(() => this.refresh());
    this.refresh();
  }

  dispose(): void {
    this.subscription.dispose();
    this.batchSubscription?.dispose();
    this.emitter.dispose();
    this.tick(undefined);
  }

  /** Redraws at the next second of `live`'s job (the panel and the status bar tick on the same second), or stops. */
  private tick(live: JobRecord | undefined): void {
    if (this.ticker) clearTimeout(this.ticker);
    this.ticker = live ? setTimeout(() => {
      this.ticker = undefined;
      this.refresh();
    }, msToNextTick(live)) : undefined;
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getTreeItem(element: JobsNode): vscode.TreeItem {
    return element;
  }

  getChildren(element?: JobsNode): JobsNode[] {
    if (element instanceof BatchGroupItem) {
      const now = Date.now();
      return element.group.jobs().map((r) => {
        const item = new JobItem(r, false, undefined, now);
        item.command = element.group.open(r);
        return item;
      });
    }
    if (element) return [];
    this.drawn.clear();
    const now = Date.now();
    let live: JobRecord | undefined;
    // A batch job opened once is in the history too: it is listed under its batch only.
    const singles = this.batches ? this.history.all().filter((r) => !r.key.startsWith('batch:')) : this.history.all();
    const items: Array<{ at: number; node: JobsNode }> = singles.map((r) => {
      const running = this.isRunning(r.key);
      this.drawn.set(r.key, drawnFacts(r, running));
      const item = new JobItem(r, running, this.retryWait(r.key), now);
      if (!live && running && describeJob(r, now).live) live = r;
      return { at: r.submittedAt, node: item };
    });
    // Stops with the last live job's final state.
    this.tick(live);
    // The history's order (newest first) kept; each batch goes before the first job older than it.
    const groups = [...(this.batches?.groups() ?? [])].sort((a, b) => b.startedAt - a.startedAt);
    const nodes: JobsNode[] = [];
    for (const i of items) {
      while (groups.length && groups[0]!.startedAt >= i.at) nodes.push(new BatchGroupItem(groups.shift()!));
      nodes.push(i.node);
    }
    for (const g of groups) nodes.push(new BatchGroupItem(g));
    return nodes;
  }

  getParent(): undefined {
    return undefined;
  }
}

/** The facts of a record its item shows (its live "so far" ticks on the view's own timer). */
function drawnFacts(record: JobRecord, running: boolean): string {
  return JSON.stringify([record.status, running, record.jobId, record.finishedAt, record.delayTime, record.executionTime, record.attempt, record.submittedAt, record.thumbnail, record.error, record.endpointId, record.jobCost, record.cost]);
}

function formatWhen(epochMs: number): string {
  const d = new Date(epochMs);
  const today = new Date();
  return d.toDateString() === today.toDateString() ? d.toLocaleTimeString() : d.toLocaleString();
}

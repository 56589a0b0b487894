// The "Jobs" view in the sidebar: this workspace's job history, newest first, each with its status, endpoint
// and duration, and the saved PNG as its icon where there is one. Clicking opens the job's panel from disk.
import * as vscode from 'vscode';
import { JobCommands } from '../jobs/commandIds';
import { durationMs, isFinished, LocalStatus, statusWords, type JobRecord } from '../jobs/jobRecord';
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
  constructor(readonly record: JobRecord, running: boolean, retryWait?: WaitLike) {
    super(record.endpointId, vscode.TreeItemCollapsibleState.None);
    this.id = record.key;
    const status = statusWords(record.status);
    const duration = formatDuration(durationMs(record));
    // A job the service has finished but whose outputs are still being written is not "so far" any more.
    const progress = running && record.status !== LocalStatus.saving ? `${duration} so far` : duration;
    // A poll waiting before its retry says so first (issue 12), counting down with the view's refresh.
    const waiting = running && retryWait ? `${retryWaitText(retryWait)} · ` : '';
    this.description = `${waiting}${status} · ${progress} · ${formatWhen(record.submittedAt)}`;
    // A job whose outputs are being saved offers no "Stop waiting": the service already ended it.
    // Finished: `.retryable` for a FAILED / TIMED_OUT job the service knows (Retry), `.stopped` for one only no
    // longer followed (Cancel Job can still end it there); the manifest's menus key on these.
    const finishedKind =
      record.jobId && (record.status === 'FAILED' || record.status === 'TIMED_OUT') ? 'serverlessGpu.job.retryable'
        : record.jobId && record.status === LocalStatus.stopped ? 'serverlessGpu.job.stopped'
          : 'serverlessGpu.job';
    this.contextValue = !running ? finishedKind : record.status === LocalStatus.saving ? 'serverlessGpu.job.saving' : 'serverlessGpu.job.running';
    const tip = new vscode.MarkdownString(undefined, true);
    tip.isTrusted = false;
    tip.supportHtml = false;
    tip.appendText(`${record.endpointId} · ${record.status}\n`);
    if (record.jobId) tip.appendText(`job ${record.jobId}\n`);
    tip.appendText(`${record.mode} · started ${new Date(record.submittedAt).toLocaleString()}\n`);
    if (record.error) tip.appendText(`\n${record.error.slice(0, 500)}`);
    this.tooltip = tip;
    if (record.thumbnail) {
      // The saved PNG itself as the thumbnail: a local file, never a remote URL.
      this.iconPath = vscode.Uri.parse(record.thumbnail);
    } else if (running || !isFinished(record)) {
      this.iconPath = new vscode.ThemeIcon('sync~spin');
    } else {
      const [icon, color] = STATUS_ICONS[record.status] ?? ['circle-outline'];
      this.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    }
    this.command = { command: JobCommands.openJob, title: 'Open Job', arguments: [record.key] };
    this.accessibilityInformation = { label: `${record.endpointId}, ${status}, ${duration}` };
  }
}

export class JobsTreeProvider implements vscode.TreeDataProvider<JobItem>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<JobItem | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  /** What each item showed when last drawn: a change to anything else (streamed text, why it waits) redraws nothing. */
  private readonly drawn = new Map<string, string>();

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

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getTreeItem(element: JobItem): vscode.TreeItem {
    return element;
  }

  getChildren(element?: JobItem): JobItem[] {
    if (element) return [];
    this.drawn.clear();
    return this.history.all().map((r) => {
      const running = this.isRunning(r.key);
      this.drawn.set(r.key, drawnFacts(r, running));
      return new JobItem(r, running, this.retryWait(r.key));
    });
  }

  getParent(): undefined {
    return undefined;
  }
}

/** The facts of a record its item shows (the duration ticks on redraws only, as before). */
function drawnFacts(record: JobRecord, running: boolean): string {
  return JSON.stringify([record.status, running, record.jobId, record.finishedAt, record.thumbnail, record.error, record.endpointId]);
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  // Rounded once, before the split: rounding only the seconds read 119.6 s as "1 min 60 s".
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

function formatWhen(epochMs: number): string {
  const d = new Date(epochMs);
  const today = new Date();
  return d.toDateString() === today.toDateString() ? d.toLocaleTimeString() : d.toLocaleString();
}

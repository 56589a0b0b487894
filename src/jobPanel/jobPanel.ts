// The job panel host: one webview panel per job, opened when a job starts or from the history, updated
// from the history store as the job moves, and restored after a reload by the serializer from the job's
// record and its saved job.json. It is a room (dist/rooms.js, src/rooms): loaded when a job's panel is first
// opened or restored. It never talks to the service: "Run again", "Cancel", "Retry" and "Stop
// waiting" go to the runner's commands.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { ErrorAction } from '../errors/describeError';
import type { WaitLike } from '../errors/retryWaitText';
import type { HistoryStore } from '../history/historyStore';
import { JOB_PANEL_VIEW_TYPE } from '../jobs/commandIds';
import { describeJob } from '../core/jobs/jobLife';
import { isFinished, JobRecord } from '../jobs/jobRecord';
import { renderWebviewHtml, webviewOptions } from '../webview/html';
import { WebviewChannel } from '../webview/messages';
import { abbreviate, toPanelJob } from './panelModel';
import { actOnOutput } from './outputActions';
import { fileSize, MAX_FILE_BYTES_IN_MESSAGE, readJobJson, readWholeFile, recordFromJobJson } from './savedJobFiles';
import { HostMessage, type PanelJob, PanelState, WebviewMessage } from './protocol';

export interface PanelActions {
  runAgain(record: JobRecord): Promise<unknown>;
  runWithSeed(record: JobRecord, seed: number): Promise<unknown>;
  /** Stop Waiting. */
  cancel(key: string): void;
  /** Cancel Job (POST /cancel). */
  cancelJob(key: string): void;
  retry(key: string): void;
  isRunning(key: string): boolean;
  errorActions(key: string): ErrorAction[];
  /** Folders outputs are saved under: the webview may load files from these only. */
  outputRoots(): vscode.Uri[];
  /** The wait before the next retry of this job's request, while there is one (issue 12). */
  retryWait(key: string): WaitLike | undefined;
  /** A job's wait began, ticked or ended. */
  onDidChangeWaits: vscode.Event<void>;
  /** The lines of the worker that runs the job (hosted worker logs, issue 28), and when they grow. */
  workerLogs?(key: string): readonly string[] | undefined;
  onDidChangeWorkerLogs?: vscode.Event<string>;
}

interface OpenPanel {
  panel: vscode.WebviewPanel;
  channel: WebviewChannel<WebviewMessage, HostMessage>;
  key: string;
  /** The saved job.json with its long strings (base64 images) already cut: all the panel shows of it. */
  jobJson?: unknown;
  last?: PanelJob;
  /** The saved media files the page is to be sent as bytes, by their `src`. */
  files: Map<string, vscode.Uri>;
  /** The `src` of each file sent to the current page (its bytes are not kept here: one send per page). */
  sentFiles: Set<string>;
  /** Files that could not be read when their turn came: the page loads them from `src` instead. */
  unreadable: Set<string>;
  /** Counts the page's `ready`s: a file sent to an earlier page does not count as sent to this one. */
  page: number;
  /** A sendFiles loop is running; `filesChanged` asks it to look again before it ends. */
  sending: boolean;
  /** Counts update() calls: only the latest may post (see update). */
  generation: number;
}

export class JobPanels implements vscode.Disposable {
  private readonly panels = new Map<string, OpenPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly postEmitter = new vscode.EventEmitter<{ key: string; job: PanelJob }>();
  /** A job's state was posted to its page (the real-editor tests check each one against the disk). */
  readonly onDidPost = this.postEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly history: HistoryStore,
    private readonly actions: PanelActions,
    private readonly logger: Logger,
  ) {
    this.subscriptions.push(
      history.onDidChange((record) => {
        if (record) void this.update(record.key);
        else for (const key of this.panels.keys()) void this.update(key);
      }),
      // Posted when a wait begins or ends only: the page counts the seconds down itself.
      actions.onDidChangeWaits(() => {
        for (const open of this.panels.values()) {
          if (this.actions.retryWait(open.key)?.until !== open.last?.retryWait?.until) void this.update(open.key);
        }
      }),
      ...(actions.onDidChangeWorkerLogs ? [actions.onDidChangeWorkerLogs((key) => void this.update(key))] : []),
    );
  }

  dispose(): void {
    for (const p of this.panels.values()) p.panel.dispose();
    this.panels.clear();
    for (const s of this.subscriptions) s.dispose();
    this.postEmitter.dispose();
  }

  /** Opens (or reveals) the panel of a job. */
  open(key: string, options: { preserveFocus?: boolean } = {}): void {
    const existing = this.panels.get(key);
    if (existing) {
      existing.panel.reveal(undefined, options.preserveFocus);
      return;
    }
    const record = this.history.get(key);
    const panel = vscode.window.createWebviewPanel(
      JOB_PANEL_VIEW_TYPE,
      titleOf(record),
      // Beside the input file when one is open; with no editor open, "beside" nothing leaves the webview
      // waiting in an empty group (seen in code-server), so it takes the active group instead.
      vscode.window.activeTextEditor
        ? { viewColumn: vscode.ViewColumn.Beside, preserveFocus: options.preserveFocus ?? false }
        : { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      webviewOptions(this.extensionUri, ...this.actions.outputRoots()),
    );
    this.attach(panel, key);
  }

  /** The job whose panel is the active editor (Compare with… from the panel's title bar starts from it). */
  activeKey(): string | undefined { return [...this.panels].find(([, open]) => open.panel.active)?.[0]; }

  isVisible(key: string): boolean { return this.panels.get(key)?.panel.visible ?? false; }

  /** True once the job's webview has said `ready` (its script runs and listens). */
  isReady(key: string): boolean {
    return this.panels.get(key)?.channel.isReady ?? false;
  }

  /** The latest state of a job's panel, sent or being sent (used by the real-editor tests). */
  lastSent(key: string): PanelJob | undefined {
    return this.panels.get(key)?.last;
  }

  /** The `src` of each saved file whose bytes the job's current page has been sent (used by the real-editor tests). */
  sentFiles(key: string): string[] {
    return [...(this.panels.get(key)?.sentFiles ?? [])];
  }

  openKeys(): string[] { return [...this.panels.keys()]; }

  /** Reattaches a panel after a reload (the serializer, registered at activation by registerJobs.ts, calls this with the webview's saved state). */
  async restore(panel: vscode.WebviewPanel, rawState: unknown): Promise<void> {
    const state = PanelState.safeParse(rawState);
    if (!state.success) {
      panel.dispose();
      return;
    }
    const key = state.data.key;
    if (!this.history.get(key)) {
      // The history no longer has it (cleared, or capped): rebuild the record from the saved job.json.
      const record = await recordFromJobJson(state.data.job?.outputsFolder, key);
      if (!record) {
        panel.dispose();
        return;
      }
      await this.history.upsert(record);
    }
    panel.webview.options = webviewOptions(this.extensionUri, ...this.actions.outputRoots());
    this.attach(panel, key);
  }

  private attach(panel: vscode.WebviewPanel, key: string): void {
    const open: OpenPanel = {
      panel,
      key,
      files: new Map(),
      sentFiles: new Set(),
      unreadable: new Set(),
      page: 0,
      sending: false,
      generation: 0,
      channel: new WebviewChannel<WebviewMessage, HostMessage>(panel.webview, WebviewMessage, (m) => this.onMessage(key, m), this.logger, HostMessage),
    };
    this.panels.set(key, open);
    const record = this.history.get(key);
    panel.webview.html = renderWebviewHtml({
      webview: panel.webview,
      extensionUri: this.extensionUri,
      title: 'Job',
      script: ['dist', 'webview', 'jobPanel.js'],
      styles: [['media', 'jobPanel', 'style.css']],
      // Saved outputs are shown from their bytes (see PanelOutput's sentAsBytes), as blob: URLs the page makes.
      imgSrc: ['blob:'],
      mediaSrc: ['blob:'],
      // The job as it stands, so the first paint is not blank until `ready` has made its round trip.
      ...(record ? { initialState: this.panelJob(open, record) } : {}),
    });
    panel.onDidDispose(() => {
      open.channel.dispose();
      this.panels.delete(key);
    });
    void this.update(key);
  }

  private async update(key: string): Promise<void> {
    const open = this.panels.get(key);
    const record = this.history.get(key);
    if (!open || !record) return;
    // Updates overlap (each may wait for file reads): one started later has the newer record, so an earlier
    // one still waiting gives way to it and never posts an older state after a newer one.
    const generation = ++open.generation;
    // A retried job moves again: the job.json of its failed attempt is no longer what it is.
    if (!isFinished(record)) open.jobJson = undefined;
    // The panel may also have been closed meanwhile: never post to a disposed webview.
    const superseded = (): boolean => this.panels.get(key) !== open || open.generation !== generation;
    if (open.jobJson === undefined && isFinished(record) && record.outputsFolder) {
      // Kept cut: the full text of base64 images is the panel's to show only as "N characters".
      const jobJson = await readJobJson(record.outputsFolder);
      if (superseded()) return;
      if (jobJson !== undefined) open.jobJson = abbreviate(jobJson);
    }
    const job = this.panelJob(open, record);
    open.last = job;
    const files = await this.markFilesSentAsBytes(open, record, job);
    if (superseded()) return;
    open.files = files;
    open.panel.title = titleOf(record);
    open.channel.post({ type: 'job', job });
    this.postEmitter.fire({ key, job });
    void this.sendFiles(open);
  }

  /** What the page shows of `record`: rendered from the record, never worked out here. */
  private panelJob(open: OpenPanel, record: JobRecord): PanelJob {
    const roots = this.actions.outputRoots().map((r) => r.toString());
    return toPanelJob(record, {
      webview: open.panel.webview,
      running: this.actions.isRunning(open.key),
      retryWait: this.actions.retryWait(open.key),
      errorActions: this.actions.errorActions(open.key),
      workerLogs: this.actions.workerLogs?.(open.key),
      jobJson: open.jobJson ?? (isFinished(record) ? undefined : { input: record.input }),
      isAllowedFile: (uri) => roots.some((r) => uri.toString().startsWith(`${r}/`)),
    });
  }

  /**
   * Marks each shown image, audio and video that the page is to get as bytes (PanelOutput's sentAsBytes says
   * why), and returns their files by `src`. A file too big, not there (yet) or found unreadable keeps `src`.
   */
  private async markFilesSentAsBytes(open: OpenPanel, record: JobRecord, job: PanelJob): Promise<Map<string, vscode.Uri>> {
    const files = new Map<string, vscode.Uri>();
    for (const [i, output] of job.outputs.entries()) {
      const file = record.outputs[output.index]?.file;
      if ((output.kind !== 'image' && output.kind !== 'video' && output.kind !== 'audio') || !output.src || !file) continue;
      if (open.unreadable.has(output.src)) continue;
      const uri = vscode.Uri.parse(file);
      if (!open.sentFiles.has(output.src) && !open.files.has(output.src)) {
        const size = await fileSize(uri);
        if (size === undefined || size > MAX_FILE_BYTES_IN_MESSAGE) continue;
      }
      files.set(output.src, uri);
      job.outputs[i] = { ...output, sentAsBytes: true };
    }
    return files;
  }

  /**
   * Sends the page the bytes of each file it is to get and has not got: one file per message, each read just
   * before it is sent and let go once VS Code has taken it, so the extension host never holds every output
   * (or a copy of them all in one message) at once (issue 11). One loop per panel at a time.
   */
  private async sendFiles(open: OpenPanel): Promise<void> {
    if (open.sending) return;
    open.sending = true;
    try {
      for (;;) {
        if (this.panels.get(open.key) !== open || !open.channel.isReady) return;
        const next = [...open.files].find(([src]) => !open.sentFiles.has(src) && !open.unreadable.has(src));
        if (!next) return;
        const [src, uri] = next;
        const page = open.page;
        const bytes = await readWholeFile(uri);
        if (this.panels.get(open.key) !== open) return;
        if (!bytes) {
          // The page is told again, this time to load it from src rather than wait for bytes that never come.
          open.unreadable.add(src);
          void this.update(open.key);
          continue;
        }
        const delivered = await open.channel.postNow({ type: 'file', src, bytes });
        if (!delivered) return; // gone, or not ready: the next `ready` starts over
        if (page === open.page) open.sentFiles.add(src);
      }
    } finally {
      open.sending = false;
    }
  }

  private async onMessage(key: string, message: WebviewMessage): Promise<void> {
    const record = this.history.get(key);
    if (!record || message.type === 'ready') {
      if (message.type === 'ready') {
        // A new page (first load, or reloaded after hiding): it has none of the files yet.
        const open = this.panels.get(key);
        if (open) {
          open.page++;
          open.sentFiles.clear();
        }
        await this.update(key);
      }
      return;
    }
    const output = 'index' in message ? record.outputs[message.index] : undefined;
    const outputUri = output?.file ? vscode.Uri.parse(output.file) : undefined;
    switch (message.type) {
      case 'openInput':
        if (record.inputFile) await vscode.window.showTextDocument(vscode.Uri.parse(record.inputFile), { viewColumn: vscode.ViewColumn.One });
        return;
      case 'openOutputsFolder':
        if (record.outputsFolder) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.parse(record.outputsFolder));
        return;
      case 'runAgain':
        await this.actions.runAgain(record);
        return;
      case 'runWithSeed':
        await this.actions.runWithSeed(record, message.seed);
        return;
      case 'cancel':
        this.actions.cancel(key);
        return;
      case 'cancelJob':
        this.actions.cancelJob(key);
        return;
      case 'retry':
        this.actions.retry(key);
        return;
      case 'errorAction': {
        const action = this.actions.errorActions(key)[Number(message.id)];
        if (action) await vscode.commands.executeCommand(action.command, ...(action.args ?? []));
        return;
      }
      case 'openOutput':
      case 'openExternally':
      case 'saveAs':
      case 'copySeed':
        await actOnOutput(message, outputUri);
        return;
    }
  }
}

function titleOf(record: JobRecord | undefined): string {
  if (!record) return 'Job';
  return `${record.endpointId} · ${describeJob(record).statusText}`;
}

// What the user sees of a running batch besides its table: the progress notification (counts, the wait or the
// pause, a Cancel that cancels the batch), the question when a guard pauses it (spend limit, failure streak,
// 401/403), and the panel's buttons: open a row's job panel, Cancel Batch, Resume, Retry Failed, Export CSV.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { HistoryStore } from '../history/historyStore';
import { loadCompare } from '../compare/registerCompare';
import { BatchPanel, type BatchPanelActions } from './batchPanel';
import { recordOfRow } from './batchJobRecord';
import type { BatchSession } from './batchSession';
import { endText, progressText, spentText } from './batchSummary';
import { askToCancel, askToRetry, CANCEL_BATCH, exportCsv, modalConfirm, type Confirm } from './batchQuestions';

export interface BatchUiDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  history: HistoryStore;
  panels: { open(key: string, options?: { preserveFocus?: boolean }): void };
}

export const RAISE_AND_RESUME = 'Double the Limit and Resume';
export const RESUME = 'Resume';
export { CANCEL_BATCH, EXPORT_TITLE } from './batchQuestions';
export const SEND_AGAIN = 'Send Them Again';
export const LEAVE_THEM = 'Leave Them';

export class BatchUi implements vscode.Disposable, BatchPanelActions {
  private readonly panels = new Map<BatchSession, BatchPanel>();
  /** Rows whose job panel was opened: their history record follows the row. */
  private readonly opened = new Map<BatchSession, Set<number>>();
  private readonly subscriptions: vscode.Disposable[] = [];

  /** How Send and Cancel Batch are asked: a modal (tests answer it themselves). */
  confirm: Confirm = modalConfirm;

  constructor(private readonly d: BatchUiDeps) {}

  dispose(): void {
    for (const p of this.panels.values()) p.panel.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }

  panelOf(session: BatchSession): BatchPanel | undefined {
    return this.panels.get(session);
  }

  /** Opens (or reveals) the batch's panel; the first time, also listens for its pauses. `restored`: after a reload. */
  show(session: BatchSession, restored?: vscode.WebviewPanel): BatchPanel {
    const existing = this.panels.get(session);
    if (existing) {
      restored?.dispose();
      existing.reveal();
      return existing;
    }
    if (!this.opened.has(session)) {
      this.opened.set(session, new Set());
      this.subscriptions.push(
        session.onDidPause((e) => void this.askOnPause(session, e.reason, e.message, e.id)),
        session.onDidChangeRow((row) => {
          if (this.opened.get(session)?.has(row.index)) void this.d.history.upsert(recordOfRow(session, row));
        }),
      );
    }
    const panel = new BatchPanel(this.d.extensionUri, session, this, this.d.logger, restored);
    panel.onDidClose(() => this.panels.delete(session));
    this.panels.set(session, panel);
    return panel;
  }

  /** The progress notification while `work` runs; its Cancel cancels the batch. */
  follow(session: BatchSession, work: Promise<void>): void {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Batch ${session.o.title}`, cancellable: true }, async (progress, token) => {
      // The notification's Cancel asks first too; kept running, the progress is shown again.
      token.onCancellationRequested(() => void askToCancel(session, this.confirm).then((yes) => (yes ? void session.cancel() : this.follow(session, session.untilIdle()))));
      let shown = 0;
      // The session's reading of this beat, the very one the panel's header shows (never a counting of its own).
      const update = (): void => {
        const s = session.snapshot;
        progress.report({ increment: s.tally.total ? ((s.tally.done - shown) / s.tally.total) * 100 : 0, message: progressText(s) });
        shown = s.tally.done;
      };
      const listener = session.onDidChangeSnapshot(update);
      update();
      try {
        await work;
      } catch (e) {
        this.d.logger.error(e instanceof Error ? e : String(e));
        void vscode.window.showErrorMessage(`The batch stopped: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        listener.dispose();
      }
      if (session.finished) void vscode.window.showInformationMessage(endText(session.o.title, session.endpointId, session.snapshot.tally, session.notice));
      if (session.finished) void this.askAboutUnknown(session);
    });
  }

  /**
   * Jobs whose /run answer was lost (a dropped connection, a window killed while it was on its way) may or may
   * not exist on the service, and nothing can look them up: the batch never sends them again by itself (a
   * duplicate costs money). Asked once the rest is done, so the user decides with the whole picture.
   */
  private async askAboutUnknown(session: BatchSession): Promise<void> {
    const unknown = session.unknownRows();
    if (unknown.length === 0) return;
    const jobs = unknown.length === 1 ? '1 job' : `${unknown.length} jobs`;
    const choice = await vscode.window.showWarningMessage(
      `Batch ${session.o.title}: ${jobs} may or may not have been created on ${session.endpointId} (the answer to /run was lost), so ${unknown.length === 1 ? 'it was' : 'they were'} not sent again. Sending again may run and bill ${unknown.length === 1 ? 'it' : 'them'} twice.`,
      SEND_AGAIN,
      LEAVE_THEM,
    );
    if (choice === SEND_AGAIN) this.follow(session, session.resendUnknown());
  }

  openRow(session: BatchSession, index: number): void {
    const row = session.rows().find((r) => r.index === index);
    if (!row?.jobId) {
      void vscode.window.showInformationMessage(row?.error ?? 'This job has not been sent yet.');
      return;
    }
    this.opened.get(session)?.add(index);
    const record = recordOfRow(session, row);
    void this.d.history.upsert(record).then(() => this.d.panels.open(record.key));
  }

  /** Two rows selected in the panel, side by side: the inputs they ran (this window read them), outputs, costs. */
  compareRows(session: BatchSession, a: number, b: number, gridInputs?: (index: number) => Record<string, unknown> | undefined): void {
    const rows = session.rows();
    const ra = rows.find((r) => r.index === a);
    const rb = rows.find((r) => r.index === b);
    if (!ra || !rb) return;
    // The grid read the inputs from the manifest's source (a batch of an earlier window has no items in memory).
    const inputOf = (index: number): Record<string, unknown> | undefined => gridInputs?.(index) ?? session.o.items.find((i) => i.index === index)?.input;
    void loadCompare()
      .then((room) => room.compareRows(this.d, session.manifestPath, [ra, rb], inputOf, (row) => this.openRow(session, row.index)))
      .catch((e: unknown) => void vscode.window.showErrorMessage(`The two jobs could not be compared: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** The panel's Cancel Batch: asks first (it stops every job left). */
  cancel(session: BatchSession): void {
    void askToCancel(session, this.confirm).then((yes) => (yes ? session.cancel() : undefined));
  }

  /** How the Resume of a batch of an earlier window goes (BatchManager.resume: it asks first); set by the manager. */
  resumePast: ((manifestPath: string) => Promise<unknown>) | undefined;

  resume(session: BatchSession): void {
    if (session.o.readOnly) {
      void this.resumePast?.(session.manifestPath).catch((e: unknown) => void vscode.window.showErrorMessage(`The batch was not resumed: ${e instanceof Error ? e.message : String(e)}`));
      return;
    }
    const following = session.running;
    session.resume();
    // Nothing was being followed (everything had ended): the end is said as any batch's end is.
    if (!following) this.follow(session, session.untilIdle());
  }

  /** The panel's Retry Failed: asks first (every retry runs and is billed again). */
  retryFailed(session: BatchSession): void {
    void askToRetry(session, this.confirm).then((yes) => (yes ? this.follow(session, session.retryFailed()) : undefined));
  }

  exportCsv(session: BatchSession): void {
    void exportCsv(session).catch((e: unknown) => void vscode.window.showErrorMessage(`The CSV was not written: ${e instanceof Error ? e.message : String(e)}`));
  }

  /**
   * A guard paused the batch: say why and offer the ways on, while that pause is still on (the batch's life says:
   * a batch resumed, cancelled or finished meanwhile is asked nothing). A pause from the panel needs no question.
   * The spend limit's question waits for the jobs already on the service to end, so the amount it names is the
   * batch's cost, the one the header and the notification show from then on.
   */
  private async askOnPause(session: BatchSession, reason: string, message: string, id: number): Promise<void> {
    if (reason === 'user') return;
    const spend = reason === 'spend' || reason === 'spendPerHour';
    const life = session.runner.life;
    if (spend) await untilSnapshot(session, (s) => s.tally.running === 0 || !life.mayAsk(id));
    if (!life.mayAsk(id)) return;
    const choices = spend ? [RAISE_AND_RESUME, CANCEL_BATCH] : [RESUME, CANCEL_BATCH];
    const cost = spend ? ` ${spentText(session.snapshot.tally)}.` : '';
    const choice = await vscode.window.showWarningMessage(`Batch ${session.o.title} paused: ${message}${cost}`, ...choices);
    if (!life.mayAsk(id)) return;
    if (choice === CANCEL_BATCH) void session.cancel(); // the answer to a question: not asked again
    else if (choice === RESUME) session.resume();
    else if (choice === RAISE_AND_RESUME) {
      const g = session.limits;
      session.resume({ ...g, ...(g.maxUsd !== undefined ? { maxUsd: g.maxUsd * 2 } : {}), ...(g.maxUsdPerHour !== undefined ? { maxUsdPerHour: g.maxUsdPerHour * 2 } : {}) });
    }
  }
}

/** Resolves at the first reading of the batch (now, or a later beat) that passes `ok`. */
function untilSnapshot(session: BatchSession, ok: (s: BatchSession['snapshot']) => boolean): Promise<void> {
  if (ok(session.snapshot)) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = session.onDidChangeSnapshot((s) => {
      if (!ok(s)) return;
      listener.dispose();
      resolve();
    });
  });
}

// The batch's questions that must not be missed (issue 27 "Asked, not lost"): Cancel Batch asks first, in a modal
// that says how many jobs it stops and how many completed ones are kept; Retry Failed asks first too (it spends:
// each job runs and is billed again), naming how many and, when the batch knows, about how much; an exported CSV
// says where it went.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatUsd } from '../core/billing/usd';
import { nextJobUsd } from '../core/batch/guards';
import type { BatchSession } from './batchSession';

export const CANCEL_BATCH = 'Cancel Batch';
export const RETRY_FAILED = 'Retry Failed';
export const KEEP_RUNNING = 'Keep Running';
export const EXPORT_TITLE = 'Export the Batch Table as CSV';
export const OPEN_CSV = 'Open CSV';

/** A modal question with one action; true when the user chose it. Tests answer it (VS Code refuses modals to them). */
export type Confirm = (message: string, detail: string, action: string) => Promise<boolean>;

export const modalConfirm: Confirm = async (message, detail, action) =>
  (await vscode.window.showWarningMessage(message, { modal: true, ...(detail ? { detail } : {}) }, { title: action }, { title: action === CANCEL_BATCH ? KEEP_RUNNING : 'Not Now', isCloseAffordance: true }))?.title === action;

/** "Cancel 31 jobs on flux-dev? 9 completed are kept.": true when the user chose to cancel. */
export async function askToCancel(session: BatchSession, confirm: Confirm): Promise<boolean> {
  const t = session.tally();
  const stops = t.running + t.notSent;
  const completed = session.rows().filter((r) => r.phase === 'ended' && r.status === 'COMPLETED').length;
  const jobs = stops === 1 ? '1 job' : `${stops} jobs`;
  const kept = completed === 1 ? '1 completed is kept' : `${completed} completed are kept`;
  // Retry Failed runs failed jobs only (after a cancel too): it is promised only when there are some. The jobs this
  // stops are not run again by anything (Pause keeps them for a Resume): said so, rather than a promise the
  // disabled button then broke.
  const failed = t.failed === 0 ? '' : ` ${t.failed === 1 ? 'The failed job stays failed' : `The ${t.failed} failed stay failed`}: Retry Failed can run ${t.failed === 1 ? 'it' : 'them'} later.`;
  return confirm(
    `Cancel ${jobs} on ${session.endpointId}? ${kept}.`,
    `Jobs in the queue or running are cancelled on the service, and jobs not sent yet are not sent; none of them is run again (Pause keeps them for a Resume instead).${failed}`,
    CANCEL_BATCH,
  );
}

/**
 * "Run the 3 failed jobs again on flux-dev? About $0.12 more, at this batch's average job.": true when the user
 * chose to. The amount is the batch's own average priced job (nextJobUsd, as the spend guard counts it); a batch
 * with none priced yet names no amount rather than a guess.
 */
export async function askToRetry(session: BatchSession, confirm: Confirm): Promise<boolean> {
  const t = session.tally();
  const failed = t.failed;
  if (failed === 0) return false;
  const perJob = nextJobUsd(t, undefined, undefined);
  const jobs = failed === 1 ? 'the failed job' : `the ${failed} failed jobs`;
  const about = perJob > 0 ? ` About ${formatUsd(perJob * failed)} more, at this batch's average job.` : '';
  return confirm(
    `Run ${jobs} again on ${session.endpointId}?${about}`,
    `Each is sent again and billed again as it runs. The batch's spend limits still apply.`,
    RETRY_FAILED,
  );
}

/** Asks where, writes the table there, and says where it wrote it (with a way to open it). */
export async function exportCsv(session: BatchSession): Promise<void> {
  const target = await vscode.window.showSaveDialog({ title: EXPORT_TITLE, defaultUri: vscode.Uri.file(path.join(session.o.dir, 'batch.csv')), filters: { CSV: ['csv'] } });
  if (!target) return;
  const rows = session.tally().total;
  await writeFile(target.fsPath, session.csv(), 'utf8');
  const choice = await vscode.window.showInformationMessage(`Exported ${rows === 1 ? '1 job' : `${rows} jobs`} and their total to ${target.fsPath}`, OPEN_CSV);
  if (choice === OPEN_CSV) await vscode.window.showTextDocument(target);
}

// The compare room's host code, loaded on first use (registerCompare.ts imports it dynamically): picks the jobs,
// builds each side and opens the panel.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { JobRow } from '../core/batch';
import { lifeLine } from '../core/jobs/jobLife';
import type { Logger } from '../core/log';
import type { HistoryStore } from '../history/historyStore';
import type { JobRecord } from '../jobs/jobRecord';
import { ComparePanel } from './comparePanel';
import { sideOfRecord, sideOfRow, type CompareSide } from './compareSides';

export interface CompareDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  history: HistoryStore;
  panels: { open(key: string): void; activeKey(): string | undefined };
}

export function openCompare(d: Pick<CompareDeps, 'extensionUri' | 'logger'>, a: CompareSide, b: CompareSide): ComparePanel {
  return new ComparePanel(d.extensionUri, a, b, d.logger);
}

/**
 * Two jobs of one batch (two cells of the grid, two rows of the Batch panel): each side from its manifest row and
 * the input it ran (`inputOf`, undefined when the source is gone: its sweep values then stand for it).
 */
export async function compareRows(
  d: Pick<CompareDeps, 'extensionUri' | 'logger'>,
  manifestPath: string,
  rows: readonly [JobRow, JobRow],
  inputOf: (index: number) => Record<string, unknown> | undefined,
  open: (row: JobRow) => void,
): Promise<ComparePanel> {
  const dir = path.dirname(manifestPath);
  const [a, b] = await Promise.all(rows.map((r) => sideOfRow(r, inputOf(r.index), dir, () => open(r))));
  return openCompare(d, a!, b!);
}

/** A job of the history, picked by the user (none other than `except`). */
async function pickJob(d: CompareDeps, title: string, except?: string): Promise<JobRecord | undefined> {
  const items = d.history.all().filter((r) => r.key !== except).map((r) => ({
    label: `${r.endpointId} · ${lifeLine(r)}`,
    description: `${r.inputFile ? vscode.Uri.parse(r.inputFile).path.split('/').pop() : ''} ${new Date(r.submittedAt).toLocaleString()}`,
    detail: r.jobId,
    key: r.key,
  }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('There is no other job in this workspace\'s history to compare with.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, matchOnDetail: true });
  return picked && d.history.get(picked.key);
}

/**
 * Compare with…: `first` from the Jobs view, else the job of the active job panel (its title bar), else picked;
 * `second` given (tests) or picked.
 */
export async function compareJobs(d: CompareDeps, first?: string, second?: string): Promise<ComparePanel | undefined> {
  const from = first ?? d.panels.activeKey();
  const a = from ? d.history.get(from) : await pickJob(d, 'Compare: the first job');
  if (!a) return undefined;
  const b = second ? d.history.get(second) : await pickJob(d, `Compare ${a.endpointId} ${a.jobId ?? ''} with…`, a.key);
  if (!b) return undefined;
  return openCompare(d, await sideOfRecord(a, () => d.panels.open(a.key)), await sideOfRecord(b, () => d.panels.open(b.key)));
}

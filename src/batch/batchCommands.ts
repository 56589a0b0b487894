// The ways to start a batch: "Run Batch…" from the explorer (a folder, a .jsonl file, several selected input
// files) or the palette (asks which), and the CodeLens "Run all N lines" on a .jsonl file and "Run sweep (N jobs)"
// on an input file with a sweep block. Each turns into a BatchSource for the manager.
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { BatchSource } from '../core/batch';
// Straight from sweep.ts, not the barrel: this file is in dist/extension.js, the rest of core/batch in rooms.js.
import { expandSweep } from '../core/batch/sweep';
import { parseInputFile } from '../core/input/inputFile';
import type { BatchManager } from './batchManager';
import type { BatchSession } from './batchSession';

export const BatchCommands = {
  runBatch: 'serverlessGpu.runBatch',
  showBatch: 'serverlessGpu.showBatch',
} as const;

/** The source a command's arguments name: the explorer passes the clicked item and the whole selection. */
export async function sourceOf(uri: vscode.Uri | undefined, selection: readonly vscode.Uri[] | undefined): Promise<{ source: BatchSource; anchor: vscode.Uri } | undefined> {
  const files = (selection ?? []).filter((u) => u.scheme === 'file');
  if (files.length > 1) {
    const paths = files.map((u) => u.fsPath).filter((p) => p.endsWith('.json'));
    return paths.length ? { source: { kind: 'files', paths }, anchor: files[0]! } : undefined;
  }
  const one = uri ?? files[0];
  if (!one) return undefined;
  const isFolder = await stat(one.fsPath).then((s) => s.isDirectory(), () => false);
  if (isFolder) return { source: { kind: 'folder', path: one.fsPath }, anchor: one };
  if (one.fsPath.endsWith('.jsonl')) return { source: { kind: 'jsonl', path: one.fsPath }, anchor: one };
  return { source: { kind: 'files', paths: [one.fsPath] }, anchor: one };
}

/** The palette's "Run Batch…": which inputs, through the open dialogs. */
async function askForSource(): Promise<{ source: BatchSource; anchor: vscode.Uri } | undefined> {
  type Choice = vscode.QuickPickItem & { pick: () => Promise<readonly vscode.Uri[] | undefined> };
  const open = (o: vscode.OpenDialogOptions) => async () => vscode.window.showOpenDialog(o);
  const choices: Choice[] = [
    { label: '$(folder) A folder of *.input.json files…', pick: open({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Run Batch' }) },
    { label: '$(file) A .jsonl file (one input per line)…', pick: open({ canSelectMany: false, filters: { 'JSON Lines': ['jsonl'] }, openLabel: 'Run Batch' }) },
    { label: '$(files) Several input files…', pick: open({ canSelectMany: true, filters: { JSON: ['json'] }, openLabel: 'Run Batch' }) },
  ];
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && /\.(jsonl|json)$/.test(active.fsPath)) choices.unshift({ label: '$(play) The current file', description: vscode.workspace.asRelativePath(active), pick: async () => [active] });
  const chosen = await vscode.window.showQuickPick(choices, { title: 'Run Batch: which inputs?' });
  const uris = await chosen?.pick();
  if (!uris?.length) return undefined;
  return sourceOf(uris[0], uris);
}

/** `manager` loads the batch room (src/rooms) on first use; `sessions` are the window's batches without loading it. */
/** A batch the Jobs view lists (this window's or an earlier one's, from its manifest), as Show Batch Panel picks it. */
export interface ListedBatch {
  batchId: string;
  label: string;
  description: string;
  manifestPath?: string;
}

/** The batch a Jobs view row (its tree item's `group`) or a caller names: by its manifest, or by its id. */
/** The batch a Jobs view row names (its group), or a command's argument naming one. */
export function listedOf(arg: unknown): { batchId?: string; manifestPath?: string } | undefined {
  const g = typeof arg === 'object' && arg !== null && 'group' in arg ? (arg as { group: unknown }).group : arg;
  if (typeof g !== 'object' || g === null) return undefined;
  const { batchId, manifestPath } = g as { batchId?: unknown; manifestPath?: unknown };
  return { ...(typeof batchId === 'string' ? { batchId } : {}), ...(typeof manifestPath === 'string' ? { manifestPath } : {}) };
}

export function registerBatchCommands(manager: () => BatchManager, sessions: () => readonly BatchSession[], listed: () => Promise<readonly ListedBatch[]> = async () => []): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(BatchCommands.runBatch, async (uri?: unknown, selection?: unknown): Promise<BatchSession | undefined> => {
      const u = uri instanceof vscode.Uri ? uri : undefined;
      const list = Array.isArray(selection) ? selection.filter((x): x is vscode.Uri => x instanceof vscode.Uri) : undefined;
      const picked = u || list?.length ? await sourceOf(u, list) : await askForSource();
      return picked ? manager().start(picked.source, picked.anchor) : undefined;
    }),
    // A batch of this window, or of an earlier one (read-only, from its manifest): after a reload the Jobs view
    // listed past batches that nothing could reopen ("No batch in this window").
    vscode.commands.registerCommand(BatchCommands.showBatch, async (arg?: unknown) => {
      const named = listedOf(arg);
      const live = named && sessions().find((s) => s.batchId === named.batchId || s.manifestPath === named.manifestPath);
      if (live) return manager().ui.show(live) && live;
      if (named?.manifestPath) return manager().showPast(named.manifestPath);
      const open = sessions();
      const liveIds = new Set(open.map((s) => s.batchId));
      const items = [
        ...open.map((s) => ({ label: s.name, description: `${s.endpointId} · this window`, s, manifestPath: undefined as string | undefined })),
        ...(await listed()).filter((b) => b.manifestPath && !liveIds.has(b.batchId)).map((b) => ({ label: b.label, description: b.description, s: undefined, manifestPath: b.manifestPath })),
      ];
      if (items.length === 0) {
        void vscode.window.showInformationMessage('No batch in this workspace yet. Run Batch… starts one.');
        return undefined;
      }
      const picked = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: 'Which batch?' });
      if (picked?.s) return manager().ui.show(picked.s) && picked.s;
      return picked?.manifestPath ? manager().showPast(picked.manifestPath) : undefined;
    }),
  ];
}

/** "Run all N lines" on a .jsonl file; "Run sweep (N jobs)" on an input file with a sweep block. */
export class BatchCodeLensProvider implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const args = [document.uri];
    if (document.fileName.endsWith('.jsonl')) {
      const n = document.getText().split(/\r?\n/).filter((l) => l.trim() !== '').length;
      return n ? [new vscode.CodeLens(top, { title: `$(run-all) Run all ${n} lines`, tooltip: 'Send every line as a job (a batch), after checking them all', command: BatchCommands.runBatch, arguments: args })] : [];
    }
    const jobs = sweepJobs(document.getText());
    if (jobs === undefined) return [];
    const title = typeof jobs === 'number' ? `$(run-all) Run sweep (${jobs} jobs)` : '$(run-all) Run sweep';
    return [new vscode.CodeLens(top, { title, tooltip: typeof jobs === 'string' ? jobs : 'Send every combination of the sweep as a job (a batch)', command: BatchCommands.runBatch, arguments: args })];
  }
}

/** The number of jobs of a file's sweep; its problem in words; undefined without a sweep. */
export function sweepJobs(text: string): number | string | undefined {
  if (!text.includes('"sweep"')) return undefined;
  try {
    const parsed = parseInputFile(text, { allowSweep: true });
    if (!parsed.sweep) return undefined;
    return expandSweep(parsed.input, parsed.sweep).length;
  } catch (e) {
    // The cap is in the message that is about it ("makes more than 1000 jobs"), not after every other one.
    return e instanceof Error ? e.message : undefined;
  }
}

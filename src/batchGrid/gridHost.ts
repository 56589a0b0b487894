// The grid room's host code, loaded on first use (registerGrid.ts imports it dynamically): finds the batch, opens
// (or reveals) its grid panel, restores one after a reload, opens a cell's job and compares two cells.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MANIFEST_FILE, type JobRow } from '../core/batch';
import { isInside } from '../core/grid/gridCell';
import type { Logger } from '../core/log';
import type { BatchManager } from '../batch/batchManager';
import { loadCompare } from '../compare/registerCompare';
import { GridPanel, type GridPanelActions } from './gridPanel';
import { GridPageState } from './gridProtocol';

export interface GridDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  /** The batch manager (loads the batch room: the grid is only opened once a batch exists). */
  manager: () => BatchManager;
  /** The outputs folders: where finished batches are looked for. */
  outputRoots: () => vscode.Uri[];
}

const open = new Map<string, GridPanel>();

export async function showGrid(d: GridDeps, manifestPath?: string): Promise<GridPanel | undefined> {
  const target = manifestPath ?? (await pickBatch(d));
  if (!target) return undefined;
  const known = open.get(target);
  if (known) {
    known.reveal();
    return known;
  }
  const panel = new GridPanel(d.extensionUri, target, actions(d), d.logger);
  open.set(target, panel);
  panel.onDidClose(() => open.delete(target));
  return panel;
}

/**
 * A grid panel VS Code brought back after a reload (the serializer): the page's saved state names its batch.jsonl.
 * The state is the page's word, so the path is checked before anything is read or made readable by the webview:
 * a batch.jsonl inside a workspace folder or an outputs folder, still on disk. Anything else closes the panel.
 */
export async function restoreGrid(d: GridDeps, restored: vscode.WebviewPanel, state: unknown): Promise<GridPanel | undefined> {
  const parsed = GridPageState.safeParse(state ?? {});
  const manifest = parsed.success ? parsed.data.manifest : undefined;
  const target = manifest ? await allowedManifest(d, manifest) : undefined;
  if (!target) {
    d.logger.warn(`grid: a restored panel named no batch this workspace holds (${manifest ?? 'none'}): closed`);
    restored.dispose();
    return undefined;
  }
  const known = open.get(target);
  if (known) {
    restored.dispose();
    return known;
  }
  const panel = new GridPanel(d.extensionUri, target, actions(d), d.logger, restored);
  open.set(target, panel);
  panel.onDidClose(() => open.delete(target));
  return panel;
}

/** The manifest's real path when it is a batch.jsonl on disk inside a workspace folder or an outputs folder. */
async function allowedManifest(d: GridDeps, manifest: string): Promise<string | undefined> {
  if (!path.isAbsolute(manifest) || path.basename(manifest) !== MANIFEST_FILE) return undefined;
  const real = await realpath(manifest).catch(() => undefined);
  if (!real) return undefined;
  const roots = [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), ...d.outputRoots().map((u) => u.fsPath)];
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
  return realRoots.some((root) => isInside(real, root, path.sep)) ? manifest : undefined;
}

function actions(d: GridDeps): GridPanelActions {
  const openJob = (manifestPath: string, row: JobRow): void => {
    const session = d.manager().sessions.find((s) => s.manifestPath === manifestPath);
    if (session) return d.manager().ui.openRow(session, row.index);
    // A batch of an earlier window: the job's job.json, beside its outputs, says all the panel would.
    const folder = row.outputs?.[0] ? path.dirname(row.outputs[0]) : undefined;
    if (folder) void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(path.join(folder, 'job.json')));
    else void vscode.window.showInformationMessage(row.error ?? 'This job saved nothing yet.');
  };
  return {
    openJob,
    compare: (manifestPath, a, b, inputs) => {
      void (async () => (await loadCompare()).compareRows(d, manifestPath, [a, b], (i) => inputs.get(i), (r) => openJob(manifestPath, r)))().catch((e: unknown) => d.logger.warn(`grid: compare failed: ${String(e)}`));
    },
  };
}

/** The batches of this window first, then any batch.jsonl under the outputs folders. */
async function pickBatch(d: GridDeps): Promise<string | undefined> {
  const running = d.manager().sessions.map((s) => ({ label: s.name, description: s.endpointId, manifest: s.manifestPath }));
  const found = (await Promise.all(d.outputRoots().map((root) => vscode.workspace.findFiles(new vscode.RelativePattern(root, 'batches/*/batch.jsonl'), undefined, 200)))).flat();
  // The outputs roots may name one folder more than once (a workspace's own and the fallback): one item a batch.
  const unique = [...new Map(found.map((u) => [u.fsPath, u])).values()];
  const others = unique.filter((u) => !running.some((r) => r.manifest === u.fsPath)).map((u) => ({ label: path.basename(path.dirname(u.fsPath)), description: vscode.workspace.asRelativePath(u), manifest: u.fsPath }));
  const items = [...running, ...others];
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No batch in this workspace yet: run one with Run Batch…');
    return undefined;
  }
  if (items.length === 1) return items[0]!.manifest;
  return (await vscode.window.showQuickPick(items, { title: 'Show which batch as a grid?' }))?.manifest;
}

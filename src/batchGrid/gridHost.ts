// The grid room's host code, loaded on first use (registerGrid.ts imports it through the rooms bundle): finds the
// batch and opens (or reveals) its Batch panel in Grid mode (the grid is drawn in that page: src/batchGrid/gridView.ts
// is made by the panel), and restores a Batch panel after a reload from its page's state, checked first.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MANIFEST_FILE } from '../core/batch';
import { isInside } from '../core/grid/gridCell';
import type { Logger } from '../core/log';
import type { BatchManager } from '../batch/batchManager';
import type { BatchPanel } from '../batch/batchPanel';
import { BatchPanelState } from '../batch/batchProtocol';

export interface GridDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  /** The batch manager (loads the batch room: the grid is only opened once a batch exists). */
  manager: () => BatchManager;
  /** The outputs folders: where finished batches are looked for. */
  outputRoots: () => vscode.Uri[];
}

/**
 * Show Batch as Grid: the batch's Batch panel (this window's, or a batch of an earlier window reopened read-only,
 * as Show Batch Panel does) switched to its grid.
 */
export async function showGrid(d: GridDeps, manifestPath?: string): Promise<BatchPanel | undefined> {
  const target = manifestPath ?? (await pickBatch(d));
  if (!target) return undefined;
  const manager = d.manager();
  const session = await manager.showPast(target);
  const panel = session && manager.panelOf(session);
  panel?.showGrid();
  return panel;
}

/**
 * A Batch panel VS Code brought back after a reload (the serializer): the page's saved state names its batch.jsonl
 * (and keeps its view, rows or grid, and the grid's axes). The state is the page's word, so the path is checked
 * before anything is read or made readable by the webview: a batch.jsonl inside a workspace folder or an outputs
 * folder, still on disk. Anything else closes the panel. The batch reopens read-only (a batch that was running is
 * offered for resume as after any reload).
 */
export async function restoreBatchPanel(d: GridDeps, restored: vscode.WebviewPanel, state: unknown): Promise<BatchPanel | undefined> {
  const parsed = BatchPanelState.safeParse(state ?? {});
  const target = await checkedManifest(d, parsed.success ? parsed.data.manifest : undefined);
  if (!target) {
    restored.dispose();
    return undefined;
  }
  const manager = d.manager();
  const session = await manager.showPast(target, restored);
  return session && manager.panelOf(session);
}

/** A grid panel of an earlier version (its own webview, before issue 31): its batch's Batch panel, in Grid mode. */
export async function restoreOldGrid(d: GridDeps, restored: vscode.WebviewPanel, state: unknown): Promise<void> {
  const manifest = (state as { manifest?: unknown } | undefined)?.manifest;
  restored.dispose();
  const target = await checkedManifest(d, typeof manifest === 'string' ? manifest : undefined);
  if (target) await showGrid(d, target);
}

async function checkedManifest(d: GridDeps, manifest: string | undefined): Promise<string | undefined> {
  const target = manifest ? await allowedManifest(d, manifest) : undefined;
  if (!target) d.logger.warn(`batch panel: a restored panel named no batch this workspace holds (${manifest ?? 'none'}): closed`);
  return target;
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

// The batch grid (issue 31), wired: its command and the Batch panel's serializer only. The grid is drawn in the
// Batch panel's page; the command opens (or reveals) the batch's Batch panel in Grid mode, a batch of an earlier
// window read-only. The room's host code (gridHost.ts, the Batch panel, the manifest follower, the export) is loaded
// by `loadGrid` on first use, the seam the rooms bundle splits at. A Batch panel open when the window reloads is
// restored by the serializer (the page's state names its batch, its view and axes), which loads the room then.
import * as vscode from 'vscode';
import type { BatchPanel } from '../batch/batchPanel';
import type { GridDeps } from './gridHost';
import { rooms } from '../rooms/rooms';
import { listedOf } from '../batch/batchCommands';
import { BATCH_PANEL_VIEW_TYPE, OLD_GRID_VIEW_TYPE } from '../batch/batchViewType';

export const SHOW_GRID_COMMAND = 'serverlessGpu.showBatchGrid';

/** The grid room's host code, loaded once, on first use. */
export const loadGrid = async (): Promise<typeof import('./gridHost')> => rooms().grid;

/** What the serializer does with a Batch panel VS Code brought back after a reload (tests call it with states of their own). */
export async function restoreBatchPanel(deps: GridDeps, panel: vscode.WebviewPanel, state: unknown): Promise<BatchPanel | undefined> {
  return (await loadGrid()).restoreBatchPanel(deps, panel, state);
}

export function registerGrid(deps: GridDeps): vscode.Disposable[] {
  return [
    // A manifest's path (tests, the page of old), a batch row of the Jobs view, or nothing (the palette: which batch?).
    vscode.commands.registerCommand(SHOW_GRID_COMMAND, async (arg?: unknown) => (await loadGrid()).showGrid(deps, typeof arg === 'string' ? arg : listedOf(arg)?.manifestPath)),
    vscode.window.registerWebviewPanelSerializer(BATCH_PANEL_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state) => void (await restoreBatchPanel(deps, panel, state)) }),
    vscode.window.registerWebviewPanelSerializer(OLD_GRID_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state) => void (await loadGrid()).restoreOldGrid(deps, panel, state) }),
  ];
}

// The batch grid (issue 31), wired: its command only. The room's host code (gridHost.ts: the panel, the manifest
// follower, the export) is loaded by `loadGrid` on first use, the seam a lazy bundle can split at. The Batch panel's
// Grid button runs this command with its manifest's path. A grid open when the window reloads is restored by the
// serializer (the page's state names its batch), which loads the room then.
import * as vscode from 'vscode';
import type { GridDeps } from './gridHost';
import type { GridPanel } from './gridPanel';
import { rooms } from '../rooms/rooms';
import { GRID_VIEW_TYPE } from './gridViewType';

export const SHOW_GRID_COMMAND = 'serverlessGpu.showBatchGrid';

/** The grid room's host code, loaded once, on first use. */
export const loadGrid = async (): Promise<typeof import('./gridHost')> => rooms().grid;

/** What the serializer does with a panel VS Code brought back after a reload (tests call it with states of their own). */
export async function restoreGridPanel(deps: GridDeps, panel: vscode.WebviewPanel, state: unknown): Promise<GridPanel | undefined> {
  return (await loadGrid()).restoreGrid(deps, panel, state);
}

export function registerGrid(deps: GridDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(SHOW_GRID_COMMAND, async (manifestPath?: string) => (await loadGrid()).showGrid(deps, typeof manifestPath === 'string' ? manifestPath : undefined)),
    vscode.window.registerWebviewPanelSerializer(GRID_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state) => void (await restoreGridPanel(deps, panel, state)) }),
  ];
}

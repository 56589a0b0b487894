// What the panel's buttons on one saved output do: open it in the editor's own preview, open it outside the
// editor, save a copy, copy its seed. The file is always the saved local one the record names.
import * as vscode from 'vscode';
import type { WebviewMessage } from './protocol';

type OutputMessage = Extract<WebviewMessage, { type: 'openOutput' | 'openExternally' | 'saveAs' | 'copySeed' }>;

export async function actOnOutput(message: OutputMessage, outputUri: vscode.Uri | undefined): Promise<void> {
  switch (message.type) {
    case 'openOutput':
      // VS Code's own image preview (and its players) for the saved file.
      if (outputUri) await vscode.commands.executeCommand('vscode.open', outputUri, vscode.ViewColumn.Active);
      return;
    case 'openExternally':
      if (outputUri) {
        const opened = await vscode.env.openExternal(outputUri);
        if (!opened) await vscode.commands.executeCommand('revealInExplorer', outputUri);
      }
      return;
    case 'saveAs': {
      if (!outputUri) return;
      const name = outputUri.path.slice(outputUri.path.lastIndexOf('/') + 1);
      const base = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.joinPath(outputUri, '..');
      const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(base, name), title: 'Save output as' });
      if (target) {
        await vscode.workspace.fs.copy(outputUri, target, { overwrite: true });
        void vscode.window.showInformationMessage(`Saved ${vscode.workspace.asRelativePath(target)}`);
      }
      return;
    }
    case 'copySeed':
      await vscode.env.clipboard.writeText(String(message.seed));
      void vscode.window.setStatusBarMessage(`Seed ${message.seed} copied`, 3000);
      return;
  }
}

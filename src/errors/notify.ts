// Shows a described error as a notification whose buttons run its actions: the notification counterpart of
// the tree's error item, for commands that have no view to put the error in.
import * as vscode from 'vscode';
import type { ErrorDescription } from './describeError';

export async function showErrorNotification(d: ErrorDescription, severity: 'error' | 'warning' = 'error'): Promise<void> {
  const show = severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const choice = await show(d.message, ...d.actions.map((a) => a.title));
  const action = d.actions.find((a) => a.title === choice);
  if (action) await vscode.commands.executeCommand(action.command, ...(action.args ?? []));
}

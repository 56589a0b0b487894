// Shows a described error as a notification whose buttons run its actions: the notification counterpart of
// the tree's error item, for commands that have no view to put the error in.
import * as vscode from 'vscode';
import { describeError, type ErrorDescription } from './describeError';

export async function showErrorNotification(d: ErrorDescription, severity: 'error' | 'warning' = 'error'): Promise<void> {
  const show = severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const choice = await show(d.message, ...d.actions.map((a) => a.title));
  const action = d.actions.find((a) => a.title === choice);
  if (action) await vscode.commands.executeCommand(action.command, ...(action.args ?? []));
}

/**
 * Wraps a command handler so nothing it throws reaches the extension host: the error is logged and shown as
 * a notification with its actions, and the command resolves with undefined.
 */
export function guardCommand<A extends unknown[], R>(
  handler: (...args: A) => R | Promise<R>,
  log: { error(message: string | Error, ...args: unknown[]): void },
  secrets: () => readonly (string | undefined)[] = () => [],
): (...args: A) => Promise<R | undefined> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (e) {
      const d = describeError(e, { secrets: secrets() });
      log.error(d.message);
      void showErrorNotification(d);
      return undefined;
    }
  };
}

// Activation of one feature at a time, so a feature that throws while registering is reported to the user
// (and in the log) instead of being swallowed, and the other features still come up.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { SHOW_LOGS_COMMAND } from './showLogsCommand';

/** What a feature's register function may hand back: everything it created that must be disposed. */
export type FeatureDisposables = vscode.Disposable | readonly vscode.Disposable[] | void;

export type FeatureActivator = (featureName: string, register: () => FeatureDisposables) => void;

export function createFeatureActivator(context: vscode.ExtensionContext, logger: Logger): FeatureActivator {
  return (featureName, register) => {
    try {
      const created = register();
      if (Array.isArray(created)) context.subscriptions.push(...created);
      else if (created) context.subscriptions.push(created as vscode.Disposable);
      logger.debug(`${featureName}: ready`);
    } catch (err) {
      reportActivationError(featureName, err, logger);
    }
  };
}

export function reportActivationError(featureName: string, err: unknown, logger: Logger): void {
  logger.error(`${featureName} could not start`, err);
  const reason = err instanceof Error ? err.message : String(err);
  // Not awaited: activation must not wait for the user to read a notification.
  void vscode.window
    .showErrorMessage(`Serverless GPU: ${featureName} could not start: ${reason}`, 'Show Logs')
    .then((choice) => (choice ? vscode.commands.executeCommand(SHOW_LOGS_COMMAND) : undefined));
}

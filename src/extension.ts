// Entry point: reads like a table of contents. It creates the shared services and registers each feature;
// every feature pushes what it creates into context.subscriptions (through `activateFeature`). No network and
// no heavy work here (DEVELOPERS.md): features fetch lazily, when a view is shown or a command runs.
import * as vscode from 'vscode';
import { createFeatureActivator } from './log/featureActivation';
import { createExtensionLog } from './log/outputChannelLogger';
import { registerShowLogsCommand } from './log/showLogsCommand';

export function activate(context: vscode.ExtensionContext): void {
  // Services every feature shares.
  const log = createExtensionLog();
  context.subscriptions.push(log);
  const logger = log.logger;
  const activateFeature = createFeatureActivator(context, logger);

  // Features: one line each.
  activateFeature('Show Logs', () => registerShowLogsCommand(log));

  logger.info(`activated ${context.extension.id} ${String(context.extension.packageJSON.version)} in ${vscode.env.appName}`);
}

export function deactivate(): void {}

// "Serverless GPU: Show Logs": the first place a user or maintainer looks when something goes wrong.
import * as vscode from 'vscode';
import type { ExtensionLog } from './outputChannelLogger';

export const SHOW_LOGS_COMMAND = 'serverlessGpu.showLogs';

export function registerShowLogsCommand(log: ExtensionLog): vscode.Disposable {
  // preserveFocus: false, so the panel comes up focused and the user sees it even if it was hidden.
  return vscode.commands.registerCommand(SHOW_LOGS_COMMAND, () => log.channel.show(false));
}

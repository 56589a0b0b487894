// The editor side of the core logger: one LogOutputChannel named after the extension, wrapped in the core's
// redacting logger so nothing written here can carry the API key (src/core/log.ts). A LogOutputChannel
// (`{ log: true }`) takes its level from VS Code's own "Developer: Set Log Level…", so there is no setting of ours.
import * as vscode from 'vscode';
import { createRedactingLogger, type Logger, type LogLevel } from '../core/log';

export const LOG_CHANNEL_NAME = 'Serverless GPU';

export interface ExtensionLog {
  /** What every feature logs through: redacted before it reaches the channel. */
  readonly logger: Logger;
  /** The channel itself, for "Show Logs" and for tests that read its level. */
  readonly channel: vscode.LogOutputChannel;
  /** Lets a feature that learns a secret (the key store) have it redacted from then on, by value. */
  addSecretSource(source: () => string | undefined): vscode.Disposable;
  dispose(): void;
}

const CHANNEL_LEVEL: Record<LogLevel, vscode.LogLevel> = {
  trace: vscode.LogLevel.Trace,
  debug: vscode.LogLevel.Debug,
  info: vscode.LogLevel.Info,
  warn: vscode.LogLevel.Warning,
  error: vscode.LogLevel.Error,
};

/**
 * Drops a message before it is formatted and redacted when the channel's level (VS Code's setting, changed
 * live with "Developer: Set Log Level…") would drop it anyway: a trace line with a large body costs nothing at
 * the default Info level.
 */
export function levelGated(logger: Logger, currentLevel: () => vscode.LogLevel): Logger {
  const enabled = (level: LogLevel): boolean => {
    const current = currentLevel();
    return current !== vscode.LogLevel.Off && CHANNEL_LEVEL[level] >= current;
  };
  const gate =
    (level: LogLevel) =>
    (message: string | Error, ...args: unknown[]): void => {
      if (!enabled(level)) return;
      (logger[level] as (m: string | Error, ...a: unknown[]) => void)(message, ...args);
    };
  // Said to wrappers too (the service client's own redacting logger), so they drop a line before formatting it.
  return { trace: gate('trace'), debug: gate('debug'), info: gate('info'), warn: gate('warn'), error: gate('error'), enabled };
}

export function createExtensionLog(): ExtensionLog {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  const sources = new Set<() => string | undefined>();
  const logger = levelGated(
    createRedactingLogger(channel, () => [...sources].map((s) => s())),
    () => channel.logLevel,
  );
  return {
    logger,
    channel,
    addSecretSource(source) {
      sources.add(source);
      return new vscode.Disposable(() => sources.delete(source));
    },
    dispose: () => channel.dispose(),
  };
}

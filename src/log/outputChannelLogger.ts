// The editor side of the core logger: one LogOutputChannel named after the extension, wrapped in the core's
// redacting logger so nothing written here can carry the API key (src/core/log.ts). A LogOutputChannel
// (`{ log: true }`) takes its level from VS Code's own "Developer: Set Log Level…", so there is no setting of ours.
import * as vscode from 'vscode';
import { createRedactingLogger, type Logger } from '../core/log';

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

export function createExtensionLog(): ExtensionLog {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  const sources = new Set<() => string | undefined>();
  const logger = createRedactingLogger(channel, () => [...sources].map((s) => s()));
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

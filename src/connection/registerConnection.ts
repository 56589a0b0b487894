// Creates the shared Connection (profiles, keys, the local-emulator launcher) and registers the key and
// profile commands and the profile status bar. The job runner uses the Connection this returns.
import * as vscode from 'vscode';
import type { Settings } from '../config/settings';
import type { Logger } from '../core/log';
import { guardCommand } from '../errors/notify';
import { ApiKeyStore } from './apiKeyStore';
import { Commands } from './commandIds';
import { Connection, type ClientFactory } from './connection';
import { clearApiKey, setApiKey, switchProfile, useLocalEmulator } from './connectionCommands';
import { EmulatorLauncher } from './emulatorLauncher';
import { ProfileStatusBar } from './profileStatusBar';
import { rooms } from '../rooms/rooms';

export interface ConnectionServices {
  connection: Connection;
  launcher: EmulatorLauncher;
  statusBar: ProfileStatusBar;
}

export interface SecretSourceRegistry {
  /** The log's redaction: every key this window knows is scrubbed from everything logged. */
  addSecretSource(source: () => string | undefined): vscode.Disposable;
}

/** Everything created is pushed into context.subscriptions, so deactivate stops the emulator too. */
export function registerConnection(context: vscode.ExtensionContext, settings: Settings, logger: Logger, createClient: ClientFactory, log?: SecretSourceRegistry): ConnectionServices {
  const keys = new ApiKeyStore(context.secrets, (key) => {
    if (log) context.subscriptions.push(log.addSecretSource(() => key));
  });
  let connection: Connection | undefined;
  const launcher = new EmulatorLauncher(context.extensionUri.fsPath, logger, (o) => rooms().emulator.startEmulatorProcess(o), () => connection?.emulatorExited());
  connection = new Connection({ settings, keys, state: context.globalState, launcher, createClient, logger });
  const statusBar = new ProfileStatusBar(connection, settings);
  const c = connection;
  const guard = <A extends unknown[], R>(fn: (...a: A) => R | Promise<R>) => guardCommand(fn, logger, () => c.secrets());
  context.subscriptions.push(
    keys,
    launcher,
    c,
    statusBar,
    vscode.commands.registerCommand(Commands.setApiKey, guard(() => setApiKey(c, logger))),
    vscode.commands.registerCommand(Commands.clearApiKey, guard(() => clearApiKey(c, logger))),
    vscode.commands.registerCommand(Commands.switchProfile, guard((name?: unknown) => switchProfile(c, logger, typeof name === 'string' ? name : undefined))),
    vscode.commands.registerCommand(Commands.useLocalEmulator, guard(() => useLocalEmulator(c, logger))),
  );
  return { connection: c, launcher, statusBar };
}

// The key and profile commands: Set API Key, Clear API Key, Switch Profile, Use Local Emulator.
// Each returns a short outcome string, so a test (or another command) can tell what happened without
// reading notifications. Notifications are never awaited: a command must not hang on an unread toast.
import * as vscode from 'vscode';
import { hostOf } from '../config/profileSettings';
import { isServiceError } from '../core/http/errors';
import type { Logger } from '../core/log';
import { describeError } from '../errors/describeError';
import { showErrorNotification } from '../errors/notify';
import { Commands } from './commandIds';
import type { Connection } from './connection';
import { EMULATOR_PROFILE_NAME } from './profiles';

export type SetKeyOutcome = 'stored' | 'storedWithoutBilling' | 'storedUnchecked' | 'rejected' | 'failed' | 'cancelled';

/**
 * Asks for the key (password box), checks it with one one-bucket billing request (lastN 1) against the
 * active profile, and stores it only if the service did not reject it: 401 stores nothing; 403 stores it
 * (the key may be for jobs only) and says so; a network failure offers to store it unchecked.
 */
export async function setApiKey(connection: Connection, logger: Logger): Promise<SetKeyOutcome> {
  let profile;
  try {
    profile = await connection.readyProfile();
  } catch (e) {
    void showErrorNotification(describeError(e, { secrets: connection.secrets() }));
    return 'failed';
  }
  const entered = await vscode.window.showInputBox({
    title: `Set API Key (${profile.name})`,
    prompt: `Checked with one billing request to ${hostOf(profile.billingBaseUrl)}, then kept in the editor's secret storage only.`,
    password: true,
    ignoreFocusOut: true,
    placeHolder: 'API key',
    validateInput: (v) => (v.trim() ? undefined : 'Enter the API key'),
  });
  const key = entered?.trim();
  if (!key) return 'cancelled';
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Checking the API key with ${hostOf(profile.billingBaseUrl)}…` },
      () => connection.clientFor(profile, key).listBillingTable({ lastN: 1 }),
    );
  } catch (e) {
    const d = describeError(e, { operation: 'billing', host: hostOf(profile.billingBaseUrl), secrets: [...connection.secrets(), key] });
    if (isServiceError(e) && e.kind === 'unauthorized') {
      logger.info(`Set API Key: the key was rejected by ${hostOf(profile.billingBaseUrl)} (401); nothing stored`);
      void showErrorNotification({ ...d, message: `The API key was rejected by ${hostOf(profile.billingBaseUrl)} (401): nothing was stored. Check the key and try again.` });
      return 'rejected';
    }
    if (isServiceError(e) && e.kind === 'forbidden') {
      await connection.setApiKey(key, profile);
      logger.info(`Set API Key: stored for "${profile.name}" (the key has no billing access)`);
      void vscode.window.showWarningMessage(`API key saved for "${profile.name}", but it has no access to billing (it lacks billing:read): the Endpoints view cannot show costs. Jobs may still work.`);
      return 'storedWithoutBilling';
    }
    if (isServiceError(e) && (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'server' || e.kind === 'rateLimited')) {
      const choice = await vscode.window.showWarningMessage(`${d.message} The key could not be checked.`, 'Store Unchecked', 'Cancel');
      if (choice !== 'Store Unchecked') return 'failed';
      await connection.setApiKey(key, profile);
      return 'storedUnchecked';
    }
    void showErrorNotification(d);
    return 'failed';
  }
  await connection.setApiKey(key, profile);
  logger.info(`Set API Key: stored for "${profile.name}"`);
  void vscode.window.showInformationMessage(`API key saved for "${profile.name}".`);
  return 'stored';
}

export async function clearApiKey(connection: Connection, logger: Logger): Promise<'cleared' | 'failed'> {
  const profile = connection.profile;
  try {
    await connection.clearApiKey(profile);
  } catch (e) {
    void showErrorNotification(describeError(e, { secrets: connection.secrets() }));
    return 'failed';
  }
  logger.info(`Clear API Key: removed for "${profile.name}"`);
  void vscode.window.showInformationMessage(`API key removed for "${profile.name}".`);
  return 'cleared';
}

interface ProfilePick extends vscode.QuickPickItem {
  run: () => Thenable<unknown>;
}

/** One quick pick: every profile (the active one marked), Use Local Emulator, and Edit Profiles. */
export async function switchProfile(connection: Connection, logger: Logger, name?: string): Promise<string | undefined> {
  if (typeof name === 'string') {
    if (!connection.profiles.list().some((p) => p.name === name)) return undefined;
    await connection.switchProfile(name);
    return name;
  }
  const active = connection.profile.name;
  const items: ProfilePick[] = connection.profiles.list().map((p) => ({
    label: `${p.name === active ? '$(check) ' : ''}${p.name}`,
    description: p.name === EMULATOR_PROFILE_NAME ? 'bundled emulator, demo data' : hostOf(p.billingBaseUrl),
    detail: p.name === EMULATOR_PROFILE_NAME ? undefined : `billing ${p.billingBaseUrl} · jobs ${p.jobsBaseUrl}`,
    run: () => (p.name === EMULATOR_PROFILE_NAME ? useLocalEmulator(connection, logger) : connection.switchProfile(p.name)),
  }));
  for (const problem of connection.profiles.problems()) {
    items.push({ label: `$(warning) ${problem}`, description: 'skipped', run: () => openProfileSettings() });
  }
  items.push({ label: '$(gear) Edit Profiles in User Settings…', run: () => openProfileSettings() });
  const pick = await vscode.window.showQuickPick(items, { title: 'Switch Connection Profile', placeHolder: `Active: ${active}` });
  if (!pick) return undefined;
  await pick.run();
  return connection.profile.name;
}

function openProfileSettings(): Thenable<unknown> {
  return vscode.commands.executeCommand(Commands.openSettings, 'serverlessGpu.profiles');
}

/** Starts the bundled emulator, stores its demo key for its profile, and switches to it. */
export async function useLocalEmulator(connection: Connection, logger: Logger): Promise<string | undefined> {
  try {
    const origin = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Starting the local emulator…' },
      () => connection.useLocalEmulator(),
    );
    logger.info(`Using the local emulator at ${origin}`);
    void vscode.window.showInformationMessage(`Connected to the local emulator at ${origin} with its demo key. Its data is synthetic; nothing is billed.`);
    return origin;
  } catch (e) {
    void showErrorNotification(describeError(e, { secrets: connection.secrets() }));
    return undefined;
  }
}

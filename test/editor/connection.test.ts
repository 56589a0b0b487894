// Connection profiles in the real editor: a workspace's .vscode/settings.json must never redirect the API
// key (issue 4, SECURITY), "Use Local Emulator" starts the bundled emulator as a child process and connects
// to it with its demo key, and the status-bar item switches profiles.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../src/connection/commandIds';
import { EMULATOR_PROFILE_NAME } from '../../src/connection/profiles';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index';
import type { SidebarTestApi } from '../../src/extension';
import { click, press, typeText, waitForSelector } from './support/driver';
import { activateExtension, eventually, workspaceFolder } from './support/extension';
import { billingConfig, KEYS, PROFILE_NAME, resetSidebar, useTestProfile } from './sidebarFixtures';

interface Attacker {
  url: string;
  requests: { url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** An HTTP server standing in for a host a malicious repository would like the key sent to. */
async function startAttacker(): Promise<Attacker> {
  const requests: Attacker['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

suite('connection: profiles, workspace settings, local emulator', () => {
  let api: SidebarTestApi;
  let emulator: RunningEmulator;

  suiteSetup(async () => {
    api = ((await activateExtension()).exports as { sidebar: SidebarTestApi }).sidebar;
    emulator = await startEmulator({ host: '127.0.0.1', port: 0, config: billingConfig(new Date()) });
    await useTestProfile(api, emulator.url);
    await api.connection.setApiKey(KEYS.full);
    await vscode.commands.executeCommand('workbench.view.extension.serverlessGpu');
  });

  suiteTeardown(async () => {
    await resetSidebar(api);
    await emulator?.close();
  });

  test('a workspace settings file pointing the profiles at another host never receives a request nor the key', async () => {
    const attacker = await startAttacker();
    const settingsFile = path.join(workspaceFolder().uri.fsPath, '.vscode', 'settings.json');
    try {
      // Refused at the API too: the setting is application scoped.
      await assert.rejects(
        Promise.resolve(vscode.workspace.getConfiguration('serverlessGpu').update('profiles', [{ name: PROFILE_NAME, billingBaseUrl: attacker.url, jobsBaseUrl: attacker.url }], vscode.ConfigurationTarget.Workspace)),
      );
      // A cloned repository's file: redefines the active profile, the default one, and adds its own.
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      fs.writeFileSync(settingsFile, JSON.stringify({
        'serverlessGpu.profiles': [
          { name: PROFILE_NAME, billingBaseUrl: attacker.url, jobsBaseUrl: attacker.url },
          { name: 'Default', billingBaseUrl: attacker.url, jobsBaseUrl: attacker.url },
          { name: 'Evil', billingBaseUrl: attacker.url, jobsBaseUrl: attacker.url },
        ],
        // A window-scoped setting in the same file: once it reads 37, the editor has loaded the file.
        'serverlessGpu.rateLimitWarningPercent': 37,
      }, null, 2));
      await eventually(() => vscode.workspace.getConfiguration('serverlessGpu').get('rateLimitWarningPercent') === 37 || undefined, 'the workspace settings file to be read');

      assert.equal(api.connection.profile.name, PROFILE_NAME);
      assert.equal(api.connection.profile.billingBaseUrl, emulator.url);
      assert.ok(!api.connection.profiles.list().some((p) => p.name === 'Evil'), 'a workspace cannot add a profile');
      assert.equal(api.connection.profiles.list().find((p) => p.name === 'Default')?.billingBaseUrl, 'https://api.runpod.io');

      await vscode.commands.executeCommand(Commands.refreshEndpoints);
      await api.endpoints!.tree.whenIdle();
      assert.equal(api.endpoints!.tree.current.kind, 'loaded', 'the tree loaded from the user profile');
      const client = await api.connection.getClient();
      assert.equal(client?.settings.billingBaseUrl, emulator.url);
      assert.equal(client?.settings.jobsBaseUrl, emulator.url);
      assert.deepEqual(attacker.requests, [], 'the attacker host received nothing');
    } finally {
      fs.rmSync(settingsFile, { force: true });
      await attacker.close();
    }
  });

  test('the status-bar item shows the profile and switches profiles from a quick pick', async () => {
    await eventually(() => vscode.workspace.getConfiguration('serverlessGpu').get('rateLimitWarningPercent') === 10 || undefined, 'the workspace file removal');
    await api.endpoints!.tree.whenIdle();
    assert.match(api.statusBar.text, new RegExp(`^\\$\\(cloud\\) ${PROFILE_NAME} · \\$`));
    await click(`.statusbar-item:has-text("${PROFILE_NAME}")`);
    await waitForSelector('.quick-input-widget .monaco-list-row:has-text("Default")');
    await typeText('Default');
    await press('Enter');
    await eventually(() => api.connection.profile.name === 'Default' || undefined, 'the switch to Default');
    await eventually(() => api.statusBar.text.startsWith('$(cloud) Default') || undefined, 'the status bar to follow');
    assert.equal(await vscode.commands.executeCommand(Commands.switchProfile, PROFILE_NAME), PROFILE_NAME);
    assert.equal(api.connection.profile.billingBaseUrl, emulator.url);
    assert.equal(await api.connection.hasKey(), true, 'each profile keeps its own key');
  });

  test('when a rate-limit window runs low, the status bar shows its remaining count', async () => {
    const small = await startEmulator({ host: '127.0.0.1', port: 0, config: { ...billingConfig(new Date()), rateLimits: { minute: 10, hour: 1000, day: 10000 } } });
    const config = vscode.workspace.getConfiguration('serverlessGpu');
    try {
      await useTestProfile(api, small.url, 'Small quota');
      await api.connection.setApiKey(KEYS.full);
      await config.update('rateLimitWarningPercent', 50, vscode.ConfigurationTarget.Global);
      await api.endpoints!.tree.whenIdle();
      await vscode.commands.executeCommand(Commands.refreshEndpoints);
      assert.doesNotMatch(api.statusBar.text, /left this/, `plenty left: ${api.statusBar.text}`);
      // 10 a minute; each refresh is one request (the key set above also sent none: setApiKey was direct).
      for (let i = 0; i < 5; i++) await vscode.commands.executeCommand(Commands.refreshEndpoints);
      const remaining = api.connection.rateLimits.minute?.remaining;
      assert.ok(remaining !== undefined && remaining < 5, `remaining ${remaining}`);
      assert.match(api.statusBar.text, new RegExp(`\\$\\(warning\\) ${remaining} left this minute$`));
    } finally {
      await config.update('rateLimitWarningPercent', undefined, vscode.ConfigurationTarget.Global);
      await api.connection.clearApiKey();
      await useTestProfile(api, emulator.url);
      await api.connection.setApiKey(KEYS.full);
      await small.close();
    }
  });

  test('Use Local Emulator starts the bundled emulator, stores its demo key and shows its endpoints', async () => {
    const origin = await vscode.commands.executeCommand<string | undefined>(Commands.useLocalEmulator);
    assert.match(origin ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(api.connection.profile.name, EMULATOR_PROFILE_NAME);
    assert.equal(api.connection.profile.billingBaseUrl, origin);
    assert.equal(await api.connection.hasKey(), true);
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the demo billing to load', 60_000);
    await api.endpoints!.tree.whenIdle();
    assert.ok(api.endpoints!.tree.loaded!.model.endpoints.length >= 2, 'the demo has several endpoints with usage');
    const res = await fetch(`${origin}/v2/billing/serverless?lastN=1`, { headers: { authorization: 'Bearer demo-key-full' } });
    assert.equal(res.status, 200, 'a real emulator process answers on that origin');
    await api.connection.clearApiKey();
    assert.equal(await vscode.commands.executeCommand(Commands.switchProfile, PROFILE_NAME), PROFILE_NAME);
  });
});

// Runs in the packaged run too (no test hooks there): the .vsix must ship a working emulator and the chart.
suite('connection @packaged: the local emulator shipped with the extension', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand(Commands.clearApiKey);
    await vscode.commands.executeCommand(Commands.switchProfile, 'Default');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Use Local Emulator starts dist/emulator.js from the installed extension, and the view lists its endpoints', async () => {
    await activateExtension();
    const origin = await vscode.commands.executeCommand<string | undefined>(Commands.useLocalEmulator);
    assert.match(origin ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${origin}/v2/billing/serverless?lastN=30&bucketSize=day`, { headers: { authorization: 'Bearer demo-key-full' } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { records: { serverlessId: string; totalAmount: number }[] };
    const busiest = [...new Set(body.records.filter((r) => r.totalAmount > 0).map((r) => r.serverlessId))];
    assert.ok(busiest.length > 0, 'the demo has usage in the last 30 days');
    await vscode.commands.executeCommand('workbench.view.extension.serverlessGpu');
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last30Days' });
    for (const id of busiest) await waitForSelector(`.monaco-list-row:has-text(${JSON.stringify(id)})`);
    await vscode.commands.executeCommand(Commands.showCostChart);
    await waitForSelector('canvas#chart', { inWebview: true });
    await waitForSelector('#subtitle:has-text("Last 30 days, daily")', { inWebview: true });
  });
});

// Public models first-class and the file's endpoint the user's choice (issue 22), in the real editor against the
// demo emulator: a public model billed to the account is shown under "Public models" with its cost (never
// "deleted"), is picked from the endpoint picker by its name in its own group (its id never typed), and each
// demo endpoint's input file in demo/ runs; running a file on another endpoint asks whether to remember it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PUBLIC_MODELS } from '../../src/core/serverless/publicModels';
import type { TreeNode } from '../../src/endpoints/endpointItems';
import type { SidebarTestApi } from '../../src/extension';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { count, driverAvailable, pickQuickPickItem, press, quickPickItem, screenshot, textContent, typeText, waitForSelector } from './support/driver';
import { startEmulator } from './support/emulator';
import { jobWaits } from './support/jobWaits';
import { activateExtension, workspaceFolder } from './support/extension';
import { resetSidebar, useTestProfile } from './sidebarFixtures';

/** The demo endpoint each demo input file is for (demo/README.md's table). */
const DEMO_FILES: Record<string, string> = {
  'sdxl-turbo.input.json': 'sdxl-turbo',
  'flux-dev.input.json': 'flux-dev',
  'flux-schnell.input.json': 'black-forest-labs-flux-1-schnell',
  'wan-2-1-video.input.json': 'wan-2-1-video',
  'kokoro-tts.input.json': 'kokoro-tts',
  'echo.input.json': 'echo',
  'broken-gpu.input.json': 'broken-gpu',
  'sd35-large.input.json': 'sd35-large',
  'llama-chat.input.json': 'llama-chat',
  // The worker-shaped endpoints (issue 20): the outputs real deployed workers return.
  'comfyui.input.json': 'comfyui',
  'comfyui-s3.input.json': 'comfyui-s3',
  'a1111.input.json': 'a1111',
  'jpeg-handler.input.json': 'jpeg-handler',
  'tts-wav.input.json': 'tts-wav',
  'faster-whisper.input.json': 'faster-whisper',
  'forgot-return.input.json': 'forgot-return',
};

function label(v: string | vscode.TreeItemLabel | undefined): string {
  return typeof v === 'string' ? v : v?.label ?? '';
}

suite('public models and the file\'s endpoint', () => {
  let sidebar: SidebarTestApi;
  let api: JobRunnerApi;
  let emulator: { url: string; close(): Promise<void> };
  let extensionPath = '';
  const { finished } = jobWaits(() => api);

  /** A demo input file copied into the test workspace, as `npm start` opens it. */
  const demoFile = async (name: string): Promise<vscode.Uri> => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, 'demo', name);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(workspaceFolder().uri, 'demo'));
    await vscode.workspace.fs.writeFile(uri, fs.readFileSync(path.join(extensionPath, 'demo', name)));
    return uri;
  };

  suiteSetup(async () => {
    const ext = await activateExtension();
    extensionPath = ext.extensionPath;
    const exported = ext.exports as { sidebar: SidebarTestApi; jobs?: JobRunnerApi };
    assert.ok(exported.jobs);
    sidebar = exported.sidebar;
    api = exported.jobs;
    emulator = await startEmulator(ext.extensionPath);
    // The sidebar and the jobs both go through the connection of this profile, on the demo emulator.
    await useTestProfile(sidebar, emulator.url, 'Public models test');
    await sidebar.connection.setApiKey('demo-key-full');
    api.useClientSource(undefined);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSidebar(sidebar);
    await emulator?.close();
  });

  test('each demo endpoint has an input file in demo/ that runs', async () => {
    const listed = fs.readdirSync(path.join(extensionPath, 'demo')).filter((f) => f.endsWith('.input.json'));
    assert.deepEqual(listed.sort(), Object.keys(DEMO_FILES).sort(), 'one demo input file per demo endpoint');
    const started: Array<[string, JobRecord]> = [];
    for (const [file, endpointId] of Object.entries(DEMO_FILES)) {
      const uri = await demoFile(file);
      await api.memory.rememberEndpoint(uri, endpointId);
      started.push([file, (await vscode.commands.executeCommand(JobCommands.runCurrentFile, uri)) as JobRecord]);
    }
    for (const [file, record] of started) {
      const done = await finished(record.key, 90_000);
      const expected = record.endpointId === 'broken-gpu' ? 'FAILED' : 'COMPLETED';
      assert.equal(done.status, expected, `${file} on ${record.endpointId}: ${done.error ?? done.note ?? ''}`);
      // A handler that forgot to return completes with nothing to keep, which is what it shows.
      if (expected === 'COMPLETED' && record.endpointId !== 'forgot-return') assert.ok(done.outputs.length > 0 && done.outputsFolder, `${file} kept its output`);
    }
  });

  test('the picker tells a dedicated endpoint from a public model of the same name, and the endpoint reads as in the sidebar', async function () {
    if (!driverAvailable()) this.skip();
    // The demo's own flux-dev is named "FLUX.1 dev", as is the public black-forest-labs-flux-1-dev (issue 32).
    const tree = sidebar.endpoints!.tree;
    await vscode.commands.executeCommand('serverlessGpu.refreshEndpoints');
    await tree.whenIdle();
    const top = (await tree.getChildren()) as TreeNode[];
    const ownNode = top.find((n) => n.kind === 'endpoint' && n.id === 'flux-dev');
    assert.ok(ownNode, 'flux-dev is among the account\'s endpoints in the sidebar');
    const ownItem = await tree.getTreeItem(ownNode);
    assert.equal(label(ownItem.label), 'FLUX.1 dev');
    assert.match(String(ownItem.description), /^flux-dev · /);
    const uri = await demoFile('flux-dev.input.json');
    await api.memory.forgetUsedEndpoints();
    await api.memory.rememberEndpoint(uri, 'flux-dev');
    const picked = vscode.commands.executeCommand(JobCommands.changeEndpointForFile, uri);
    try {
      await waitForSelector('.quick-input-widget:not([style*="display: none"]) .quick-input-title:has-text("Endpoint for")');
      await typeText('FLUX.1 dev');
      const row = (what: string) => `${quickPickItem('FLUX.1 dev')}:has-text(${JSON.stringify(what)})`;
      await waitForSelector(row('your endpoint'));
      await waitForSelector(row('public model'));
      assert.equal(await count(quickPickItem('FLUX.1 dev')), 2, 'two rows named FLUX.1 dev, and no row offering the name as a new id');
      assert.equal(await count(`${row('your endpoint')}:has-text("public model")`), 0, 'no row says both');
      const own = await textContent(`${row('your endpoint')} .label-description`);
      const pub = await textContent(`${row('public model')} .label-description`);
      // Each says its id first, as the sidebar's description does, then what it is.
      assert.match(own, /^flux-dev · your endpoint\b/, own);
      assert.match(pub, /^black-forest-labs-flux-1-dev · public model · image · \$0\.02 per megapixel/, pub);
      await screenshot('picker-same-name');
    } finally {
      await press('Escape');
      await picked;
    }
    assert.equal(api.memory.endpointFor(uri), 'flux-dev', 'nothing was chosen');
  });

  test('a public model is picked from the endpoint picker by its name, in its own group, and shown under Public models with its cost', async function () {
    if (!driverAvailable()) this.skip();
    const uri = await demoFile('kokoro-tts.input.json');
    // The suites before this one used some thirty endpoints here: their "used here" rows push the Public models
    // group out of the quick pick's rendered rows (it draws only what is in view). This test is about a fresh
    // workspace's picker, so it starts with none used.
    await api.memory.forgetUsedEndpoints();
    await api.memory.rememberEndpoint(uri, 'echo');
    await vscode.window.showTextDocument(uri);
    const picked = vscode.commands.executeCommand(JobCommands.changeEndpointForFile, uri);
    // Offered without typing: its row is in the list before anything is typed, as a public model.
    await waitForSelector(`${quickPickItem('Kokoro TTS')}:has-text("public model")`);
    await waitForSelector('.quick-input-widget .quick-input-list:has-text("Public models")');
    await pickQuickPickItem('Kokoro TTS', { title: 'Endpoint for' });
    await picked;
    assert.equal(api.memory.endpointFor(uri), 'kokoro-tts');

    // Under "Public models" in the sidebar, with its cost over the window, never as a deleted endpoint.
    const tree = sidebar.endpoints!.tree;
    await vscode.commands.executeCommand('serverlessGpu.refreshEndpoints');
    await tree.whenIdle();
    const top = (await tree.getChildren()) as TreeNode[];
    const group = top.find((n) => n.kind === 'publicModels');
    assert.ok(group, `a Public models group among ${top.map((n) => n.kind).join(', ')}`);
    assert.equal(label((await tree.getTreeItem(group)).label), 'Public models');
    const models = (await tree.getChildren(group)) as TreeNode[];
    const items = await Promise.all(models.map(async (n) => tree.getTreeItem(n)));
    const kokoro = items.find((i) => label(i.label) === 'Kokoro TTS');
    assert.ok(kokoro, `Kokoro TTS under Public models: ${items.map((i) => label(i.label)).join(', ')}`);
    assert.match(String(kokoro.description), /^kokoro-tts · \$\d+\.\d\d/);
    assert.doesNotMatch(String(kokoro.description), /\$0\.00|deleted/);
    assert.notEqual(kokoro.contextValue, 'endpoint.deleted');
    // No public model is left among the account's own endpoints, nor shown deleted.
    for (const node of top) {
      if (node.kind !== 'endpoint') continue;
      assert.ok(!PUBLIC_MODELS.some((m) => m.id === node.id), `${node.id} is under Public models, not beside the account's endpoints`);
    }
    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    await waitForSelector('.monaco-list-row:has-text("Public models")');
    await screenshot('public-models', { docs: true, selector: '.part.sidebar' });
  });

  test('running a file on another endpoint asks once whether to remember it: by default this run only; the CodeLens names the remembered one', async function () {
    if (!driverAvailable()) this.skip();
    const uri = await demoFile('echo.input.json');
    await api.memory.rememberEndpoint(uri, 'echo');
    // The default (Enter on the first row): this run only.
    const once = api.actions.runFile(uri, 'async', 'sdxl-turbo');
    await waitForSelector(`${quickPickItem('Run on sdxl-turbo this time only')}`);
    await pickQuickPickItem('Run on sdxl-turbo this time only');
    const first = await once;
    assert.equal(first?.endpointId, 'sdxl-turbo');
    assert.equal(api.memory.endpointFor(uri), 'echo', 'the file still runs on echo');
    // Remembered when asked to.
    const kept = api.actions.runFile(uri, 'async', 'sdxl-turbo');
    await pickQuickPickItem('Run on sdxl-turbo and remember it for demo/echo.input.json');
    assert.equal((await kept)?.endpointId, 'sdxl-turbo');
    assert.equal(api.memory.endpointFor(uri), 'sdxl-turbo');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    const run = lenses.find((l) => l.command?.command === JobCommands.runCurrentFile);
    assert.match(run?.command?.title ?? '', /Run on sdxl-turbo/);
    assert.match(run?.command?.tooltip ?? '', /remembered for this file is sdxl-turbo/);
    assert.match(run?.command?.tooltip ?? '', /\/status-sync/);
    await finished(first!.key);
  });
});

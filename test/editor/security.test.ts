// Issue 12 in the real editor: the API key is never shown or stored whatever a worker returns (a sweep of
// every surface after jobs on a service that echoes the key everywhere it can), an id of ".." is refused
// where it enters, and a workspace cannot choose where outputs are written outside it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createServiceClient } from '../../src/core/http/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index';
import type { SidebarTestApi } from '../../src/extension';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { click, count, driverAvailable, press, QUICK_INPUT, quickPickItem, textContent, typeText, waitForSelector } from './support/driver';
import { activateExtension, eventually, workspaceFolder } from './support/extension';
import { resetSidebar, useTestProfile } from './sidebarFixtures';

// The key of the connection. Every spelling of it (raw, URL-encoded, JSON-escaped) starts with this marker,
// so a surface that holds the marker holds the key in some form.
const MARKER = 'rpa_planted';
const KEY = `${MARKER}/key+0123456789`;

interface Hostile {
  url: string;
  close(): Promise<void>;
}

/**
 * A service whose workers echo their request: every answer quotes the bearer token it was sent, in every
 * field a worker controls (output JSON, image_url, video_url, workerId, error) and in a problem's detail.
 */
async function startHostileService(): Promise<Hostile> {
  let self = '';
  const server = http.createServer((req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const url = req.url ?? '';
    const send = (status: number, body: unknown, type = 'application/json'): void => {
      res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
    };
    const problem = (status: number, detail: string): void => send(status, { title: 'Error', status, detail }, 'application/problem+json');
    let m: RegExpExecArray | null;
    if (url.startsWith('/v2/billing/')) return problem(403, `key ${token} has no billing scope`);
    if ((m = /^\/v2\/([^/]+)\/run$/.exec(url)) && req.method === 'POST') {
      if (m[1] === 'bad-request') return problem(400, `input rejected for ${token}`);
      return send(200, { id: `job-${m[1]}`, status: 'IN_QUEUE' });
    }
    if ((m = /^\/v2\/([^/]+)\/status\/([^/?]+)$/.exec(url))) {
      const common = { id: m[2], delayTime: 10, executionTime: 20, workerId: `worker-${token}` };
      if (m[1] === 'fail-all') return send(200, { ...common, status: 'FAILED', error: `Traceback: token ${token} rejected` });
      return send(200, {
        ...common,
        status: 'COMPLETED',
        error: `warning: echoed ${encodeURIComponent(token)}`,
        output: {
          text: `you sent ${token}`,
          nested: [{ header: `Authorization: Bearer ${token}`, escaped: JSON.stringify(token) }],
          image_url: `javascript:alert("${token}")`,
          video_url: `${self}/files/v.webm?k=${encodeURIComponent(token)}`,
        },
      });
    }
    return problem(404, `no route ${url} for ${token}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: self, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

function holdsKey(text: string): boolean {
  return text.toLowerCase().includes(MARKER);
}

/** Every file named `name` under `dir`. */
function findFiles(dir: string, name: string, out: string[] = []): string[] {
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findFiles(p, name, out);
    else if (e.name === name) out.push(p);
  }
  return out;
}

suite('security: the API key is never shown or stored, whatever a worker returns (issue 12)', () => {
  let jobs: JobRunnerApi;
  let sidebar: SidebarTestApi;
  let hostile: Hostile;

  const finished = (key: string): Promise<JobRecord> =>
    eventually(() => {
      const r = jobs.history.get(key);
      return r && r.finishedAt !== undefined && !jobs.runner.isRunning(key) ? r : undefined;
    }, `job ${key} to finish`, 60_000);

  suiteSetup(async () => {
    const exported = (await activateExtension()).exports as { jobs: JobRunnerApi; sidebar: SidebarTestApi };
    jobs = exported.jobs;
    sidebar = exported.sidebar;
    hostile = await startHostileService();
    // The real connection (profile from user settings, key in the secret storage), so the extension's own
    // client, logger and error words are what is checked.
    await useTestProfile(sidebar, hostile.url, 'Hostile service');
    await sidebar.connection.setApiKey(KEY);
    jobs.useClientSource(undefined);
  });

  suiteTeardown(async () => {
    await resetSidebar(sidebar);
    await hostile?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a worker that echoes the key into output JSON, image_url, workerId and error: no surface holds it', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.view.extension.serverlessGpu');
    const completed = await finished((await jobs.actions.runInput('echo-all', { prompt: 'echo me' }, 'async')).key);
    assert.equal(completed.status, 'COMPLETED', completed.error);
    const rejected = await finished((await jobs.actions.runInput('bad-request', { prompt: 'x' }, 'async')).key);
    assert.equal(rejected.status, 'ERROR');
    // This one finishes with its panel closed: its error goes into a notification.
    const failing = await jobs.actions.runInput('fail-all', { prompt: 'x' }, 'async');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const failed = await finished(failing.key);
    assert.equal(failed.status, 'FAILED');

    // The service did put the key everywhere: the scrubbed words stand where it was.
    assert.equal(completed.workerId, 'worker-[REDACTED]');
    assert.match(failed.error ?? '', /Traceback: token \[REDACTED\] rejected/);
    assert.match(rejected.error ?? '', /\[REDACTED\]/);
    assert.ok(completed.outputs.some((o) => o.kind === 'json' && o.text?.includes('[REDACTED]')), JSON.stringify(completed.outputs));

    // The records as held and as stored in workspaceState (the Jobs history), as the next window reads them.
    for (const r of [completed, rejected, failed]) assert.ok(!holdsKey(JSON.stringify(jobs.history.get(r.key))), `record ${r.endpointId}`);
    const stored = jobs.reloadHistoryFromStorage();
    try {
      assert.ok(stored.all().length >= 3);
      assert.ok(!holdsKey(JSON.stringify(stored.all())), 'the stored history holds no key');
    } finally {
      stored.dispose();
    }

    // job.json on disk.
    const jobJson = fs.readFileSync(path.join(vscode.Uri.parse(completed.outputsFolder!).fsPath, 'job.json'), 'utf8');
    assert.ok(jobJson.includes('[REDACTED]') && !holdsKey(jobJson), 'job.json is scrubbed');

    // The panel: every message posted to it, and what its page shows (text and attributes).
    jobs.panels.open(completed.key);
    const shown = await eventually(() => jobs.panels.lastSent(completed.key)?.jobJson && jobs.panels.lastSent(completed.key), 'the panel with its job JSON');
    assert.ok(!holdsKey(JSON.stringify(shown)), 'the panel message holds no key');
    for (const r of [rejected, failed]) {
      jobs.panels.open(r.key);
      const sent = await eventually(() => jobs.panels.lastSent(r.key), `the panel of ${r.endpointId}`);
      assert.ok(!holdsKey(JSON.stringify(sent)), `the panel of ${r.endpointId}`);
    }
    if (driverAvailable()) {
      jobs.panels.open(completed.key);
      await eventually(() => jobs.panels.isVisible(completed.key) && jobs.panels.isReady(completed.key), 'the panel to be shown');
      await waitForSelector('figure.rejected', { inWebview: true });
      await click('details.job-json summary', { inWebview: true });
      const pageText = await textContent('#root', { inWebview: true });
      assert.match(pageText, /worker-\[REDACTED\]/);
      assert.ok(!holdsKey(pageText), 'the page text holds no key');
      const attributes = ['title', 'href', 'src', 'alt', 'aria-label', 'value', 'data-value'].map((a) => `[${a}*="${MARKER}" i]`).join(',');
      assert.equal(await count(attributes, { inWebview: true }), 0, 'no attribute of the page holds the key');
      // The notification of the job that ended with its panel closed.
      // Waited for, not read at once: under load the toast is drawn after the panels above.
      await waitForSelector('.notifications-toasts :text("fail-all failed")');
      const toasts = await textContent('.notifications-toasts');
      assert.match(toasts, /fail-all failed: Traceback: token \[REDACTED\] rejected/);
      assert.ok(!holdsKey(toasts), 'no notification holds the key');
      // The Jobs view and the Endpoints view (the 403's detail quoted the key).
      await vscode.commands.executeCommand('serverlessGpu.jobs.focus');
      await waitForSelector('.monaco-list-row:has-text("echo-all")');
      assert.ok(!holdsKey(await textContent('.part.sidebar')), 'the sidebar holds no key');
    }
    await sidebar.endpoints!.tree.refresh();
    const tree = sidebar.endpoints!.tree.current;
    assert.equal(tree.kind, 'error');
    assert.ok(!holdsKey(JSON.stringify(tree)), 'the Endpoints view error holds no key');

    // A panel restored after a reload, from job.json, with the job gone from the history.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await jobs.history.remove(completed.key);
    const panel = vscode.window.createWebviewPanel('serverlessGpu.jobPanel', 'restored', vscode.ViewColumn.Active, { enableScripts: true });
    await jobs.panels.restore(panel, { key: completed.key, job: shown });
    const restored = await eventually(() => jobs.panels.lastSent(completed.key), 'the restored panel');
    assert.ok(restored.jobJson?.includes('[REDACTED]') && !holdsKey(JSON.stringify(restored)), 'the restored panel holds no key');

    // The extension's log file (its LogOutputChannel), once the tree's failure has reached it.
    // The runner keeps the editor's user data beside the workspace copy (test/editor-host/run.mjs), and VS Code
    // writes each LogOutputChannel to a file under its logs folder.
    const logsRoot = path.join(path.dirname(workspaceFolder().uri.fsPath), 'user-data', 'logs');
    const logs = await eventually(() => {
      const files = findFiles(logsRoot, 'Serverless GPU.log');
      return files.some((f) => fs.readFileSync(f, 'utf8').includes('Billing request failed')) && files;
    }, `the extension's log under ${logsRoot}`);
    for (const file of logs) assert.ok(!holdsKey(fs.readFileSync(file, 'utf8')), `${file} holds no key`);
    // Each job step is in the log (src/jobs/jobLog.ts), the failed job's error with it, and still no key.
    const logText = logs.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    assert.ok(logText.includes(`job ${completed.jobId} on echo-all: completed`), 'the completed job is in the log');
    assert.ok(logText.includes(`job ${failed.jobId} on ${failed.endpointId}: failed`), 'the failed job is in the log');
  });
});

suite('security: endpoint ids that would change the route are refused where they enter (issue 12)', () => {
  let jobs: JobRunnerApi;

  suiteSetup(async () => {
    jobs = ((await activateExtension()).exports as { jobs: JobRunnerApi }).jobs;
  });

  test('the per-file memory does not hand back ".." or "a/b"', async () => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, 'dots.input.json');
    await jobs.memory.rememberEndpoint(uri, '..');
    assert.equal(jobs.memory.endpointFor(uri), undefined);
    assert.ok(!jobs.memory.usedEndpoints().includes('..'));
    await jobs.memory.rememberEndpoint(uri, 'echo');
    assert.equal(jobs.memory.endpointFor(uri), 'echo');
  });

  test('typing ".." in the endpoint picker shows why it is refused, and Enter does not take it', async function () {
    if (!driverAvailable()) this.skip();
    const pending = vscode.commands.executeCommand('serverlessGpu.runJob') as Thenable<JobRecord | undefined>;
    await waitForSelector(QUICK_INPUT);
    await typeText('..');
    await waitForSelector(quickPickItem('the URL parser would turn it into a different route'));
    await press('Enter');
    // Still open: Enter on a refused id keeps the picker.
    await waitForSelector(quickPickItem('the URL parser would turn it into a different route'));
    await press('Escape');
    assert.equal(await pending, undefined);
  });
});

suite('security: a workspace cannot choose where outputs are written outside it (issue 12)', () => {
  let jobs: JobRunnerApi;
  let emulator: RunningEmulator;
  const settingsFile = (): string => path.join(workspaceFolder().uri.fsPath, '.vscode', 'settings.json');
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('serverlessGpu');

  async function setWorkspaceOutputs(dir: string | undefined): Promise<void> {
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(settingsFile(), JSON.stringify(dir === undefined ? {} : { 'serverlessGpu.jobs.outputsDirectory': dir }, null, 2));
    await eventually(() => config().inspect('jobs.outputsDirectory')?.workspaceValue === dir || undefined, 'the workspace settings file to be read');
  }

  async function run(): Promise<JobRecord> {
    const started = await jobs.actions.runInput('echo', { prompt: 'where do I go' }, 'async');
    return started;
  }

  const finished = (key: string): Promise<JobRecord> =>
    eventually(() => {
      const r = jobs.history.get(key);
      return r && r.finishedAt !== undefined && !jobs.runner.isRunning(key) ? r : undefined;
    }, `job ${key} to finish`, 60_000);

  suiteSetup(async function () {
    if (!driverAvailable()) this.skip();
    jobs = ((await activateExtension()).exports as { jobs: JobRunnerApi }).jobs;
    emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
    const client = createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: 'demo-key-full' });
    jobs.useClientSource({ getClient: async () => client, secrets: () => ['demo-key-full'] });
  });

  suiteTeardown(async () => {
    jobs?.useClientSource(undefined);
    fs.rmSync(settingsFile(), { force: true });
    await config().update('jobs.outputsDirectory', undefined, vscode.ConfigurationTarget.Global);
    await emulator?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const question = (dir: string): string => `.notification-toast:has-text(${JSON.stringify(dir)})`;
  const inside = (record: JobRecord): string => vscode.Uri.parse(record.outputsFolder!).fsPath;
  const workspaceOutputs = (): string => path.join(workspaceFolder().uri.fsPath, '.serverless-outputs');

  test('a workspace folder outside the workspace is not written to: the outputs stay in the workspace, and the user is asked', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-declined-'));
    await setWorkspaceOutputs(outside);
    const done = await finished((await run()).key);
    assert.equal(done.status, 'COMPLETED', done.error);
    assert.ok(inside(done).startsWith(workspaceOutputs()), inside(done));
    await waitForSelector(question(outside));
    // Not answered: the next job goes to the workspace too, and is not asked about again in this window.
    await vscode.commands.executeCommand('notifications.clearAll');
    const again = await finished((await run()).key);
    assert.ok(inside(again).startsWith(workspaceOutputs()), inside(again));
    assert.equal(await count(question(outside)), 0, 'asked once');
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written outside the workspace');
  });

  test('allowed once, that folder is used for the next jobs without another question', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-allowed-'));
    await setWorkspaceOutputs(outside);
    const first = await finished((await run()).key);
    assert.ok(inside(first).startsWith(workspaceOutputs()), inside(first));
    await click(`${question(outside)} .monaco-button:has-text("Allow This Folder")`);
    await eventually(() => !jobs.outputs.location.resolve().needsConfirmation || undefined, 'the folder to be allowed');
    const second = await finished((await run()).key);
    assert.ok(inside(second).startsWith(outside), inside(second));
    assert.equal(await count(question(outside)), 0, 'no second question');
  });

  test('the user\'s own setting is used without a question', async () => {
    await setWorkspaceOutputs(undefined);
    const mine = fs.mkdtempSync(path.join(os.tmpdir(), 'user-outputs-'));
    await config().update('jobs.outputsDirectory', mine, vscode.ConfigurationTarget.Global);
    const done = await finished((await run()).key);
    assert.ok(inside(done).startsWith(mine), inside(done));
  });
});

// A batch job whose /run answer was lost (issue 23 "Durable", docs/batches.md "What is safe to resend"): the
// batch never sends it again by itself, since it may exist on the service and nothing can look it up; once the
// rest is done the user is asked, and only "Send Them Again" sends it (counted on the wire by the recording proxy).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { digestOf, MANIFEST_FILE, MANIFEST_VERSION } from '../../src/core/batch';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { click, driverAvailable, textContent, waitForSelector } from './support/driver';
import { activateExtension, eventually, workspaceFolder } from './support/extension';
import { startEmulatorWith, type RunningEmulator } from './support/emulator';
import { startRecordingProxy } from './support/recordingProxy';

const KEY = 'k-batch-unknown';

suite('batch: a /run whose answer was lost', () => {
  let api: JobRunnerApi;
  let emulator: RunningEmulator;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;

  suiteSetup(async () => {
    const ext = await activateExtension();
    api = (ext.exports as { jobs: JobRunnerApi }).jobs;
    emulator = await startEmulatorWith(ext.extensionPath, {
      users: [{ id: 'u', keys: [{ key: KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }], endpoints: [{ id: 'fast', kind: 'image', queueMs: 20, executionMs: 150, workersMin: 2, workersMax: 2 }] }],
    });
    proxy = await startRecordingProxy(emulator.url);
    const client = api.createClient({ billingBaseUrl: proxy.url, jobsBaseUrl: proxy.url, apiKey: KEY });
    api.useClientSource({ getClient: async () => client, secrets: () => [KEY] });
  });

  suiteTeardown(async () => {
    api?.useClientSource(undefined);
    await proxy?.close();
    await emulator?.close();
  });

  test('is not resent by the resume; the user is asked at the end, and Send Them Again sends it once', async function () {
    this.timeout(120_000);
    if (!driverAvailable()) this.skip();
    await vscode.commands.executeCommand('notifications.clearAll');
    const folder = path.join(workspaceFolder().uri.fsPath, 'batch-unknown');
    fs.mkdirSync(folder, { recursive: true });
    const inputs = [1, 2, 3].map((i) => ({ prompt: `a lost answer ${i}`, width: 64, height: 64, seed: i }));
    inputs.forEach((input, i) => fs.writeFileSync(path.join(folder, `in-${i + 1}.input.json`), JSON.stringify({ input })));
    // What a window killed while job 2's /run was on its way leaves: 1 ended, 2 `submitting`, 3 not sent.
    const root = path.join(workspaceFolder().uri.fsPath, '.serverless-outputs', 'batches', 'lost-answer');
    fs.mkdirSync(root, { recursive: true });
    const at = Date.now();
    const row = (i: number, extra: object): object => ({ type: 'job', index: i, ref: { file: path.join(folder, `in-${i + 1}.input.json`) }, digest: digestOf(inputs[i]!), at, ...extra });
    const manifestPath = path.join(root, MANIFEST_FILE);
    fs.writeFileSync(manifestPath, [
      { type: 'batch', version: MANIFEST_VERSION, batchId: 'lost-answer', endpointId: 'fast', service: proxy.url, createdAt: new Date(at).toISOString(), jobs: 3, source: { kind: 'folder', path: folder } },
      row(0, { phase: 'ended', jobId: 'old-0', status: 'COMPLETED' }),
      row(1, { phase: 'submitting' }),
      row(2, { phase: 'pending' }),
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const runs = (): number => proxy.requests.filter((r) => r.method === 'POST' && r.url === '/v2/fast/run').length;

    const session = await api.batches.manager.resume(manifestPath, { confirmed: true });
    assert.ok(session);
    await eventually(() => (session.finished && !session.running) || undefined, 'the resumed batch to end');
    // Read in the notification center, not as a toast: after a full run of suites the toast can be out of view
    // (a toast shows for a while and only so many at once), while the center lists every notification.
    await vscode.commands.executeCommand('notifications.showList');
    const toast = '.notifications-center .notification-list-item:has-text("may or may not have been created on fast")';
    await waitForSelector(toast);
    assert.match(await textContent(toast), /1 job may or may not have been created.*may run and bill it twice/);
    assert.deepEqual(session.rows().map((r) => r.phase), ['ended', 'unknown', 'ended']);
    assert.equal(runs(), 1, 'the resume sent only the unsent job');

    await click(`${toast} .monaco-button:has-text("Send Them Again")`);
    await eventually(() => session.rows()[1]!.status === 'COMPLETED' || undefined, 'the job sent again to complete');
    assert.equal(runs(), 2, 'sent once more, on the user\'s word');
    await eventually(() => !session.running || undefined, 'the batch to end again');
    assert.deepEqual(session.unknownRows(), []);
    await vscode.commands.executeCommand('notifications.hideList');
  });
});

// Controlling real jobs in the real editor (issue 10): Cancel Job, Retry, why a queued job waits, an LLM's text
// as it is written, and an input file's request options, against the demo emulator started for this suite
// (a fresh one, so its cold-start endpoint is cold and its billing holds only this suite's jobs since it started).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../src/core/service';
import { JobsTreeProvider, type JobItem } from '../../src/history/jobsView';
import type { PanelJob } from '../../src/jobPanel/protocol';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { click, driverAvailable, pickQuickPickItem, QUICK_INPUT, quickPickItem, screenshot, textContent, waitForSelector } from './support/driver';
import { startEmulator } from './support/emulator';
import { jobWaits } from './support/jobWaits';
import { activateExtension, eventually, workspaceFolder } from './support/extension';
import { startRecordingProxy } from './support/recordingProxy';
import { fetchBilling } from './sidebarFixtures';

async function writeInput(name: string, value: unknown): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(workspaceFolder().uri, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n'));
  return uri;
}

suite('jobs control', () => {
  let api: JobRunnerApi;
  let emulator: { url: string; close(): Promise<void> };
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let client: ServiceClient;
  let suiteStartedAt = 0;
  const posts: Array<{ key: string; job: PanelJob; at: number }> = [];
  let subscription: vscode.Disposable | undefined;

  const { finished, showPanel } = jobWaits(() => api);

  const run = async (file: string, endpointId: string, value: unknown): Promise<JobRecord> => {
    const uri = await writeInput(file, value);
    await api.memory.rememberEndpoint(uri, endpointId);
    return (await vscode.commands.executeCommand(JobCommands.runCurrentFile, uri)) as JobRecord;
  };

  /** How the Jobs view describes a job right now ("Cancelled · 3.1 s · 10:02:03"). */
  const jobsViewItem = async (key: string): Promise<{ description: string; contextValue: string }> => {
    const tree = new JobsTreeProvider(api.history, (k) => api.runner.isRunning(k));
    try {
      const item = tree.getChildren().find((i): i is JobItem => 'record' in i && i.record.key === key);
      assert.ok(item, `the Jobs view lists ${key}`);
      return { description: String(item.description), contextValue: String(item.contextValue) };
    } finally {
      tree.dispose();
    }
  };

  /** What the emulator bills for an endpoint from the hour this suite started (its demo usage ends before that hour). */
  const billedSinceStart = async (endpointId: string): Promise<number> => {
    const hour = Math.floor(suiteStartedAt / 3_600_000) * 3_600_000;
    const response = await fetchBilling(proxy.url, 'demo-key-full', {
      startTime: new Date(hour).toISOString().replace('.000Z', 'Z'),
      endTime: new Date(hour + 3 * 3_600_000).toISOString().replace('.000Z', 'Z'),
      bucketSize: 'hour',
      serverlessId: endpointId,
    });
    return response.records.reduce((sum, r) => sum + r.totalAmount, 0);
  };

  suiteSetup(async () => {
    const ext = await activateExtension();
    const exported = ext.exports as { jobs?: JobRunnerApi } | undefined;
    assert.ok(exported?.jobs, 'the extension exposes the job runner to tests (ExtensionMode.Test)');
    api = exported.jobs;
    suiteStartedAt = Date.now();
    emulator = await startEmulator(ext.extensionPath);
    proxy = await startRecordingProxy(emulator.url);
    // Made by the extension's bundle, so its errors are the runner's own classes (see JobRunnerApi.createClient).
    client = api.createClient({ billingBaseUrl: proxy.url, jobsBaseUrl: proxy.url, apiKey: 'demo-key-full' });
    api.useClientSource({ getClient: async () => client, secrets: () => ['demo-key-full'] });
    subscription = api.panels.onDidPost(({ key, job }) => posts.push({ key, job, at: Date.now() }));
  });

  suiteTeardown(async () => {
    subscription?.dispose();
    api?.useClientSource(undefined);
    await proxy?.close();
    await emulator?.close();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Cancel Job ends a running job CANCELLED in the panel and the Jobs view, keeps its record and job.json, and billing shows its worker\'s time', async () => {
    const before = await billedSinceStart('wan-2-1-video');
    const t0 = Date.now();
    const started = await run('cancel-me.input.json', 'wan-2-1-video', { input: { prompt: 'a long video' } });
    const jobId = await eventually(() => api.history.get(started.key)?.jobId, 'the job id');
    // Let it run a while on its worker (6 s of execution in all), so there is time to bill and time left over.
    await eventually(async () => (await client.status('wan-2-1-video', jobId)).status === 'IN_PROGRESS', 'the job to run on a worker', 20_000);
    await new Promise((r) => setTimeout(r, 1500));
    if (driverAvailable()) {
      await showPanel(started.key);
      await click('[data-action="cancel-job"]', { inWebview: true });
    } else {
      assert.equal((await vscode.commands.executeCommand(JobCommands.cancelJob, started.key) as { kind: string }).kind, 'cancelled');
    }
    const done = await finished(started.key);
    assert.equal(done.status, 'CANCELLED', done.error ?? done.note);
    if (driverAvailable()) await waitForSelector('.statusbar-item:has-text("Job on wan-2-1-video cancelled")', { timeoutMs: 7000 });
    assert.ok(proxy.requests.some((r) => r.method === 'POST' && r.url === `/v2/wan-2-1-video/cancel/${jobId}`), 'POST /cancel was sent');
    // The record and its job.json are kept like any other end.
    assert.ok(done.outputsFolder, 'an outputs folder');
    const saved = JSON.parse(fs.readFileSync(path.join(vscode.Uri.parse(done.outputsFolder).fsPath, 'job.json'), 'utf8')) as { status: string; job: { executionTime: number } };
    assert.equal(saved.status, 'CANCELLED');
    const ranMs = saved.job.executionTime;
    assert.ok(ranMs > 1000 && ranMs < 5500, `it ran ${ranMs} ms of its 6000`);

    const shown = await eventually(() => api.panels.lastSent(started.key)?.status === 'CANCELLED' && api.panels.lastSent(started.key), 'the panel to say CANCELLED');
    assert.equal(shown.running, false);
    assert.equal(shown.canCancel, false, 'no Cancel on a cancelled job');
    const item = await jobsViewItem(started.key);
    assert.match(item.description, /^Cancelled · /);

    // Billing (issue 29, docs "Pricing"): the worker is billed, not the job: its start, the time it ran the job
    // and its idle time so far. So at least the time it ran, and at most the worker time since the submit (two
    // workers at most: one may still have been idling from an earlier test), each life rounded up to the second.
    const perSecond = 0.0012; // the demo's price of wan-2-1-video, billed as written (its `prices`, nothing added)
    const billed = (await eventually(async () => {
      const now = await billedSinceStart('wan-2-1-video');
      return now > before ? now : undefined;
    }, 'billing to show the cancelled job')) - before;
    const upToNow = 2 * ((Date.now() - t0) / 1000 + 1) * perSecond;
    assert.ok(billed >= (ranMs / 1000) * perSecond - 1e-9 && billed <= upToNow, `billed ${billed} for ${ranMs} ms run (at least ${(ranMs / 1000) * perSecond}, at most ${upToNow})`);

    if (driverAvailable()) {
      await showPanel(started.key);
      await eventually(async () => /^Cancelled · /.test(await textContent('#status-line', { inWebview: true })), 'the panel to read Cancelled');
      await vscode.commands.executeCommand('serverlessGpu.jobs.focus');
      await waitForSelector('.monaco-list-row:has-text("wan-2-1-video"):has-text("cancelled")');
    }
  });

  test('Cancel Job on a service without the cancel route says so plainly and stops waiting', async () => {
    // The emulator has the route; a service that answers /cancel with 404 for a job its /status knows is
    // stood in for by a small proxy that refuses the cancel path only.
    const started = await run('no-cancel.input.json', 'flux-dev', { prompt: 'no cancel here' });
    const jobId = await eventually(() => api.history.get(started.key)?.jobId, 'the job id');
    // A client of another service (base URL) whose /cancel is missing: the route is learned per service.
    const missing = await noRouteService(emulator.url);
    try {
      const other = api.createClient({ billingBaseUrl: missing.url, jobsBaseUrl: missing.url, apiKey: 'demo-key-full' });
      api.useClientSource({ getClient: async () => other, secrets: () => ['demo-key-full'] });
      const result = (await vscode.commands.executeCommand(JobCommands.cancelJob, started.key)) as { kind: string; message?: string };
      assert.equal(result.kind, 'noRoute', result.message);
      const done = await finished(started.key);
      assert.equal(done.status, 'STOPPED');
      assert.match(done.note ?? '', /no cancel route/);
      assert.match(done.note ?? '', /may still run and be billed/);
      assert.ok(missing.cancels > 0, 'the cancel was tried');
      assert.equal((await client.status('flux-dev', jobId)).status === 'CANCELLED', false, 'the job was not cancelled on the service');
    } finally {
      api.useClientSource({ getClient: async () => client, secrets: () => ['demo-key-full'] });
      await missing.close();
    }
  });

  test('the running jobs list cancels a job with its Cancel button, and the palette\'s Cancel Job asks which job', async function () {
    if (!driverAvailable()) this.skip();
    const started = await run('cancel-from-list.input.json', 'wan-2-1-video', { prompt: 'cancel me from the list' });
    await eventually(() => api.history.get(started.key)?.jobId, 'the job id');
    // Once its webview has loaded the panel no longer takes the focus, which would close the list.
    await eventually(() => api.panels.isReady(started.key), 'the job panel to load');
    const listed = vscode.commands.executeCommand(JobCommands.showRunningJobs);
    await waitForSelector(QUICK_INPUT);
    await click(`${quickPickItem('wan-2-1-video')} .codicon-circle-slash`);
    const done = await finished(started.key);
    assert.equal(done.status, 'CANCELLED', done.note);
    await listed;

    const second = await run('cancel-from-palette.input.json', 'wan-2-1-video', { prompt: 'cancel me from the palette' });
    await eventually(() => api.history.get(second.key)?.jobId, 'the job id');
    await eventually(() => api.panels.isReady(second.key), 'the job panel to load');
    const asked = vscode.commands.executeCommand(JobCommands.cancelJob);
    await pickQuickPickItem('wan-2-1-video', { title: 'Cancel which job?' });
    assert.equal(((await asked) as { kind: string }).kind, 'cancelled');
    assert.equal((await finished(second.key)).status, 'CANCELLED');
  });

  test('the input file schema accepts the request options and checks them', async () => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, 'options.input.json');
    const text = '{\n  "input": { "prompt": "x" },\n  "webhook": "http://127.0.0.1:9/hook",\n  "policy": {\n    "executionTimeout": "long",\n    "lowPriority": true\n  }\n}\n';
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await vscode.window.showTextDocument(uri);
    // The schema (the JSON language service) flags only executionTimeout (a string, line 5): webhook and
    // lowPriority are known options, not "additional properties".
    const schemaProblems = await eventually(() => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source !== 'Serverless GPU');
      return d.length >= 1 ? d : undefined;
    }, 'the schema to check the file', 45_000);
    await new Promise((r) => setTimeout(r, 1000)); // any further (wrong) diagnostic has had time to appear
    const settled = vscode.languages.getDiagnostics(uri).filter((x) => x.source !== 'Serverless GPU');
    assert.deepEqual(settled.map((d) => d.range.start.line), [4], settled.map((d) => d.message).join(' | '));
    assert.ok(schemaProblems.length >= 1);
    // Running it is refused before anything is sent, naming the field.
    await api.memory.rememberEndpoint(uri, 'echo');
    const before = proxy.requests.length;
    assert.equal(await vscode.commands.executeCommand(JobCommands.runCurrentFile, uri), undefined);
    const ours = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'Serverless GPU');
    assert.match(ours[0]?.message ?? '', /"policy\.executionTimeout"/);
    assert.equal(proxy.requests.length, before, 'nothing was sent');
  });

  test('on a service with only SPEC 4\'s routes a job runs as before: each missing route is tried once, then left alone', async () => {
    const spec = await noRouteService(emulator.url, /\/(status-sync|stream|cancel|retry)\/|\/health$/);
    try {
      const specClient = api.createClient({ billingBaseUrl: spec.url, jobsBaseUrl: spec.url, apiKey: 'demo-key-full' });
      api.useClientSource({ getClient: async () => specClient, secrets: () => ['demo-key-full'] });
      const first = await run('spec-only-1.input.json', 'flux-dev', { prompt: 'spec only', width: 64, height: 64 });
      const done = await finished(first.key);
      assert.equal(done.status, 'COMPLETED', done.error);
      // The next job asks none of the missing routes again.
      const before = spec.calls.length;
      const second = await run('spec-only-2.input.json', 'flux-dev', { prompt: 'spec only again', width: 64, height: 64 });
      assert.equal((await finished(second.key)).status, 'COMPLETED');
      const count = (calls: string[], route: RegExp): number => calls.filter((c) => route.test(c)).length;
      const all = spec.calls.join('\n');
      assert.equal(count(spec.calls.slice(0, before), /\/stream\//), 1, `the first job tried /stream once: ${all}`);
      assert.equal(count(spec.calls.slice(before), /\/stream\//), 0, `the second did not: ${all}`);
      // Status-sync and health are asked at most once in all (health only while a job waits in the queue).
      assert.ok(count(spec.calls, /\/status-sync\//) <= 1, all);
      assert.ok(count(spec.calls, /\/health$/) <= 1, all);
      assert.ok(count(spec.calls.slice(before), /\/status\//) >= 1, 'followed with /status');
    } finally {
      api.useClientSource({ getClient: async () => client, secrets: () => ['demo-key-full'] });
      await spec.close();
    }
  });

  test('Retry of a failed job queues the same job again and follows it in the same panel', async () => {
    const started = await run('retry-me.input.json', 'broken-gpu', { prompt: 'fails every time' });
    const failed = await finished(started.key);
    assert.equal(failed.status, 'FAILED');
    assert.equal((await jobsViewItem(started.key)).contextValue, 'serverlessGpu.job.retryable');
    await eventually(() => api.panels.lastSent(started.key)?.canRetry === true, 'the panel to offer Retry');
    const firstFinish = failed.finishedAt!;
    if (driverAvailable()) {
      await showPanel(started.key);
      await click('[data-action="retry"]', { inWebview: true });
    } else {
      assert.equal(await vscode.commands.executeCommand(JobCommands.retryJob, started.key), true);
    }
    await eventually(() => proxy.requests.some((r) => r.method === 'POST' && r.url === `/v2/broken-gpu/retry/${failed.jobId}`), 'POST /retry');
    const again = await eventually(() => {
      const r = api.history.get(started.key);
      return r && r.finishedAt !== undefined && r.finishedAt > firstFinish && !api.runner.isRunning(started.key) ? r : undefined;
    }, 'the retried job to end');
    assert.equal(again.jobId, failed.jobId, 'the same job on the service');
    assert.equal(again.status, 'FAILED');
    assert.match(again.error ?? '', /CUDA out of memory/);
    assert.equal(api.history.all().filter((r) => r.jobId === failed.jobId).length, 1, 'one record, followed again');
  });

  test('a job waiting for a cold start says so in its panel', async () => {
    // The demo's sd35-large has no warm worker: its first job waits 8 s for one to boot.
    const started = await run('cold.input.json', 'sd35-large', { prompt: 'a castle at dusk', width: 256, height: 256 });
    const shown = await eventually(() => {
      const sent = api.panels.lastSent(started.key);
      return sent?.status === 'IN_QUEUE' && sent.queueReason ? sent : undefined;
    }, 'the panel to say why the job waits', 20_000);
    assert.match(shown.queueReason ?? '', /cold start/);
    assert.ok(proxy.requests.some((r) => r.url === '/v2/sd35-large/health'), 'asked the endpoint\'s health');
    if (driverAvailable()) {
      await showPanel(started.key);
      await waitForSelector('#queue-reason', { inWebview: true });
      assert.match(await textContent('#queue-reason', { inWebview: true }), /Waiting for a worker to start \(cold start\)/);
      await vscode.commands.executeCommand('notifications.clearAll');
      await screenshot('job-panel-cold-start', { docs: true });
    }
    // Once a worker has taken it, the reason goes and the health questions stop.
    const done = await finished(started.key);
    assert.equal(done.status, 'COMPLETED', done.error);
    assert.equal(done.queueReason, undefined);
    const healthAsks = proxy.requests.filter((r) => r.url === '/v2/sd35-large/health').length;
    assert.ok(healthAsks >= 1 && healthAsks <= 6, `a few seconds apart while queued: ${healthAsks} health requests in ~8 s`);
  });

  test('an LLM job\'s text appears in the panel while it is written, and is saved as output.txt', async () => {
    // 78 tokens at 3 per 100 ms: the emulated model writes for 2.6 s.
    const started = await run('chat.input.json', 'llama-chat', { input: { prompt: 'Write a short story about vLLM' } });
    if (driverAvailable()) {
      await eventually(() => api.panels.isReady(started.key), 'the panel to load');
      await waitForSelector('#stream-text', { inWebview: true });
      // A few sentences in (of the 2.6 s it writes), so the picture shows text growing rather than its first word.
      await eventually(() => (api.panels.lastSent(started.key)?.streamText?.length ?? 0) > 150, 'some text to be written', 10_000);
      await vscode.commands.executeCommand('notifications.clearAll');
      // The editor area only: a picture of the panel, without whatever the rest of the window shows at that moment.
      await screenshot('job-panel-streaming', { docs: true, selector: '.part.editor' });
    }
    const done = await finished(started.key);
    assert.equal(done.status, 'COMPLETED', done.error);
    const streaming = posts.filter((p) => p.key === started.key && p.job.running && p.job.streamText);
    assert.ok(streaming.length >= 2, `the text grew in the panel while the job ran (${streaming.length} posts)`);
    const first = streaming[0]!;
    assert.ok(first.at < done.finishedAt!, 'text was shown before the job ended');
    assert.notEqual(first.job.status, 'COMPLETED');
    assert.ok(proxy.requests.some((r) => r.url.startsWith('/v2/llama-chat/stream/')), 'read through /stream');

    const text = done.outputs.find((o) => o.kind === 'text');
    assert.ok(text?.file, `a text output saved: ${JSON.stringify(done.outputs)}`);
    const file = vscode.Uri.parse(text.file).fsPath;
    assert.equal(path.basename(file), 'output.txt');
    assert.ok(fs.existsSync(path.join(path.dirname(file), 'job.json')), 'beside job.json');
    const saved = fs.readFileSync(file, 'utf8');
    assert.match(saved, /^ You asked: Write a short story about vLLM\./);
    // Part of the text, not yet all of it, was on the page while the job ran: it appeared as it was written.
    // (Not "each post longer than the one before": posts of one piece of text, for a status change, repeat it.)
    const lengths = streaming.map((p) => p.job.streamText!.length);
    assert.ok(lengths.some((n) => n < saved.length), `a part of the ${saved.length} characters was shown before the rest: ${lengths.join(', ')}`);
    assert.ok(saved.startsWith(streaming.at(-1)!.job.streamText!), 'the saved text is what was streamed');
    const final = await eventually(() => api.panels.lastSent(started.key)?.status === 'COMPLETED' && api.panels.lastSent(started.key), 'the final panel');
    assert.deepEqual(final.outputs.map((o) => o.kind), ['text'], 'shown as text, not JSON');
    if (driverAvailable()) {
      await showPanel(started.key);
      assert.equal((await textContent('#output-text', { inWebview: true })).trim(), saved.trim());
    }

    // A panel restored after a reload, with the job gone from the history, shows the text from output.txt.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.history.remove(started.key);
    const panel = vscode.window.createWebviewPanel('serverlessGpu.jobPanel', 'restored', vscode.ViewColumn.Active, { enableScripts: true });
    await api.panels.restore(panel, { key: started.key, job: final });
    const restored = await eventually(() => api.panels.lastSent(started.key), 'the restored panel');
    const restoredText = restored.outputs.find((o) => o.kind === 'text');
    assert.equal(restoredText?.kind === 'text' ? restoredText.text : undefined, saved);
  });

  test('an input file\'s policy.executionTimeout is sent as given: a job longer than it ends TIMED_OUT, shown as such', async () => {
    const started = await run('timeout.input.json', 'wan-2-1-video', { input: { prompt: 'too long for its limit' }, policy: { executionTimeout: 5500 } });
    const done = await finished(started.key);
    assert.equal(done.status, 'TIMED_OUT', done.error);
    // The status bar says it too, for a moment, whether or not the panel is in view.
    if (driverAvailable()) await waitForSelector('.statusbar-item:has-text("Job on wan-2-1-video timed out")', { timeoutMs: 7000 });
    const submitted = proxy.requests.find((r) => r.method === 'POST' && r.url === '/v2/wan-2-1-video/run' && r.body?.includes('too long'));
    assert.deepEqual(JSON.parse(submitted?.body ?? '{}').policy, { executionTimeout: 5500 });
    assert.match(done.error ?? '', /time/i);
    const shown = await eventually(() => api.panels.lastSent(started.key)?.status === 'TIMED_OUT' && api.panels.lastSent(started.key), 'the panel to say TIMED_OUT');
    assert.equal(shown.canRetry, true);
    const item = await jobsViewItem(started.key);
    assert.match(item.description, /^Timed out · /);
    if (driverAvailable()) {
      await showPanel(started.key);
      await eventually(async () => /^Timed out · /.test(await textContent('#status-line', { inWebview: true })), 'the panel to read Timed out');
    }
  });
});

/**
 * A stand-in for a service without some of the platform's routes (SPEC 4 has only run, runsync and status): the
 * paths `refused` matches answer 404, everything else goes to the emulator. Records every path asked.
 */
async function noRouteService(target: string, refused = /\/cancel\//): Promise<{ url: string; calls: string[]; cancels: number; close(): Promise<void> }> {
  const http = await import('node:http');
  const calls: string[] = [];
  const targetUrl = new URL(target);
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    if (refused.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ title: 'Not Found', status: 404, detail: 'no such route' }));
      return;
    }
    const upstream = http.request({ host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: { ...req.headers, host: targetUrl.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get cancels() { return calls.filter((c) => c.includes('/cancel/')).length; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

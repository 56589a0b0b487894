// A queue reason that agrees with the sidebar (issue 32), in the real editor: the panel said "All 1 worker busy:
// 0 jobs ahead in the queue" while the Endpoints view showed the same endpoint "1 idle", from a newer read. Here a
// job waits on `echo`, whose /health answers are scripted by a proxy in front of the demo emulator (its job
// routes answer IN_QUEUE for as long as the test wants): once any read of /health said idle (the view's own,
// when it refreshes), the job's reason never says "busy".
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { Commands } from '../../src/connection/commandIds';
import type { SidebarTestApi } from '../../src/extension';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { startEmulator, type RunningEmulator } from './support/emulator';
import { activateExtension, eventually } from './support/extension';
import { resetSidebar, useTestProfile } from './sidebarFixtures';

const ENDPOINT = 'echo';
const JOB_ID = 'queue-reason-job-1';
const BUSY = { workers: { running: 1, idle: 0 }, jobs: { inQueue: 1, inProgress: 1 } };
const IDLE = { workers: { running: 0, idle: 1 }, jobs: { inQueue: 1, inProgress: 0 } };

interface ScriptedQueue {
  url: string;
  health: typeof BUSY;
  /** Each /health read of the endpoint: when, and what it said. */
  reads: Array<{ at: number; idle: boolean }>;
  close(): Promise<void>;
}

/** The emulator behind a proxy that answers the endpoint's job routes (always IN_QUEUE) and its /health itself. */
async function scriptedQueue(target: string): Promise<ScriptedQueue> {
  const self: ScriptedQueue = { url: '', health: BUSY, reads: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const reply = (body: unknown, delayMs = 0): void => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      }, delayMs);
    };
    if (url.startsWith(`/v2/${ENDPOINT}/`)) {
      req.resume();
      if (url.startsWith(`/v2/${ENDPOINT}/health`)) {
        self.reads.push({ at: Date.now(), idle: self.health.workers.idle > 0 });
        return reply(self.health);
      }
      // /run, /status, /status-sync (held a moment, as a long poll is): the job waits in the queue.
      return reply({ id: JOB_ID, status: 'IN_QUEUE' }, url.includes('/status-sync/') ? 300 : 0);
    }
    const upstream = http.request(new URL(url, target), { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return self;
}

suite('queue reason and the sidebar', () => {
  let sidebar: SidebarTestApi;
  let api: JobRunnerApi;
  let emulator: RunningEmulator | undefined;
  let queue: ScriptedQueue | undefined;

  suiteSetup(async () => {
    const ext = await activateExtension();
    const exported = ext.exports as { sidebar: SidebarTestApi; jobs?: JobRunnerApi };
    assert.ok(exported.jobs);
    sidebar = exported.sidebar;
    api = exported.jobs;
    emulator = await startEmulator(ext.extensionPath);
    queue = await scriptedQueue(emulator.url);
    // The sidebar and the job go through the connection of this profile: one service, as in a user's window.
    await useTestProfile(sidebar, queue.url, 'Queue reason test');
    await sidebar.connection.setApiKey('demo-key-full');
    api.useClientSource(undefined);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSidebar(sidebar);
    await queue?.close();
    await emulator?.close();
  });

  test('the queue reason never says "busy" when /health said idle in the same read: the sidebar\'s newer read is the panel\'s too', async () => {
    const q = queue!;
    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    await vscode.commands.executeCommand(Commands.refreshEndpoints);
    await sidebar.endpoints!.tree.whenIdle();
    await sidebar.endpoints!.tree.health.whenIdle();

    q.health = BUSY;
    const record = await api.actions.runInput(ENDPOINT, { prompt: 'wait in the queue' }, 'async');
    const reason = (): string => api.history.get(record.key)?.queueReason ?? '';
    try {
      await eventually(() => /busy/.test(reason()) || undefined, 'the job\'s own read to say all workers are busy', 20_000);
      assert.equal(reason(), 'All 1 worker busy: 0 jobs ahead in the queue.');

      // The worker is free now; the Endpoints view reads the endpoint first (the job's own next read is seconds away).
      q.health = IDLE;
      const switched = q.reads.length;
      await vscode.commands.executeCommand(Commands.refreshEndpoints);
      await sidebar.endpoints!.tree.whenIdle();
      await eventually(() => q.reads.length > switched || undefined, 'the view to read the endpoint\'s health', 10_000);
      await sidebar.endpoints!.tree.health.whenIdle();
      assert.equal(sidebar.endpoints!.tree.health.get(ENDPOINT)?.health.workers.idle, 1, 'the view shows the endpoint 1 idle');
      const firstIdle = q.reads[switched]!.at;
      // From that read on, every look at the job's reason (for 4 s, past the job's own next read) agrees with it.
      const seen: string[] = [];
      const until = Date.now() + 4_000;
      while (Date.now() < until) {
        seen.push(reason());
        await new Promise((r) => setTimeout(r, 50));
      }
      const busy = seen.filter((s) => /busy/.test(s));
      assert.equal(busy.length, 0, `the reason said "${busy[0]}" ${busy.length} times after /health said idle (${Date.now() - firstIdle} ms ago at the end); reads: ${JSON.stringify(q.reads.map((r) => r.idle ? 'idle' : 'busy'))}`);
      assert.match(reason(), /idle: the job should start in a moment/);
    } finally {
      await vscode.commands.executeCommand(JobCommands.stopWaiting, record.key);
    }
  });
});

// Issue 28 "Done when": the platform's own MCP server (npm @runpod/mcp-server, pinned in package.json) manages
// endpoints and templates against the emulator, unchanged: its create, get, update, releases, workers, template
// and delete tools, each answered by the emulator's REST v2 routes. It is a stdio MCP server; this test speaks
// MCP's JSON-RPC to it over its stdin and stdout (newline-delimited messages, as the stdio transport frames them).
//
// Pointing it at the emulator: the server's REST client takes its base URL from RUNPOD_API_BASE_URL (its
// dist/stdio.mjs, createRunpodClient: `options.baseUrl || process.env.RUNPOD_API_BASE_URL || "https://api.runpod.io"`,
// and src/_shared/hosts.ts's sdkBase), the supported override; the paths it adds begin with /v2. Its analytics
// go out only with POSTHOG_API_KEY set, which this test removes from the child's environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { request, startEmulator } from '../emulator/harness';

const KEY = 'k-mcp';
const SERVER = resolve(__dirname, '../../node_modules/@runpod/mcp-server/dist/stdio.mjs');

const config = {
  users: [{
    id: 'mcp-user',
    keys: [{ key: KEY, scopes: ['endpoints:read', 'endpoints:write', 'jobs:run', 'jobs:read'] }],
    endpoints: [],
  }],
};

/** A minimal MCP client over a child's stdio: requests by id, answers matched by id. */
class McpClient {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  stderr = '';

  constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let msg: any;
      try { msg = JSON.parse(line); } catch { return; }
      const p = typeof msg.id === 'number' ? this.pending.get(msg.id) : undefined;
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${msg.error.code}: ${msg.error.message}`));
      else p.resolve(msg.result);
    });
    child.stderr!.on('data', (d) => { this.stderr += String(d); });
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.next++;
    return new Promise((resolveReply, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in 30 s; stderr: ${this.stderr}`)), 30_000);
      this.pending.set(id, { resolve: (v) => { clearTimeout(timer); resolveReply(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string, params: unknown = {}): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  /** tools/call; the tool's JSON payload (its first text content), asserting it did not fail. */
  async tool(name: string, args: Record<string, unknown>): Promise<any> {
    const r = await this.request('tools/call', { name, arguments: args });
    const text = r.content?.[0]?.text ?? '';
    assert.ok(!r.isError, `${name} failed: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

test('the official MCP server creates, reads, updates, lists releases and workers of, and deletes endpoints and templates on the emulator', async () => {
  const emu = await startEmulator(config);
  const env: NodeJS.ProcessEnv = { ...process.env, RUNPOD_API_KEY: KEY, RUNPOD_API_BASE_URL: emu.url };
  delete env.POSTHOG_API_KEY;
  const child = spawn(process.execPath, [SERVER], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const mcp = new McpClient(child);
  try {
    const init = await mcp.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'serverless-gpu-jobs-test', version: '0' } });
    assert.ok(init.serverInfo, JSON.stringify(init));
    mcp.notify('notifications/initialized');
    const { tools } = await mcp.request('tools/list', {});
    const names = new Set(tools.map((t: any) => t.name));
    for (const t of ['create-endpoint', 'get-endpoint', 'update-endpoint', 'list-endpoint-releases', 'list-endpoint-workers', 'delete-endpoint', 'create-template', 'get-template', 'update-template', 'delete-template']) {
      assert.ok(names.has(t), `the MCP server has no ${t} tool`);
    }

    const template = await mcp.tool('create-template', { body: { name: 'echo worker', image: 'serverless-emulator/echo-worker:3', serverless: true, env: { MODE: 'a' } } });
    assert.match(template.id, /^[a-z0-9]+$/);
    assert.equal((await mcp.tool('get-template', { id: template.id })).image, 'serverless-emulator/echo-worker:3');
    assert.equal((await mcp.tool('update-template', { id: template.id, body: { name: 'echo worker v2' } })).name, 'echo worker v2');

    const created = await mcp.tool('create-endpoint', {
      body: { name: 'from-mcp', templateId: template.id, type: 'QUEUE', gpu: { pools: ['ADA_24'], count: 1 }, workers: { min: 1, max: 2, idleTimeout: 5 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } },
    });
    const id = created.id as string;
    assert.deepEqual([created.name, created.image, created.workers], ['from-mcp', 'serverless-emulator/echo-worker:3', { min: 1, max: 2, idleTimeout: 5 }]);
    assert.equal((await mcp.tool('get-endpoint', { id })).id, id);

    const updated = await mcp.tool('update-endpoint', { id, body: { workers: { max: 3 }, env: { MODE: 'b' } } });
    assert.deepEqual([updated.workers.max, updated.env, updated.workers.min], [3, { MODE: 'b' }, 1]);
    const releases = await mcp.tool('list-endpoint-releases', { id });
    assert.deepEqual(releases.releases.map((r: any) => r.version), [2, 1]);
    assert.deepEqual(releases.releases[0].diff, [{ field: 'template.env', old: { MODE: 'a' }, new: { MODE: 'b' } }]);
    const workers = await mcp.tool('list-endpoint-workers', { id });
    assert.equal(workers.summary.total, 1, JSON.stringify(workers));
    assert.equal(workers.endpointVersion, 2);

    // A job through the endpoint's job routes, to show it runs like the others.
    const run = await request(emu.url, `/v2/${id}/runsync?wait=30000`, { method: 'POST', key: KEY, body: { input: { via: 'mcp' } } });
    assert.deepEqual([run.json.status, run.json.output], ['COMPLETED', { via: 'mcp' }], run.text);

    assert.ok(await mcp.tool('delete-endpoint', { id }) !== null);
    assert.equal((await request(emu.url, `/v2/serverless/${id}`, { key: KEY })).status, 404);
    await mcp.tool('delete-template', { id: template.id });
    assert.equal((await request(emu.url, `/v2/templates/${template.id}`, { key: KEY })).status, 404);
  } finally {
    child.kill();
    await emu.stop();
  }
});

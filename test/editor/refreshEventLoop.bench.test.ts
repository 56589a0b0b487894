// Issue 11's first figure, host.billingRefresh.eventLoopDelayMax: the largest event-loop delay of the real
// extension host (perf_hooks.monitorEventLoopDelay, 10 ms resolution) while the Endpoints view refreshes one
// year of hourly billing for 50 endpoints (438,000 records) from a local server and shows it. Every extension
// of a window shares this thread: while it is blocked, no completion, hover or CodeLens answers.
// A measurement, not a test: it runs only when test/bench/editorHost.bench.ts asks (SERVERLESS_GPU_BENCH_OUT
// set, `--grep @bench`), writes its figures to `<that path>.billing.json`, and is pending otherwise.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { Commands } from '../../src/connection/commandIds';
import type { SidebarTestApi } from '../../src/extension';
import { aBillingResponse } from '../unit/builders/billingResponse';
import { activateExtension, eventually } from './support/extension';
import { KEYS, resetSidebar, useTestProfile } from './sidebarFixtures';

const BENCH_OUT_ENV = 'SERVERLESS_GPU_BENCH_OUT';
const ENDPOINTS = 50;
const HOURS = 365 * 24;

suite('billing refresh on the extension host @bench', () => {
  let api: SidebarTestApi;
  let server: http.Server | undefined;
  let outPath: string;

  suiteSetup(async function () {
    const out = process.env[BENCH_OUT_ENV];
    if (!out) this.skip();
    outPath = `${out}.billing.json`;
    const ext = await activateExtension();
    api = (ext.exports as { sidebar: SidebarTestApi }).sidebar;
  });

  suiteTeardown(async () => {
    await resetSidebar(api);
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  test(`event-loop delay while the Endpoints view refreshes ${ENDPOINTS} endpoints x ${HOURS} hours`, async function () {
    this.timeout(300_000);
    const body = Buffer.from(JSON.stringify(aBillingResponse().withEndpoints(ENDPOINTS).hourly(HOURS).startingAt('2025-11-24T00:00:00Z').build()));
    server = http.createServer((req, res) => {
      if (!req.url?.startsWith('/v2/billing/serverless')) {
        res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"title":"Not Found","status":404,"detail":"no such route"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await useTestProfile(api, url, 'Billing refresh bench');
    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    await api.connection.setApiKey(KEYS.full);
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the first load', 120_000);

    // The measured refresh: from the command to the tree showing its top level, plus a second for the view to
    // ask for its items (what it shows), all under the event-loop monitor.
    const delays = monitorEventLoopDelay({ resolution: 10 });
    delays.enable();
    const started = Date.now();
    await vscode.commands.executeCommand(Commands.refreshEndpoints);
    await api.endpoints!.tree.whenIdle();
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the refresh', 120_000);
    const refreshMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, 1000));
    delays.disable();
    const result = { eventLoopDelayMaxMs: delays.max / 1e6, eventLoopDelayP99Ms: delays.percentile(99) / 1e6, refreshMs, bytes: body.length, records: ENDPOINTS * HOURS };
    assert.ok(result.eventLoopDelayMaxMs > 0, 'the monitor saw the loop');
    fs.writeFileSync(outPath, `${JSON.stringify(result, null, 2)}\n`);
  });
});

// Issue 11's first figure, host.billingRefresh.eventLoopDelayMax: the largest event-loop delay of the real
// extension host (perf_hooks.monitorEventLoopDelay, 10 ms resolution) while the Endpoints view refreshes one
// year of hourly billing for 50 endpoints (438,000 records) from the emulator and shows it. Every extension
// of a window shares this thread: while it is blocked, no completion, hover or CodeLens answers.
// A measurement, not a test: it runs only when test/bench/editorHost.bench.ts asks (SERVERLESS_GPU_BENCH_OUT
// set, `--grep @bench`), writes its figures to `<that path>.billing.json`, and is pending otherwise.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../src/connection/commandIds';
import type { SidebarTestApi } from '../../src/extension';
import { benchOutputOrSkip } from './support/benchOutput';
import { startEmulatorWith, type RunningEmulator } from './support/emulator';
import { activateExtension, eventually, getExtension } from './support/extension';
import { watchHostStalls, writeBenchFigures } from './support/hostStalls';
import { KEYS, resetSidebar, useTestProfile } from './sidebarFixtures';

const ENDPOINTS = 50;
const HOURS = 365 * 24;
const HOUR_MS = 3_600_000;

suite('billing refresh on the extension host @bench', () => {
  let api: SidebarTestApi;
  let emulator: RunningEmulator | undefined;
  let outPath: string;

  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this, '.billing.json');
    const ext = await activateExtension();
    api = (ext.exports as { sidebar: SidebarTestApi }).sidebar;
  });

  suiteTeardown(async () => {
    await resetSidebar(api);
    await emulator?.close();
  });

  test(`event-loop delay while the Endpoints view refreshes ${ENDPOINTS} endpoints x ${HOURS} hours`, async function () {
    this.timeout(300_000);
    // The service is the emulator in its own process, with a year of synthetic hourly usage for 50 endpoints:
    // neither building the 80 MB answer nor serving it (nor collecting its garbage) happens on this thread, so
    // the figure is the extension's alone.
    const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => ({ id: `bench-${String(i).padStart(2, '0')}`, kind: 'echo' }));
    emulator = await startEmulatorWith(getExtension().extensionPath, {
      users: [{ id: 'bench', keys: [{ key: KEYS.full, scopes: ['billing:read', 'endpoints:read'] }], endpoints, syntheticUsage: { days: 366, seed: 11 } }],
    });
    await useTestProfile(api, emulator.url, 'Billing refresh bench');
    const end = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const at = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'custom', startTime: at(end - HOURS * HOUR_MS), endTime: at(end), bucketSize: 'hour' });
    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    await api.connection.setApiKey(KEYS.full);
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the first load', 120_000);

    // The measured refresh: from the command to the tree showing its top level, plus a second for the view to
    // ask for its items (what it shows), all under the event-loop monitor and the gc observer.
    const stalls = watchHostStalls('billingRefresh');
    await stalls.ready;
    const started = Date.now();
    await vscode.commands.executeCommand(Commands.refreshEndpoints);
    await api.endpoints!.tree.whenIdle();
    const state = await eventually(() => { const s = api.endpoints!.tree.current; return s.kind === 'loaded' ? s : undefined; }, 'the refresh', 120_000);
    const refreshMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, 1000));
    const seen = await stalls.stop();
    const records = state.result.table.bucketOffsets[state.result.table.endpoints.length]!;
    assert.equal(records, ENDPOINTS * HOURS, 'a year of hourly buckets for every endpoint');
    assert.ok(seen.eventLoopDelayMaxMs > 0, 'the monitor saw the loop');
    writeBenchFigures(outPath, { ...seen, refreshMs, records });
  });
});

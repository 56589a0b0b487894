// The cost chart in the real editor: "Show Cost Chart" opens a webview that draws one stacked bar group per
// bucket of the tree's window (all endpoints or one), follows the tree when the window changes, and sets
// server strings as text. The page reports what it drew (a `drawn` message counted from Chart.js's own
// layout), and the DOM of the webview is checked through the driver.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../src/connection/commandIds';
import type { ListServerlessBillingResponse } from '../../src/core/schemas';
import { windowQuery } from '../../src/endpoints/billingWindow';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index';
import type { SidebarTestApi } from '../../src/extension';
import { click, count, screenshot, textContent, waitForSelector } from './support/driver';
import { activateExtension, eventually, getExtension } from './support/extension';
import { billingConfig, fetchBilling, KEYS, resetSidebar, useTestProfile } from './sidebarFixtures';

type Drawn = NonNullable<NonNullable<SidebarTestApi['endpoints']>['chart']['lastDrawn']>;

function totalOf(response: ListServerlessBillingResponse, endpointId?: string): number {
  return response.records.filter((r) => !endpointId || r.serverlessId === endpointId).reduce((s, r) => s + r.gpuAmount + r.cpuAmount + r.diskAmount + r.feeAmount, 0);
}

function bucketsOf(response: ListServerlessBillingResponse, endpointId?: string): number {
  return new Set(response.records.filter((r) => !endpointId || r.serverlessId === endpointId).map((r) => Date.parse(r.startTime))).size;
}

suite('chart: cost chart webview', () => {
  let api: SidebarTestApi;
  let emulator: RunningEmulator;

  /** Runs `action` and resolves with the next draw the page reports whose bucket count satisfies `accept`. */
  async function nextDraw(action: () => Thenable<unknown>, accept: (d: Drawn) => boolean): Promise<Drawn> {
    const chart = api.endpoints!.chart;
    const drawn = new Promise<Drawn>((resolve) => {
      const sub = chart.onDidDraw((d) => {
        if (!accept(d)) return;
        sub.dispose();
        resolve(d);
      });
    });
    await action();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out after 60000 ms waiting for the chart to draw')), 60_000);
    });
    try {
      return await Promise.race([drawn, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  suiteSetup(async () => {
    api = ((await activateExtension()).exports as { sidebar: SidebarTestApi }).sidebar;
    emulator = await startEmulator({ host: '127.0.0.1', port: 0, config: billingConfig(new Date()) });
    await useTestProfile(api, emulator.url);
    await api.connection.setApiKey(KEYS.full);
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last30Days' });
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSidebar(api);
    await emulator?.close();
  });

  test('Show Cost Chart draws one stacked bar group (GPU, CPU, disk, fee) per bucket of all endpoints', async () => {
    const expected = await fetchBilling(emulator.url, KEYS.full, windowQuery({ kind: 'preset', preset: 'last30Days' }));
    const n = bucketsOf(expected);
    assert.ok(n > 20, `the fixture fills most of the 30 days (${n})`);
    const drawn = await nextDraw(() => vscode.commands.executeCommand(Commands.showCostChart), (d) => d.bucketCount > 0);
    assert.equal(drawn.bucketCount, n);
    assert.deepEqual(drawn.datasetLabels, ['GPU', 'CPU', 'Disk', 'Fee']);
    assert.deepEqual(drawn.barsPerDataset, [n, n, n, n]);
    assert.ok(Math.abs(drawn.total - totalOf(expected)) < 1e-6, `drawn ${drawn.total}, billed ${totalOf(expected)}`);
    await waitForSelector('canvas#chart', { inWebview: true });
    assert.equal(await textContent('#title', { inWebview: true }), 'All endpoints');
    assert.match(await textContent('#subtitle', { inWebview: true }), /^Last 30 days, daily, \$[\d,]+\.\d{2}$/);
    assert.equal(await count('script[nonce][src*="costChart.js"]', { inWebview: true }), 1, 'the one script is ours, with the CSP nonce');
  });

  test('hovering a bucket\'s column shows its exact GPU, CPU, disk and fee amounts and their total', async () => {
    const chart = api.endpoints!.chart;
    chart.lastHover = undefined;
    await click('canvas#chart', { inWebview: true }); // the middle of the chart: some bucket's column
    const hover = await eventually(() => chart.lastHover, 'the hover box');
    const m = /^(\d{4}-\d{2}-\d{2}) \(from (\S+)\)$/.exec(hover.title[0] ?? '');
    assert.ok(m, `title ${JSON.stringify(hover.title)}`);
    const expected = await fetchBilling(emulator.url, KEYS.full, windowQuery({ kind: 'preset', preset: 'last30Days' }));
    const inBucket = expected.records.filter((r) => Date.parse(r.startTime) === Date.parse(m[2]!));
    assert.ok(inBucket.length > 0);
    const sum = (k: 'gpuAmount' | 'cpuAmount' | 'diskAmount' | 'feeAmount') => inBucket.reduce((s, r) => s + r[k], 0);
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });
    assert.deepEqual(hover.lines, [`GPU: ${usd.format(sum('gpuAmount'))}`, `CPU: ${usd.format(sum('cpuAmount'))}`, `Disk: ${usd.format(sum('diskAmount'))}`, `Fee: ${usd.format(sum('feeAmount'))}`]);
    assert.deepEqual(hover.footer, [`Total: ${usd.format(sum('gpuAmount') + sum('cpuAmount') + sum('diskAmount') + sum('feeAmount'))}`]);
    await screenshot('cost-chart', { docs: true }); // with the hover box showing
  });

  test('for one endpoint (context menu argument) it draws that endpoint\'s buckets only', async () => {
    const expected = await fetchBilling(emulator.url, KEYS.full, windowQuery({ kind: 'preset', preset: 'last30Days' }));
    const n = bucketsOf(expected, 'whisper-archive');
    const total = totalOf(expected, 'whisper-archive');
    assert.ok(total > 0 && total < totalOf(expected) / 2, 'the endpoint is a small part of the whole');
    const drawn = await nextDraw(() => vscode.commands.executeCommand(Commands.showCostChart, 'whisper-archive'), (d) => Math.abs(d.total - total) < 1e-6);
    assert.deepEqual(drawn.barsPerDataset, [n, n, n, n]);
    await eventually(async () => (await textContent('#title', { inWebview: true })) === 'whisper-archive' || undefined, 'the title to follow');
  });

  test('the view title\'s chart button draws the whole account stacked by endpoint, whatever item is selected (issue 22)', async () => {
    // The manifest puts the account's chart in the view title, and the endpoint's chart on its item.
    const manifest = JSON.parse(fs.readFileSync(path.join(getExtension().extensionPath, 'package.json'), 'utf8')) as { contributes: { menus: Record<string, Array<{ command: string; when?: string }>> } };
    const title = manifest.contributes.menus['view/title']!.filter((m) => m.when === 'view == serverlessGpu.endpoints').map((m) => m.command);
    assert.ok(title.includes(Commands.showAccountCostChart) && !title.includes(Commands.showCostChart), title.join(', '));
    const expected = await fetchBilling(emulator.url, KEYS.full, windowQuery({ kind: 'preset', preset: 'last30Days' }));
    const ids = [...new Set(expected.records.filter((r) => r.totalAmount > 0).map((r) => r.serverlessId))];
    // VS Code may hand a view-title command the selected item: it must not narrow the chart to it.
    const drawn = await nextDraw(() => vscode.commands.executeCommand(Commands.showAccountCostChart, 'whisper-archive'), (d) => Math.abs(d.total - totalOf(expected)) < 1e-6);
    assert.equal(drawn.datasetLabels.length, Math.min(ids.length, 9), drawn.datasetLabels.join(', '));
    assert.ok(!drawn.datasetLabels.includes('GPU'), 'stacked by endpoint, not by cost component');
    assert.ok(drawn.datasetLabels.some((l) => ids.includes(l) || /^Other endpoints/.test(l)), drawn.datasetLabels.join(', '));
    await eventually(async () => (await textContent('#title', { inWebview: true })) === 'Account, by endpoint' || undefined, 'the account title');
    await screenshot('cost-chart-account', { docs: true });
  });

  test('a panel restored after a reload (the serializer\'s path) redraws the endpoint its state names', async () => {
    const chart = api.endpoints!.chart;
    const expected = await fetchBilling(emulator.url, KEYS.full, windowQuery({ kind: 'preset', preset: 'last30Days' }));
    const total = totalOf(expected, 'llama-batch');
    const panel = vscode.window.createWebviewPanel('serverlessGpu.costChart', 'Cost Chart', vscode.ViewColumn.Active);
    const drawn = await nextDraw(async () => chart.restore(panel, { endpointId: 'llama-batch' }), (d) => Math.abs(d.total - total) < 1e-6);
    assert.equal(drawn.bucketCount, bucketsOf(expected, 'llama-batch'));
    await eventually(async () => (await textContent('#title', { inWebview: true })) === 'llama-batch' || undefined, 'the restored title');
  });

  test('the chart follows the tree\'s billing window', async () => {
    const expected = await fetchBilling(emulator.url, KEYS.full, windowQuery({ kind: 'preset', preset: 'last12Months' })); // the restored panel shows llama-batch
    const n = bucketsOf(expected, 'llama-batch');
    const total = totalOf(expected, 'llama-batch');
    const drawn = await nextDraw(
      () => vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last12Months' }),
      (d) => d.bucketCount === n && Math.abs(d.total - total) < 1e-6,
    );
    assert.deepEqual(drawn.barsPerDataset, [n, n, n, n]);
    await eventually(async () => /^Last 12 months, monthly, /.test(await textContent('#subtitle', { inWebview: true })) || undefined, 'the subtitle to follow');
  });
});

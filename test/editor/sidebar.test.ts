// The sidebar in the real editor (issue 4, "Done when"), against the emulator started in this process with a
// config of known usage: the key is set through the command (the test types into the real input box), the
// tree shows exactly what the emulator's billing route returns for each window preset, and every failure
// (bad key, key without billing, 429, a schema-breaking answer, a stopped emulator) shows its tree item.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { Commands } from '../../src/connection/commandIds';
import type { ListServerlessBillingResponse } from '../../src/core/schemas';
import { bucketLabel } from '../../src/endpoints/billingTreeModel';
import { formatUsd, formatUsdGroup } from '../../src/core/billing/usd';
import { PRESET_IDS, PRESETS, windowQuery, type BillingWindow } from '../../src/endpoints/billingWindow';
import type { TreeNode } from '../../src/endpoints/endpointItems';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index';
import type { SidebarTestApi } from '../../src/extension';
import { press, QUICK_INPUT, screenshot, typeText, waitForSelector } from './support/driver';
import { activateExtension, eventually } from './support/extension';
import { aBillingResponse } from '../unit/builders/billingResponse';
import { billingConfig, fetchBilling, KEYS, PROFILE_NAME, useTestProfile, resetSidebar } from './sidebarFixtures';

/** Waits until the quick input shows `title` (so keys go to the right box, not one that is closing). */
function inputTitled(title: string): Promise<void> {
  return waitForSelector(`.quick-input-widget:not([style*="display: none"]) .quick-input-title:has-text(${JSON.stringify(title)})`);
}

/** Runs a command that opens input boxes, and answers each (identified by its title) by typing. */
export async function answerInputBox<T>(command: string, ...answers: [title: string, text: string][]): Promise<T> {
  const pending = vscode.commands.executeCommand<T>(command);
  for (const [title, answer] of answers) {
    await inputTitled(title);
    await waitForSelector(QUICK_INPUT);
    if (answer) await typeText(answer);
    await press('Enter');
  }
  return pending;
}

interface Shown {
  label: string;
  description: string;
  contextValue: string | undefined;
  command: string | undefined;
  children: { label: string; description: string }[];
}

function text(v: string | vscode.TreeItemLabel | boolean | undefined): string {
  return typeof v === 'string' ? v : typeof v === 'object' && v ? v.label : '';
}

/** What the tree shows right now, read through the real provider (getChildren / getTreeItem). */
async function shownTree(api: SidebarTestApi): Promise<Shown[]> {
  const tree = api.endpoints!.tree;
  const top = (await tree.getChildren()) as TreeNode[];
  return Promise.all(top.map(async (node) => {
    const item = await tree.getTreeItem(node);
    const children = (await tree.getChildren(node)) as TreeNode[];
    return {
      label: text(item.label),
      description: text(item.description),
      contextValue: item.contextValue,
      command: item.command?.command,
      children: await Promise.all(children.map(async (c) => {
        const ci = await tree.getTreeItem(c);
        return { label: text(ci.label), description: text(ci.description) };
      })),
    };
  }));
}

/** A bucket's description: its total and split in one precision, the parts adding up to the total shown. */
function bucketMoney(r: ListServerlessBillingResponse['records'][number]): string {
  const g = formatUsdGroup(r.totalAmount, [r.gpuAmount, r.cpuAmount, r.diskAmount, r.feeAmount]);
  return `${g.total} · GPU ${g.parts[0]} + CPU ${g.parts[1]} + disk ${g.parts[2]} + fee ${g.parts[3]}`;
}

/** "$1,234.56" as a count of units of its last decimal, and its number of decimals. */
function moneyUnits(text: string): { units: number; decimals: number } {
  const m = /^(-?)\$([\d,]+)\.(\d+)$/.exec(text);
  assert.ok(m, `${JSON.stringify(text)} is an amount`);
  return { units: Number(`${m[2]!.replace(/,/g, '')}${m[3]}`) * (m[1] ? -1 : 1), decimals: m[3]!.length };
}

/** A tooltip's "Total $X" line and its "GPU $a + CPU $b + disk $c + fee $d" line: one precision, parts adding up. */
function assertMoneyAddsUp(tip: string): string {
  const total = /^Total (\S+)$/m.exec(tip)?.[1];
  const parts = /^GPU (\S+) \+ CPU (\S+) \+ disk (\S+) \+ fee (\S+)$/m.exec(tip)?.slice(1);
  assert.ok(total && parts, `a total and its four parts in ${JSON.stringify(tip)}`);
  const t = moneyUnits(total);
  const p = parts.map(moneyUnits);
  assert.ok(p.every((x) => x.decimals === t.decimals), `one precision: ${total} and ${parts.join(', ')}`);
  assert.equal(p.reduce((a, x) => a + x.units, 0), t.units, `${parts.join(' + ')} adds up to ${total}`);
  return total;
}

/** What the tree must show for a raw billing response, derived here from the records alone. */
function expectedTree(response: ListServerlessBillingResponse): Shown[] {
  const byId = new Map<string, ListServerlessBillingResponse['records']>();
  for (const r of response.records) byId.set(r.serverlessId, [...(byId.get(r.serverlessId) ?? []), r]);
  const endpoints = [...byId.entries()].map(([id, records]) => ({ id, records, sum: records.reduce((s, r) => s + r.totalAmount, 0) }));
  const nonZero = endpoints.filter((e) => e.sum !== 0).sort((a, b) => b.sum - a.sum);
  const zero = endpoints.filter((e) => e.sum === 0).sort((a, b) => (a.id < b.id ? -1 : 1));
  return [...nonZero, ...zero].map((e) => ({
    label: e.id,
    description: formatUsd(e.sum),
    contextValue: 'endpoint',
    command: undefined,
    children: [...e.records]
      .sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime))
      .map((r) => ({ label: bucketLabel(r.startTime, response.metadata.query.bucketSize), description: r.totalAmount === 0 && r.gpuAmount === 0 && r.cpuAmount === 0 && r.diskAmount === 0 && r.feeAmount === 0 ? '$0.00' : bucketMoney(r) })),
  }));
}

async function refreshed(api: SidebarTestApi): Promise<void> {
  await vscode.commands.executeCommand(Commands.refreshEndpoints);
  await api.endpoints!.tree.whenIdle();
}

/**
 * What most tests of the suite start from, set up by each one that needs it (so any test runs alone with --grep,
 * and does not lean on "Set API Key" having run before it): the test profile's full key stored and the tree loaded.
 * The key is stored directly: typing it into the real box is what "Set API Key checks the key…" tests.
 */
async function withFullKey(api: SidebarTestApi): Promise<void> {
  if (api.endpoints!.tree.current.kind !== 'loaded' || !(await api.connection.hasKey())) {
    await api.connection.setApiKey(KEYS.full);
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the tree to load with the full key', 60_000);
  }
  await api.endpoints!.tree.whenIdle();
}

async function errorItem(api: SidebarTestApi): Promise<Shown> {
  const shown = await shownTree(api);
  assert.equal(shown.length, 1, `one error item, got ${JSON.stringify(shown.map((s) => s.label))}`);
  assert.equal(shown[0]!.contextValue, 'error');
  return shown[0]!;
}

suite('sidebar: endpoints tree against the emulator', () => {
  let api: SidebarTestApi;
  let emulator: RunningEmulator;

  suiteSetup(async () => {
    api = ((await activateExtension()).exports as { sidebar: SidebarTestApi }).sidebar;
    assert.ok(api?.endpoints, 'test hooks are returned in test mode');
    emulator = await startEmulator({ host: '127.0.0.1', port: 0, config: billingConfig(new Date()), admin: true });
    await useTestProfile(api, emulator.url);
    await vscode.commands.executeCommand('workbench.view.extension.serverlessGpu');
  });

  suiteTeardown(async () => {
    await resetSidebar(api);
    await emulator?.close();
  });

  test('with no key the view shows its welcome: Set API Key and Try the Local Emulator', async () => {
    await refreshed(api);
    assert.equal(api.endpoints!.tree.current.kind, 'noKey');
    assert.deepEqual(await shownTree(api), []);
    await waitForSelector('.welcome-view-content a:has-text("Set API Key")');
    await waitForSelector('.welcome-view-content a:has-text("Try the Local Emulator")');
  });

  test('a rejected key (401) is not stored, and the command says so', async () => {
    const outcome = await answerInputBox<string>(Commands.setApiKey, [`Set API Key (${PROFILE_NAME})`, 'not-a-valid-key']);
    assert.equal(outcome, 'rejected');
    assert.equal(await api.connection.hasKey(), false);
    await refreshed(api);
    assert.equal(api.endpoints!.tree.current.kind, 'noKey');
  });

  test('a key without billing scope (403) is stored, and the tree says what it lacks with Set API Key', async () => {
    const outcome = await answerInputBox<string>(Commands.setApiKey, [`Set API Key (${PROFILE_NAME})`, KEYS.jobsOnly]);
    assert.equal(outcome, 'storedWithoutBilling');
    assert.equal(await api.connection.hasKey(), true);
    await refreshed(api);
    const item = await errorItem(api);
    assert.match(item.label, /no access to billing/);
    assert.match(item.label, /billing:read/);
    assert.equal(item.command, Commands.setApiKey);
    assert.ok(!item.label.includes(KEYS.jobsOnly), 'the key never appears in a message');
  });

  test('Set API Key checks the key with the service, stores it, and the tree loads', async () => {
    const outcome = await answerInputBox<string>(Commands.setApiKey, [`Set API Key (${PROFILE_NAME})`, KEYS.full]);
    assert.equal(outcome, 'stored');
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the tree to load after the key changed');
    await api.endpoints!.tree.whenIdle();
    assert.equal(api.endpoints!.tree.current.kind, 'loaded');
  });

  for (const preset of PRESET_IDS) {
    test(`window "${PRESETS[preset].label}": the tree shows exactly the endpoints, totals and buckets the billing route returns`, async () => {
      await withFullKey(api);
      const w: BillingWindow = { kind: 'preset', preset };
      await vscode.commands.executeCommand(Commands.changeBillingWindow, w);
      await api.endpoints!.tree.whenIdle();
      const expected = await fetchBilling(emulator.url, KEYS.full, windowQuery(w));
      assert.ok(expected.records.length > 0, 'the fixture has usage in every preset window');
      assert.deepEqual(await shownTree(api), expectedTree(expected));
      const loaded = api.endpoints!.tree.loaded!;
      assert.equal(loaded.model.window.startTime, expected.metadata.query.startTime);
      assert.equal(loaded.model.window.bucketSize, PRESETS[preset].bucketSize);
      assert.equal(api.endpoints!.view.description, `${PRESETS[preset].label}, ${({ hour: 'hourly', day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly' } as const)[PRESETS[preset].bucketSize]}, ${formatUsd(expected.metadata.totals.totalAmount)}`);
      assert.match(api.statusBar.text, new RegExp(`${PROFILE_NAME} · ${formatUsd(expected.metadata.totals.totalAmount).replace(/[$.]/g, '\\$&')}`));
    });
  }

  test('one money formatter: an endpoint\'s and a bucket\'s tooltip say the total as the tree and the status bar do, in one precision, its parts adding up to it', async () => {
    await withFullKey(api);
    const tree = api.endpoints!.tree;
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last30Days' });
    const endpoint = ((await tree.getChildren()) as TreeNode[])[0]!;
    const treeItem = await tree.getTreeItem(endpoint);
    const item = tree.resolveTreeItem(treeItem, endpoint);
    const tip = String(item.tooltip);
    const window = tree.loaded!.model.window;
    assert.match(tip, /^sdxl-prod\nTotal /);
    assert.equal(assertMoneyAddsUp(tip), String(treeItem.description), 'the tooltip\'s total reads as the item\'s description');
    assert.ok(tip.endsWith(`${window.startTime.slice(0, 10)} – ${window.endTime.slice(0, 10)}, daily`), tip);
    const bucket = ((await tree.getChildren(endpoint)) as TreeNode[])[0]!;
    const bucketItem = await tree.getTreeItem(bucket);
    const bucketTip = String(tree.resolveTreeItem(bucketItem, bucket).tooltip);
    assert.match(bucketTip, /^\S+ – \S+\nTotal /);
    const bucketTotal = assertMoneyAddsUp(bucketTip);
    assert.ok(String(bucketItem.description).startsWith(`${bucketTotal} · GPU `), `the bucket reads ${String(bucketItem.description)}`);
    assert.equal(tree.getParent(bucket), endpoint);
    const account = formatUsd(tree.loaded!.model.totals.total);
    assert.ok(api.statusBar.text.includes(` · ${account}`) && String(api.endpoints!.view.description).endsWith(account), `the status bar (${api.statusBar.text}) and the view (${String(api.endpoints!.view.description)}) say ${account}`);
  });

  test('the window choice is remembered', async () => {
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last12Weeks' });
    assert.deepEqual(api.endpoints!.tree.window, { kind: 'preset', preset: 'last12Weeks' });
    const pending = vscode.commands.executeCommand(Commands.changeBillingWindow);
    await inputTitled('Billing Window');
    await waitForSelector('.quick-input-widget .monaco-list-row:has-text("Last 30 days")');
    await typeText('Last 30 days');
    await press('Enter');
    assert.deepEqual(await pending, { kind: 'preset', preset: 'last30Days' });
    assert.deepEqual(api.endpoints!.tree.window, { kind: 'preset', preset: 'last30Days' });
  });

  test('a custom range is validated as typed and sent as start/end', async () => {
    await withFullKey(api);
    const pending = vscode.commands.executeCommand<BillingWindow | undefined>(Commands.changeBillingWindow);
    await inputTitled('Billing Window');
    await waitForSelector('.quick-input-widget .monaco-list-row:has-text("Custom range")');
    await typeText('Custom range');
    await press('Enter');
    await inputTitled('start (1/3)');
    await typeText('2026-02-30T00:00:00Z');
    await waitForSelector('.quick-input-widget .quick-input-message:has-text("Not an RFC 3339 date-time")');
    await press('Control+A');
    const start = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10) + 'T00:00:00Z';
    const end = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10) + 'T00:00:00Z';
    await typeText(start);
    await press('Enter');
    await inputTitled('end (2/3)');
    await typeText(end);
    await press('Enter');
    await inputTitled('bucket size (3/3)');
    await waitForSelector('.quick-input-widget .monaco-list-row:has-text("daily")');
    await typeText('daily');
    await press('Enter');
    const chosen = await pending;
    assert.deepEqual(chosen, { kind: 'custom', startTime: start, endTime: end, bucketSize: 'day' });
    await api.endpoints!.tree.whenIdle();
    const expected = await fetchBilling(emulator.url, KEYS.full, { startTime: start, endTime: end, bucketSize: 'day' });
    assert.deepEqual(await shownTree(api), expectedTree(expected));
    assert.match(String(api.endpoints!.view.description), /^\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}, daily, \$/);
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last30Days' });
  });

  test('Add Endpoint adds an endpoint by id with a display name, at the end with zero cost; Remove Endpoint removes it', async () => {
    await withFullKey(api);
    const added = await answerInputBox<string>(Commands.addEndpoint, ['Add Endpoint (1/2)', 'sdxl-staging-42'], ['Add Endpoint (2/2)', 'SDXL staging']);
    assert.equal(added, 'sdxl-staging-42');
    await api.endpoints!.tree.whenIdle();
    const shown = await shownTree(api);
    const last = shown[shown.length - 1]!;
    assert.equal(last.label, 'SDXL staging');
    assert.equal(last.description, 'sdxl-staging-42 · $0.00'); // the id beside the name (issue 10)
    assert.equal(last.contextValue, 'endpoint.added');
    assert.deepEqual(last.children, []);
    assert.equal(await vscode.commands.executeCommand(Commands.removeEndpoint, 'sdxl-staging-42'), true);
    await api.endpoints!.tree.whenIdle();
    assert.ok(!(await shownTree(api)).some((s) => s.label === 'SDXL staging'));
  });

  test('expanding an endpoint sends no request (the refresh is cached)', async () => {
    await withFullKey(api);
    await refreshed(api);
    const before = await requestsServed(emulator);
    await shownTree(api); // every endpoint's children
    await api.endpoints!.view.reveal(((await api.endpoints!.tree.getChildren()) as TreeNode[])[0]!, { expand: true });
    // The second probe is the only request in between.
    assert.equal(await requestsServed(emulator), before + 1);
  });

  test('screenshot of the sidebar', async () => {
    await withFullKey(api);
    // Weekly buckets: few enough that the other endpoints stay in the picture; a wider sidebar for the breakdown.
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last12Weeks' });
    await vscode.commands.executeCommand('workbench.actions.treeView.serverlessGpu.endpoints.collapseAll');
    // The width commands act on the focused part: focus the view first, so the sidebar grows.
    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    for (let i = 0; i < 8; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    const first = ((await api.endpoints!.tree.getChildren()) as TreeNode[])[0]!;
    await api.endpoints!.view.reveal(first, { expand: true, focus: false, select: false });
    await waitForSelector('.part.sidebar .monaco-list-row:has-text("' + text((await api.endpoints!.tree.getTreeItem(first)).label) + '")');
    await screenshot('sidebar', { selector: '.part.sidebar', docs: true });
    // Give the next suites the layout they had.
    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    for (let i = 0; i < 8; i++) await vscode.commands.executeCommand('workbench.action.increaseViewWidth');
    await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last30Days' });
  });

  test('a 429 shows "rate limited, next try in N s" and the tree retries by itself', async () => {
    await withFullKey(api);
    // Four 429s: the client's own retries (4 attempts) use them all, so the tree sees one; the next try succeeds.
    await admin(emulator, '/__admin/faults', { kind: 'status', status: 429, retryAfter: 2, count: 4, path: '/v2/billing' });
    const seen: string[] = [];
    const sub = api.endpoints!.tree.onDidChangeTreeData(() => seen.push(api.endpoints!.tree.current.kind));
    try {
      void vscode.commands.executeCommand(Commands.refreshEndpoints);
      const item = await eventually(async () => (api.endpoints!.tree.current.kind === 'error' ? errorItem(api) : undefined), 'the rate-limit item', 60_000);
      assert.match(item.label, /^Rate limited.*next try in \d+ s\.$/);
      await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the automatic retry to load the tree', 60_000);
      await api.endpoints!.tree.whenIdle();
      assert.deepEqual(seen.slice(-2), ['error', 'loaded']);
    } finally {
      sub.dispose();
    }
  });

  test('a response that breaks the schema says where', async () => {
    await withFullKey(api);
    await admin(emulator, '/__admin/faults', { kind: 'bad-schema', count: 1, path: '/v2/billing' });
    await refreshed(api);
    const item = await errorItem(api);
    assert.match(item.label, /^Unexpected response from the service at records/);
    assert.equal(item.command, Commands.refreshEndpoints);
    await refreshed(api);
    assert.equal(api.endpoints!.tree.current.kind, 'loaded');
  });

  test('an inconsistent response still loads, with the consistency warning shown in the view\'s message', async () => {
    const response = aBillingResponse().withEndpoints(['ep-one', 'ep-two']).daily(3).build();
    response.metadata.recordCount += 1;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await useTestProfile(api, url, 'Inconsistent');
      await api.connection.setApiKey(KEYS.full);
      await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the tree to load');
      await api.endpoints!.tree.whenIdle();
      assert.deepEqual((await shownTree(api)).map((s) => s.label), ['ep-two', 'ep-one']);
      assert.equal(api.endpoints!.view.message, `⚠ The service reports ${response.metadata.recordCount} records but sent 6.`);
    } finally {
      await api.connection.clearApiKey();
      await useTestProfile(api, emulator.url);
      await api.connection.setApiKey(KEYS.full);
      await api.endpoints!.tree.whenIdle();
      await new Promise<void>((r) => server.close(() => r()));
    }
    assert.equal(api.endpoints!.view.message, undefined);
  });

  test('a stopped emulator shows "Cannot reach HOST" with Retry', async () => {
    await withFullKey(api);
    const host = new URL(emulator.url).host;
    await emulator.close();
    await refreshed(api);
    const item = await errorItem(api);
    assert.equal(item.label, `Cannot reach ${host}. Check the connection profile and your network.`);
    assert.equal(item.command, Commands.refreshEndpoints);
    assert.equal(item.description, 'Retry');
  });
});

async function admin(emulator: RunningEmulator, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${emulator.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.ok(res.ok, `admin ${path}: ${res.status} ${await res.text()}`);
}

/** How many requests the emulator has counted for this user today, read from its RateLimit header (SPEC 8.2). */
async function requestsServed(emulator: RunningEmulator): Promise<number> {
  const res = await fetch(`${emulator.url}/v2/billing/serverless?lastN=1`, { headers: { authorization: `Bearer ${KEYS.full}` } });
  await res.text();
  const remaining = /day"?;r=(\d+)/.exec(res.headers.get('ratelimit') ?? '');
  assert.ok(remaining, `RateLimit header: ${res.headers.get('ratelimit')}`);
  return -Number(remaining[1]);
}

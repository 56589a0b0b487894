// A batch's prices (issue 27 item 7), in the real editor against the emulator: with a price known but no duration
// learned yet, the Send question says the price, never "unknown"; after the batch, a bill more than 25% off the
// estimate is said in the panel, whose button writes the pool price the bill implies to the user's settings. On
// d881301 the question said "Estimated cost: unknown (...no price for it)" and the panel showed the bill alone.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { click, driverAvailable, textContent, waitForSelector } from './support/driver';
import { eventually } from './support/extension';
import { durationKey } from '../../src/core/jobs';
import { imageInputs, useBatchRig } from './support/batchRig';

suite('batch prices', () => {
  // Billed at a GPU price of its own ($0.00044/s as written, nothing added), estimated by the table's ADA_24 ($0.00031/s).
  const rig = useBatchRig('k-batch-prices', [
    { id: 'priced', kind: 'image', queueMs: 20, executionMs: 400, workersMin: 2, workersMax: 2, gpuPools: ['ADA_24'], prices: { gpuPerSecond: 0.00044 } },
  ]);
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('serverlessGpu');

  suiteTeardown(async () => {
    await config().update('batch.gpuPrices', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a price known and no duration learned: the Send question says the price; a bill 25% off the estimate is said in the panel, and its button sets the pool price', async function () {
    this.timeout(120_000);
    const asked = rig.asked.length;
    const session = await rig.start({ kind: 'folder', path: imageInputs('prices-batch', 4) }, 'priced', { confirmed: undefined, concurrency: 2 });
    const [question] = rig.asked[asked] ?? [];
    assert.ok(question, 'the Send question was asked (no range: no duration learned)');
    assert.doesNotMatch(question, /unknown/, question);
    assert.match(question, /Estimated cost: not known yet .* \$0\.000310 per second it runs \(price table: RTX 4090 \(ADA_24\)/);
    await rig.toEnd(session);
    // Its durations are kept for the next window (a reload used to find none, and said "unknown" again).
    const key = durationKey(rig.client.settings.jobsBaseUrl, 'priced');
    await eventually(() => rig.api.storedDurations().estimate(key), 'the batch\'s durations saved for the next window', 15_000);
    const check = await eventually(() => session.billCheck, 'the bill read and compared', 30_000);
    assert.match(check.words, /^Billed \d+% more than the estimate \(\$[\d.]+ against \$[\d.]+\)\.$/);
    assert.equal(check.suggested?.pool, 'ADA_24');
    if (!driverAvailable()) return;
    await waitForSelector('#bill-check:not([hidden])', { inWebview: true });
    assert.equal(await textContent('#bill-words', { inWebview: true }), check.words);
    assert.equal(await textContent('#set-price', { inWebview: true }), `Set ADA_24 to $${check.suggested!.usdPerSecond}/s (from the bill)`);
    await click('#set-price', { inWebview: true });
    await eventually(() => config().inspect<Record<string, number>>('batch.gpuPrices')?.globalValue?.['ADA_24'] === check.suggested!.usdPerSecond || undefined, 'the price in the user settings');
  });
});

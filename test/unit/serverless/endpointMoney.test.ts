// Issue 28, Core: what a change means in money, from the GPU catalog (the emulator's GET /v2/catalog/gpus,
// read through the typed client): a pool's price per hour, and workers.min x the price x 24 a day.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../../../src/emulator/index';
import { createServiceClient } from '../../../src/core/http/client';
import { alwaysOnPerDay, moneyOfChange, poolPricePerHour, workerPricePerHour } from '../../../src/core/serverless/endpointMoney';
import type { EndpointSettings } from '../../../src/core/serverless/endpointEdit';

const s: EndpointSettings = {
  name: 'x', workersMin: 0, workersMax: 3, idleTimeout: 5, scalerType: 'QUEUE_DELAY', scalerValue: 4, timeout: 600_000,
  gpuPools: ['ADA_24'], gpuExcludedTypes: [], gpuCount: 1, flashboot: 'OFF', image: 'a', env: {},
};

test('prices from the catalog: pool per hour, worker per hour (dearest pool x GPUs), always-on per day', async () => {
  const emulator = await startEmulator({ config: { users: [{ id: 'u', keys: [{ key: 'k', scopes: ['endpoints:read'] }] }] } });
  after(() => emulator.close());
  const { gpus } = await createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: 'k' }).listGpuTypes();
  assert.equal(poolPricePerHour(gpus, 'ADA_24'), 1.116);
  assert.equal(poolPricePerHour(gpus, 'NOPE'), undefined);
  assert.equal(workerPricePerHour(gpus, ['ADA_24', 'AMPERE_80'], 2), 2.736 * 2);
  assert.equal(alwaysOnPerDay(gpus, s), 0);
  assert.ok(Math.abs(alwaysOnPerDay(gpus, { ...s, workersMin: 2 })! - 2 * 1.116 * 24) < 1e-9);
  assert.equal(alwaysOnPerDay(gpus, { ...s, workersMin: 1, gpuPools: ['NOPE'] }), undefined);
  const m = moneyOfChange(gpus, s, { ...s, workersMin: 1, gpuPools: ['AMPERE_80'] });
  assert.deepEqual([m.alwaysOnPerDay.before, m.raisesAlwaysOn, m.pools], [0, true, [{ pool: 'AMPERE_80', perHour: 2.736 }]]);
  assert.ok(Math.abs(m.alwaysOnPerDay.after! - 2.736 * 24) < 1e-9);
  assert.equal(moneyOfChange(gpus, { ...s, workersMin: 2 }, { ...s, workersMin: 1 }).raisesAlwaysOn, false);
});

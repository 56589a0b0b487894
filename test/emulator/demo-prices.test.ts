// The demo bills what the extension estimates (issue 29, "the per-job estimate and the batch range in
// src/core/cost/ are checked against this billing"). A dedicated endpoint of the emulator's config is billed at
// its first pool's catalog price unless it sets prices on purpose, so the price the extension reads (the REST v2
// GPU catalog, or its price table) is the price of every billed worker-second: the whole of it, split into the
// billing route's four parts (src/emulator/billing/workerPrices.ts). The demo's flux-dev once set $0.00076/s on
// ADA_48_PRO ($0.00053/s): its batches were billed 43% over their estimate; then CPU, disk and a fee
// ($0.000065/s) were still added on top of the catalog's price: 12% over.
import { scaleDownMsOf } from '../../src/core/serverless/scaleDown';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { moveClock, request, startEmulator, type Emulator } from './harness';
import { jobApi } from './runtimeFixtures';
import { demoConfig } from '../../src/emulator/demo/demo';
import { parseConfig } from '../../src/emulator/config';
import { CATALOG_SHARES, perWorkerSecond } from '../../src/emulator/billing/workerPrices';
import { defaultConcurrency, estimateBatchCost } from '../../src/core/batch';
import { endpointPrice, priceFromTable } from '../../src/core/cost/priceTable';

const KEY = 'demo-prices-key';
const demoEndpoints = demoConfig().users[0]!.endpoints!;
const FLUX_DEV = demoEndpoints.find((e) => e.id === 'flux-dev')!;
const JOBS = 12;
/** Relative: what the sums of doubles may differ by, nothing more. */
const TIGHT = 1e-9;
const close = (a: number, b: number): boolean => Math.abs(a - b) <= TIGHT * Math.max(Math.abs(a), Math.abs(b), 1e-12);

let emu: Emulator;
const api = jobApi(() => emu.url, KEY);
before(async () => {
  emu = await startEmulator({
    now: '2026-06-15T12:00:00Z', clockFrozen: true,
    users: [{ id: 'demo', keys: [{ key: KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }], endpoints: [FLUX_DEV] }],
  });
});
after(async () => { await emu?.stop(); });

async function get(path: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await request(emu.url, path, { key: KEY });
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return r.json;
}

describe('the demo bills what the extension estimates', () => {
  test('every dedicated demo endpoint is billed per worker-second, in all, the price table\'s price of its pools', () => {
    const parsed = parseConfig(demoConfig()).users[0]!.endpoints.filter((e) => !e.kind.startsWith('public-'));
    assert.ok(parsed.length >= 10, `${parsed.length} dedicated endpoints`);
    for (const e of parsed) {
      const table = priceFromTable({ gpu: { pools: e.gpuPools, count: e.gpuCount } });
      assert.ok(table, `${e.id}: its pools ${e.gpuPools.join(', ')} are in the price table`);
      const billed = perWorkerSecond(e.prices, e.gpuCount);
      assert.ok(close(billed, table.usdPerSecond), `${e.id}: billed $${billed}/s in all, estimated with ${table.source}`);
    }
  });

  test('a config endpoint\'s prices: its catalog price split into the four parts, unless it writes its own', () => {
    const pricesOf = (e: Record<string, unknown>) => parseConfig({ users: [{ id: 'u', endpoints: [{ id: 'e', kind: 'echo', ...e }] }] }).users[0]!.endpoints[0]!;
    const total = (e: Record<string, unknown>): number => { const p = pricesOf(e); return perWorkerSecond(p.prices, p.gpuCount); };
    assert.ok(close(total({}), 0.00031), 'the default pool, ADA_24');
    assert.ok(close(total({ gpuPools: ['AMPERE_80', 'ADA_24'] }), 0.00076), 'the first pool, where workers are placed');
    assert.ok(close(total({ gpuPools: ['AMPERE_80'], gpuCount: 2 }), 2 * 0.00076), 'every part once per GPU');
    assert.ok(close(total({ gpuPools: ['NO_SUCH_POOL'] }), 0.00044), 'a pool the catalog lacks: the fallback');
    const split = pricesOf({ gpuPools: ['ADA_48_PRO'] }).prices;
    for (const [part, share] of Object.entries(CATALOG_SHARES)) {
      assert.ok(close(split[`${part as keyof typeof CATALOG_SHARES}PerSecond`], 0.00053 * share), `${part}: ${share} of the price`);
    }
    // Written on purpose: billed as written, a part left out is 0 (nothing billed that the config does not say).
    assert.deepEqual(pricesOf({ gpuPools: ['AMPERE_80'], prices: { gpuPerSecond: 0.001 } }).prices, { gpuPerSecond: 0.001, cpuPerSecond: 0, diskPerSecond: 0, feePerSecond: 0, allPerGpu: false });
    assert.equal(total({ gpuCount: 2, prices: { gpuPerSecond: 0.001, cpuPerSecond: 0.0001, diskPerSecond: 0.00001, feePerSecond: 0.000001 } }), 2 * 0.001 + 0.0001 + 0.00001 + 0.000001, 'the GPU part per GPU, the rest per worker');
  });

  test(`flux-dev: ${JOBS} jobs' whole bill is the catalog price x the billed seconds, inside the batch's estimated range`, async () => {
    const endpoint = await get('/v2/serverless/flux-dev');
    const catalog = new Map<string, number>(((await get('/v2/catalog/gpus')).gpus as Array<{ pool: string; price: { serverless: number } }>).map((g) => [g.pool, g.price.serverless]));
    // The price a job's and a batch's estimate use (src/core/cost/priceTable.ts), from the catalog and from the table.
    const price = endpointPrice(endpoint, {}, catalog)!;
    assert.equal(price.usdPerSecond, 0.00053, price.source);
    assert.equal(endpointPrice(endpoint, {})!.usdPerSecond, price.usdPerSecond, 'the table says the same');

    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) ids.push(await api.submit('flux-dev', { prompt: `p${i}`, width: 8, height: 8 }));
    await moveClock(emu.url, { advanceMs: 120_000 }); // every job done, every worker idled out
    const executions: number[] = [];
    for (const id of ids) {
      const s = (await api.status('flux-dev', id)).json;
      assert.equal(s.status, 'COMPLETED', JSON.stringify(s));
      executions.push(s.executionTime);
    }
    const totals = (await get('/v2/billing/serverless?serverlessId=flux-dev&bucketSize=year&lastN=1')).metadata.totals;
    const lives = (await request(emu.url, '/__admin/worker-lives?endpointId=flux-dev')).json.lives as Array<{ billedSeconds: number; stoppedAt: string | null }>;
    assert.ok(lives.length > 0 && lives.every((l) => l.stoppedAt !== null), 'every worker has stopped');
    const billedSeconds = lives.reduce((s, l) => s + l.billedSeconds, 0);
    // [Pricing] each billed second of a worker at its pool's price, in all: the estimate's price, exactly.
    assert.ok(close(totals.totalAmount, billedSeconds * price.usdPerSecond), `billed $${totals.totalAmount} for ${billedSeconds} s at $${price.usdPerSecond}/s`);
    assert.ok(close(totals.totalAmount, totals.gpuAmount + totals.cpuAmount + totals.diskAmount + totals.feeAmount), 'the parts sum to the total');
    assert.ok(close(totals.gpuAmount, totals.totalAmount * CATALOG_SHARES.gpu) && totals.cpuAmount > 0 && totals.diskAmount > 0 && totals.feeAmount > 0, `split: ${JSON.stringify(totals)}`);

    // The range as planBatch makes it: the learned durations, the workers it may wake, the idle timeout.
    const mean = executions.reduce((a, b) => a + b, 0) / executions.length;
    const durations = { executionMs: mean, executionSpreadMs: Math.max(...executions.map((x) => Math.abs(x - mean))), queueMs: 0, queueSpreadMs: 0, samples: executions.length };
    const range = estimateBatchCost({
      jobs: JOBS, durations, price, workers: Math.min(defaultConcurrency(endpoint.workers.max), endpoint.workers.max),
      // REQUEST_COUNT (flux-dev): no idleTimeout in the response; the platform's own scale-down applies.
      idleTimeoutMs: scaleDownMsOf(endpoint),
    })!;
    assert.ok(range.lowUsd * (1 - TIGHT) <= totals.totalAmount && totals.totalAmount <= range.highUsd * (1 + TIGHT), `billed $${totals.totalAmount} in all, in the estimated $${range.lowUsd}..$${range.highUsd}`);
  });
});

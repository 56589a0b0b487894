// The price a single job's estimate uses, resolved as a batch's is (the user's prices, else the table by the
// endpoint's GPU pools), from endpoint shapes already read: against the emulator's real routes, counting the
// requests it answered, since "no extra request in the common case, never a wait" is the point.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../../../src/emulator/index';
import { createServiceClient } from '../../../src/core/http/client';
import { EndpointPrices } from '../../../src/core/cost/endpointPrices';
import { endpointPrice } from '../../../src/core/cost/priceTable';
import { PUBLIC_MODELS } from '../../../src/core/serverless/publicModels';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import { formatUsd } from '../../../src/core/billing/usd';

const KEY = 'k-cost-test';
const PUBLIC_ID = PUBLIC_MODELS[0]!.id;

async function rig() {
  const log: string[] = [];
  const emulator = await startEmulator({
    config: {
      users: [{
        id: 'u',
        keys: [{ key: KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }],
        endpoints: [
          { id: 'ded', kind: 'image', queueMs: 20, executionMs: 100, gpuPools: ['ADA_48_PRO', 'AMPERE_48'] },
          { id: 'other', kind: 'image', queueMs: 20, executionMs: 100, gpuPools: ['AMPERE_16'] },
          { id: PUBLIC_ID, kind: 'public-image', queueMs: 20, executionMs: 100 },
        ],
      }],
    },
    log: (line) => log.push(line.replace(/ \d+ms$/, '')),
  });
  after(() => emulator.close());
  const client = createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: KEY }, { retry: { baseDelayMs: 20, maxDelayMs: 50 } });
  const asked = (path: string): number => log.filter((l) => l.startsWith(`GET ${path} `)).length;
  return { emulator, client, asked };
}

const until = async (what: () => boolean, label: string): Promise<void> => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(what(), label);
};

describe('EndpointPrices', () => {
  test('an endpoint from the list is priced at once, with no request of its own; the user\'s prices win', async () => {
    const { client, asked } = await rig();
    const prices = new EndpointPrices();
    const service = client.settings.billingBaseUrl;
    prices.remember(service, (await client.listEndpoints()).endpoints);
    const price = prices.priceOf(service, 'ded', {});
    assert.equal(price?.usdPerSecond, 0.00053, 'the dearest listed pool (ADA_48_PRO)');
    assert.match(price!.source, /^price table: L40 .*\(ADA_48_PRO\)/);
    assert.equal(prices.priceOf(service, 'ded', { ADA_48_PRO: 0.001 })?.usdPerSecond, 0.001);
    assert.match(prices.priceOf(service, 'ded', { ADA_48_PRO: 0.001 })!.source, /^your price table/);
    prices.learn(client, 'ded');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(asked('/v2/serverless/ded'), 0, 'known from the list: not asked again');
  });

  test('an endpoint not read yet is read once in the background; until then its price is unknown, not waited for', async () => {
    const { client, asked } = await rig();
    const prices = new EndpointPrices();
    const service = client.settings.billingBaseUrl;
    prices.learn(client, 'other');
    prices.learn(client, 'other');
    assert.equal(prices.priceOf(service, 'other', {}), undefined, 'nothing known yet, and nothing awaited');
    await until(() => prices.priceOf(service, 'other', {}) !== undefined, 'the shape to arrive');
    assert.equal(prices.priceOf(service, 'other', {})?.usdPerSecond, 0.00016);
    prices.learn(client, 'other');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(asked('/v2/serverless/other'), 1, 'one request for two jobs at once and one after');
    assert.equal(prices.priceOf('http://elsewhere.invalid', 'other', {}), undefined, 'kept per service');
  });

  test('a public model is never asked for (it reports its own cost); an unreadable endpoint stays unknown, not asked by every job', async () => {
    const { client, asked } = await rig();
    let now = 1_000_000;
    const prices = new EndpointPrices(new RouteSupport(), () => now);
    prices.learn(client, PUBLIC_ID);
    prices.learn(client, 'missing');
    await until(() => asked('/v2/serverless/missing') === 1, 'the unknown endpoint to be asked for');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(asked(`/v2/serverless/${PUBLIC_ID}`), 0);
    assert.equal(prices.priceOf(client.settings.billingBaseUrl, 'missing', {}), undefined);
    prices.learn(client, 'missing');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(asked('/v2/serverless/missing'), 1, 'the next job does not ask again at once');
    now += 10 * 60_000;
    prices.learn(client, 'missing');
    await until(() => asked('/v2/serverless/missing') === 2, 'asked again ten minutes later');
  });

  test('a service known to have no endpoint list is not asked', async () => {
    const { client, asked } = await rig();
    const routes = new RouteSupport();
    routes.set(client.settings.billingBaseUrl, 'endpointList', 'no');
    const prices = new EndpointPrices(routes);
    prices.learn(client, 'ded');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(asked('/v2/serverless/ded'), 0);
  });

  test('a batch and a single job resolve a price the same way (endpointPrice)', () => {
    assert.equal(endpointPrice(undefined, { ADA_24: 1 }), undefined, 'no shape, no price: never a made-up one');
    assert.equal(endpointPrice({ gpu: { pools: ['AMPERE_80'], count: 2 } }, {})?.source, 'price table: A100 80GB (AMPERE_80) $0.000760/s x 2 GPUs');
  });

  test('the service\'s GPU catalog prices an estimate when it was read, the table is the fallback, and the source says which', async () => {
    const { client, asked } = await rig();
    const prices = new EndpointPrices();
    const service = client.settings.billingBaseUrl;
    prices.remember(service, (await client.listEndpoints()).endpoints);
    assert.match(prices.priceOf(service, 'ded', {})!.source, /^price table: /, 'no catalog yet: the table');
    prices.learn(client, 'ded');
    prices.learn(client, 'other');
    await until(() => /catalog/.test(prices.priceOf(service, 'ded', {})?.source ?? ''), 'the catalog to arrive');
    assert.equal(asked('/v2/catalog/gpus'), 1, 'the catalog is read once per service');
    const fromCatalog = prices.priceOf(service, 'ded', {})!;
    const hourly = (await client.listGpuTypes()).gpus.filter((g) => g.pool === 'ADA_48_PRO').map((g) => g.price.serverless!)[0]!;
    assert.equal(fromCatalog.usdPerSecond, Math.round((hourly / 3600) * 1e10) / 1e10);
    assert.equal(fromCatalog.source, `the service's GPU catalog: ADA_48_PRO ${formatUsd(hourly)}/h = ${formatUsd(fromCatalog.usdPerSecond)}/s`);
    assert.match(prices.priceOf(service, 'ded', { ADA_48_PRO: 0.001 })!.source, /^your price table: ADA_48_PRO \$0\.00100\/s/, 'the user\'s own price still wins');
    // A pool the catalog does not price: the table, as before.
    const perHour = new Map([['ADA_48_PRO', 2]]);
    assert.match(endpointPrice({ gpu: { pools: ['ADA_48_PRO', 'AMPERE_48'] } }, {}, perHour)!.source, /^price table: /);
    assert.equal(endpointPrice({ gpu: { pools: ['ADA_48_PRO'], count: 2 } }, {}, perHour)!.usdPerSecond, Math.round((2 / 3600) * 1e10) / 1e10 * 2);
  });
});

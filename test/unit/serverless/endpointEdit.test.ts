// Issue 28, Core: the PATCH body of an endpoint edit holds exactly the changed fields; GPU pools and excluded
// types are one selection (both or neither: a pools-only PATCH would clear the user's exclusions, the bug the
// official MCP server's update-endpoint warns of); the endpoint is read first and read back after, and a change
// made elsewhere since the form opened stops the edit. Against the emulator, over real HTTP.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../../../src/emulator/index';
import { createServiceClient } from '../../../src/core/http/client';
import { serverlessWrites } from '../../../src/core/serverless/serverlessWrites';
import { ForbiddenError, ValidationError, BadInputError } from '../../../src/core/http/errors';
import { describeChanges, editEndpoint, EditConflictError, keepPoolOrder, patchFor, settingsOf, type EndpointSettings } from '../../../src/core/serverless/endpointEdit';

const base: EndpointSettings = {
  name: 'sdxl', workersMin: 0, workersMax: 3, idleTimeout: 60, scalerType: 'QUEUE_DELAY', scalerValue: 4, timeout: 600_000,
  gpuPools: ['ADA_48_PRO'], gpuExcludedTypes: ['NVIDIA L40'], gpuCount: 1, flashboot: 'OFF', image: 'a:1', env: { A: '1' },
};

describe('keepPoolOrder: the pool order is the user\'s preference', () => {
  test('the endpoint\'s pools keep their order; a selection left alone is no change; new pools go after', () => {
    const current = ['ADA_48_PRO', 'AMPERE_48'];
    assert.deepEqual(keepPoolOrder(current, ['AMPERE_48', 'ADA_48_PRO']), current);
    assert.deepEqual(patchFor({ ...base, gpuPools: current }, { workersMax: 4, gpuPools: keepPoolOrder(current, ['AMPERE_48', 'ADA_48_PRO']) }), { workers: { max: 4 } });
    assert.deepEqual(keepPoolOrder(current, ['ADA_24', 'AMPERE_48', 'ADA_48_PRO']), ['ADA_48_PRO', 'AMPERE_48', 'ADA_24']);
    assert.deepEqual(keepPoolOrder(current, ['AMPERE_48']), ['AMPERE_48']);
  });
});

describe('patchFor: exactly the fields the user changed', () => {
  test('nothing changed: an empty body', () => {
    assert.deepEqual(patchFor(base, { ...base }), {});
    assert.deepEqual(patchFor(base, {}), {});
  });

  test('one setting: only its field; workers fields merge into one object', () => {
    assert.deepEqual(patchFor(base, { workersMax: 5 }), { workers: { max: 5 } });
    assert.deepEqual(patchFor(base, { workersMax: 5, idleTimeout: 5, workersMin: 1 }), { workers: { min: 1, max: 5, idleTimeout: 5 } });
    assert.deepEqual(patchFor(base, { scalerValue: 2 }), { scaling: { type: 'QUEUE_DELAY', queueDelay: 2 } });
    assert.deepEqual(patchFor(base, { scalerType: 'REQUEST_COUNT', scalerValue: 3 }), { scaling: { type: 'REQUEST_COUNT', requestCount: 3 } });
    assert.deepEqual(patchFor(base, { timeout: 30_000, flashboot: 'FLASHBOOT' }), { timeout: 30_000, flashboot: 'FLASHBOOT' });
    assert.deepEqual(patchFor(base, { env: { A: '1' } }), {});
    assert.deepEqual(patchFor(base, { env: { A: '2' } }), { env: { A: '2' } });
  });

  test('gpu.pools and gpu.excludedTypes are one selection: both are sent, or neither', () => {
    // A count-only change never touches the selection.
    assert.deepEqual(patchFor(base, { gpuCount: 2 }), { gpu: { count: 2 } });
    // A pools change restates the exclusions (sending pools alone would clear them).
    assert.deepEqual(patchFor(base, { gpuPools: ['ADA_48_PRO', 'AMPERE_48'] }), { gpu: { pools: ['ADA_48_PRO', 'AMPERE_48'], excludedTypes: ['NVIDIA L40'] } });
    // An exclusions change restates the pools (exclusions alone are refused by the service).
    assert.deepEqual(patchFor(base, { gpuExcludedTypes: [] }), { gpu: { pools: ['ADA_48_PRO'], excludedTypes: [] } });
    // The same selection in the form: neither.
    assert.deepEqual(patchFor(base, { gpuPools: ['ADA_48_PRO'], gpuExcludedTypes: ['NVIDIA L40'] }), {});
  });

  test('describeChanges says old and new in the form\'s words', () => {
    const texts = describeChanges(base, { ...base, workersMax: 5, idleTimeout: 5, gpuPools: ['AMPERE_48'] }).map((c) => c.text);
    assert.deepEqual(texts, ['workers.max 3 → 5', 'idleTimeout 60 s → 5 s', 'GPU pools ADA_48_PRO → AMPERE_48']);
  });
});

const KEY = 'k-edit';
const READ_ONLY = 'k-edit-read';

async function rig() {
  const log: string[] = [];
  const emulator = await startEmulator({
    config: {
      users: [{
        id: 'u',
        keys: [{ key: KEY, scopes: ['endpoints:read', 'endpoints:write'] }, { key: READ_ONLY, scopes: ['endpoints:read'] }],
        endpoints: [{ id: 'ed', kind: 'echo', gpuPools: ['ADA_48_PRO'], idleTimeoutMs: 60_000, scalerType: 'QUEUE_DELAY', scalerValue: 4 }],
      }],
    },
    log: (line) => log.push(line.replace(/ \d+ms$/, '')),
  });
  after(() => emulator.close());
  const client = (key = KEY) => createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: key }, { retry: { baseDelayMs: 20, maxDelayMs: 50 }, serverlessWrites: () => serverlessWrites });
  return { emulator, client, log };
}

describe('editEndpoint against the emulator', async () => {
  const { client, log } = await rig();

  test('reads first, sends only the change (keeping the exclusions), reads back, and says what changed', async () => {
    const c = client();
    // Exclusions set elsewhere (the console): the edit of the pools must keep them.
    await c.updateEndpoint('ed', { gpu: { pools: ['ADA_48_PRO'], excludedTypes: ['NVIDIA L40'] } });
    log.length = 0;
    const r = await editEndpoint(c, 'ed', { workersMax: 5, gpuPools: ['ADA_48_PRO', 'AMPERE_48'] });
    assert.deepEqual(r.sent, { workers: { max: 5 }, gpu: { pools: ['ADA_48_PRO', 'AMPERE_48'], excludedTypes: ['NVIDIA L40'] } });
    assert.deepEqual(log, ['GET /v2/serverless/ed 200', 'PATCH /v2/serverless/ed 200', 'GET /v2/serverless/ed 200']);
    assert.deepEqual(r.changed.map((x) => x.text), ['workers.max 3 → 5', 'GPU pools ADA_48_PRO → ADA_48_PRO, AMPERE_48']);
    assert.deepEqual(r.after.gpu?.excludedTypes, ['NVIDIA L40']);
    assert.deepEqual(r.notApplied, []);
  });

  test('nothing to change: nothing is sent', async () => {
    log.length = 0;
    const r = await editEndpoint(client(), 'ed', { workersMax: 5 });
    assert.deepEqual([r.sent, r.changed, log], [{}, [], ['GET /v2/serverless/ed 200']]);
  });

  test('a change made elsewhere since the form opened stops the edit, and nothing is sent', async () => {
    const c = client();
    const seen = await c.getEndpoint('ed');
    await c.updateEndpoint('ed', { workers: { idleTimeout: 7 } }); // the other window
    log.length = 0;
    await assert.rejects(editEndpoint(c, 'ed', { workersMax: 2 }, seen), (e: unknown) => {
      assert.ok(e instanceof EditConflictError);
      assert.deepEqual(e.changes.map((x) => x.text), ['idleTimeout 60 s → 7 s']);
      return true;
    });
    assert.deepEqual(log, ['GET /v2/serverless/ed 200']);
  });

  test('typed errors: a key without write access is ForbiddenError; the service\'s 400 lists its errors; a bad body is refused before sending', async () => {
    await assert.rejects(editEndpoint(client(READ_ONLY), 'ed', { workersMax: 1 }), ForbiddenError);
    await assert.rejects(client().updateEndpoint('ed', { workers: { min: 9 } }), (e: unknown) => e instanceof ValidationError && e.errors.some((x) => x.includes('workers.min')));
    log.length = 0;
    await assert.rejects(client().updateEndpoint('ed', { workers: { idleTimeout: 0 } }), (e: unknown) => e instanceof BadInputError && /workers\.idleTimeout/.test(e.message));
    assert.deepEqual(log, [], 'nothing sent');
    assert.equal(settingsOf(await client().getEndpoint('ed')).workersMax, 5);
  });

  test('a client made without the write calls (extension.js hands them in from dist/rooms.js) refuses a write and sends nothing', async () => {
    const bare = createServiceClient(client().settings);
    log.length = 0;
    await assert.rejects(bare.updateEndpoint('ed', { workers: { max: 2 } }), /made without the serverless write calls/);
    assert.equal((await bare.listGpuTypes()).gpus.length > 0, true, 'the catalog is a read, made without them');
    assert.deepEqual(log, ['GET /v2/catalog/gpus 200'], 'nothing but the catalog read was sent');
  });
});

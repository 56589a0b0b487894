// Issue #3 "Admin": POST /__admin/faults turns on failure modes for clients' resilience tests. The JSON is the
// emulator's own (docs/emulator.md): {kind: "status", status, retryAfter?} | {kind: "drop"} |
// {kind: "delay", delayMs} | {kind: "non-json"} | {kind: "bad-schema"}, each with count (default 1) and a path
// prefix (default "/v2/"). A faulted request is not processed: no job, no rate-limit unit.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { parseList, type Item } from 'structured-headers';
import { Job, ListServerlessBillingResponse } from '../../src/core/schemas';
import { request, startEmulator, type Emulator, type Reply } from './harness';
import { assertProblem } from './assertions';
import { config, ENDPOINTS, KEYS } from './fixtures';

let emu: Emulator;
before(async () => { emu = await startEmulator(config()); });
after(async () => { await emu?.stop(); });
afterEach(async () => { await request(emu.url, '/__admin/faults', { method: 'DELETE' }); });

const BILLING = '/v2/billing/serverless?lastN=1';
const billing = () => request(emu.url, BILLING, { key: KEYS.full });

async function fault(spec: Record<string, unknown>): Promise<void> {
  const r = await request(emu.url, '/__admin/faults', { method: 'POST', body: spec });
  assert.equal(r.status, 200, r.text);
}

function minuteRemaining(r: Reply): number {
  const list = parseList(String(r.headers.ratelimit));
  const minute = list.find((m) => (m as Item)[0] === 'minute') as Item;
  return minute[1].get('r') as number;
}

describe('injected status codes', () => {
  test('{kind: status, status: 500, count: 2}: the next two responses are 500 problem+json, the third is normal', async () => {
    await fault({ kind: 'status', status: 500, count: 2 });
    assertProblem(await billing(), 500);
    assertProblem(await billing(), 500);
    assert.equal((await billing()).status, 200);
  });

  test('503 with a Retry-After', async () => {
    await fault({ kind: 'status', status: 503, retryAfter: 7 });
    const r = await billing();
    assertProblem(r, 503);
    assert.equal(r.headers['retry-after'], '7');
    assert.equal((await billing()).status, 200);
  });

  test('429 with a Retry-After and a detail naming a window, like a real one', async () => {
    await fault({ kind: 'status', status: 429, retryAfter: 12 });
    const r = await billing();
    const p = assertProblem(r, 429);
    assert.equal(r.headers['retry-after'], '12');
    assert.match(p.detail, /minute|hour|day/);
  });

  test('a faulted request uses no rate-limit unit', async () => {
    const before0 = minuteRemaining(await billing());
    await fault({ kind: 'status', status: 500, count: 3 });
    for (let i = 0; i < 3; i++) assert.equal((await billing()).status, 500);
    assert.equal(minuteRemaining(await billing()), before0 - 1);
  });

  test('a path prefix limits the fault to those routes', async () => {
    await fault({ kind: 'status', status: 503, path: `/v2/${ENDPOINTS.echo}/` });
    assert.equal((await billing()).status, 200, 'billing is not under the prefix');
    assertProblem(await request(emu.url, `/v2/${ENDPOINTS.echo}/run`, { key: KEYS.full, body: { input: {} } }), 503);
    assert.equal((await request(emu.url, `/v2/${ENDPOINTS.echo}/run`, { key: KEYS.full, body: { input: {} } })).status, 200);
  });
});

describe('broken transports and bodies', () => {
  test('drop: the connection closes with no answer, and the next request is served', async () => {
    await fault({ kind: 'drop' });
    await assert.rejects(billing(), /socket hang up|ECONNRESET/);
    assert.equal((await billing()).status, 200);
  });

  test('delay: the answer is the normal one, and it comes no sooner than the delay', async () => {
    await fault({ kind: 'delay', delayMs: 1500 });
    const t0 = performance.now();
    const r = await billing();
    const waited = performance.now() - t0;
    assert.equal(r.status, 200, r.text);
    assert.ok(waited >= 1400, `answered after ${waited.toFixed(0)} ms`);
  });

  test('non-json: a 200 whose body does not parse as JSON', async () => {
    await fault({ kind: 'non-json' });
    const r = await billing();
    assert.equal(r.status, 200);
    assert.throws(() => JSON.parse(r.text));
  });

  test('bad-schema on billing: JSON that breaks the billing response schema', async () => {
    await fault({ kind: 'bad-schema' });
    const r = await billing();
    assert.equal(r.status, 200);
    assert.ok(!ListServerlessBillingResponse.safeParse(JSON.parse(r.text)).success);
  });

  test('bad-schema on /status: JSON that breaks the job schema', async () => {
    const run = await request(emu.url, `/v2/${ENDPOINTS.echo}/run`, { key: KEYS.full, body: { input: {} } });
    await fault({ kind: 'bad-schema' });
    const r = await request(emu.url, `/v2/${ENDPOINTS.echo}/status/${run.json.id}`, { key: KEYS.full });
    assert.equal(r.status, 200);
    assert.ok(!Job.safeParse(JSON.parse(r.text)).success, r.text);
  });
});

describe('the faults route itself', () => {
  test('GET lists the queued faults with what remains, DELETE clears them', async () => {
    await fault({ kind: 'status', status: 502, count: 5 });
    const listed = await request(emu.url, '/__admin/faults');
    assert.equal(listed.status, 200);
    assert.equal(listed.json.faults.length, 1);
    assert.equal(listed.json.faults[0].remaining, 5);
    assert.equal((await request(emu.url, '/__admin/faults', { method: 'DELETE' })).status, 200);
    assert.equal((await billing()).status, 200);
  });

  test('an invalid fault is 400 and queues nothing', async () => {
    const r = await request(emu.url, '/__admin/faults', { method: 'POST', body: { kind: 'meteor' } });
    assertProblem(r, 400);
    assert.equal((await billing()).status, 200);
  });
});

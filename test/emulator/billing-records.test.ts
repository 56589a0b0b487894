// SPEC 4.1 rules 2-3, 2.3-2.6, 5 rule 4 and issue #3 "Billing": the records themselves. Amounts are the sums
// of the usage events in [start, end) of each bucket; one record per endpoint with usage per bucket (zeros in
// its empty buckets), ordered by startTime then serverlessId; the filter; and exact metadata.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ListServerlessBillingResponse } from '../../src/core/schemas';
import { request, startEmulator, type Emulator } from './harness';
import { assertProblem } from './assertions';
import { KEYS } from './fixtures';
import { ALICE_USAGE, billingConfig, expectedRecords, normalise, type ExpectedRecord } from './billingData';

let emu: Emulator;
before(async () => { emu = await startEmulator(billingConfig()); });
after(async () => { await emu?.stop(); });

async function billing(query: Record<string, string | number>, key: string = KEYS.full) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const r = await request(emu.url, `/v2/billing/serverless${qs ? `?${qs}` : ''}`, { key });
  assert.equal(r.status, 200, `${qs}: ${r.text.slice(0, 500)}`);
  // The response must satisfy the shared wire schema the client reads it with.
  const parsed = ListServerlessBillingResponse.safeParse(r.json);
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3)));
  return r.json;
}

function totalsOf(records: ExpectedRecord[]) {
  const t = { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0 };
  for (const r of records) for (const k of Object.keys(t) as Array<keyof typeof t>) t[k] += r[k];
  return t;
}

/** Compares a whole response with the oracle: records in order, recordCount, uniqueServerlessCount, totals. */
function assertMatchesOracle(body: any, expected: ExpectedRecord[]) {
  const actual = body.records.map(normalise);
  assert.deepEqual(actual, expected);
  assert.equal(body.metadata.recordCount, expected.length);
  assert.equal(body.metadata.uniqueServerlessCount, new Set(expected.map((r) => r.serverlessId)).size);
  const totals = totalsOf(expected);
  for (const [k, v] of Object.entries(totals)) assert.equal(body.metadata.totals[k], v, `totals.${k}`);
}

describe('exact records from known usage', () => {
  test('the leap day by day: each event in its own UTC day, zeros where an endpoint had nothing', async () => {
    const body = await billing({ bucketSize: 'day', startTime: '2024-02-28T00:00:00Z', endTime: '2024-03-02T00:00:00Z' });
    // Written out by hand (usage in billingData.ts): alpha 1 on the 28th, 2 on the 29th, 8 on 1 March; zeta 4 in
    // the last millisecond of the 29th. Each event also carries cpu 0.25, disk 0.25, fee 0.5.
    const row = (day: string, id: string, gpu: number, n: number) => ({
      startTime: `${day}T00:00:00.000Z`, endTime: '', serverlessId: id,
      gpuAmount: gpu, cpuAmount: 0.25 * n, diskAmount: 0.25 * n, feeAmount: 0.5 * n, totalAmount: gpu + n,
    });
    const expected = [
      row('2024-02-28', 'alpha', 1, 1), row('2024-02-28', 'zeta', 0, 0),
      row('2024-02-29', 'alpha', 2, 1), row('2024-02-29', 'zeta', 4, 1),
      row('2024-03-01', 'alpha', 8, 1), row('2024-03-01', 'zeta', 0, 0),
    ];
    const ends = ['2024-02-29', '2024-02-29', '2024-03-01', '2024-03-01', '2024-03-02', '2024-03-02'];
    expected.forEach((r, i) => { r.endTime = `${ends[i]}T00:00:00.000Z`; });
    assertMatchesOracle(body, expected);
    assert.equal(body.metadata.totals.totalAmount, 19);
  });

  test('ISO weeks at a year change: Sunday night and Monday morning land in different weeks', async () => {
    const body = await billing({ bucketSize: 'week', startTime: '2025-12-29T00:00:00Z', endTime: '2026-01-12T00:00:00Z' });
    const gpu = body.records.map((r: any) => [new Date(r.startTime).toISOString().slice(0, 10), r.serverlessId, r.gpuAmount]);
    assert.deepEqual(gpu, [
      ['2025-12-29', 'alpha', 0.5], ['2025-12-29', 'zeta', 16],
      ['2026-01-05', 'alpha', 0], ['2026-01-05', 'zeta', 32],
    ]);
  });

  test('months: the last millisecond of January is January, its next instant February', async () => {
    const body = await billing({ bucketSize: 'month', startTime: '2026-01-01T00:00:00Z', endTime: '2026-03-01T00:00:00Z' });
    const gpu = body.records.map((r: any) => [new Date(r.startTime).toISOString().slice(0, 7), r.serverlessId, r.gpuAmount, r.feeAmount]);
    assert.deepEqual(gpu, [
      ['2026-01', 'alpha', 64, 0.5], ['2026-01', 'zeta', 48, 1],
      ['2026-02', 'alpha', 128, 0.5], ['2026-02', 'zeta', 0, 0],
    ]);
  });

  test('hours: an event at 23:59:59.999 is in the 23:00 bucket, one at 00:00 in the next day', async () => {
    const body = await billing({ bucketSize: 'hour', startTime: '2024-02-29T23:00:00Z', endTime: '2024-03-01T01:00:00Z' });
    const gpu = body.records.map((r: any) => [new Date(r.startTime).toISOString().slice(0, 13), r.serverlessId, r.gpuAmount]);
    assert.deepEqual(gpu, [['2024-02-29T23', 'alpha', 0], ['2024-02-29T23', 'zeta', 4], ['2024-03-01T00', 'alpha', 8], ['2024-03-01T00', 'zeta', 0]]);
  });

  test('the default window: only endpoints with usage in it, an event one second before it left out', async () => {
    const body = await billing({});
    assertMatchesOracle(body, expectedRecords(ALICE_USAGE, '2026-05-16T00:00:00Z', '2026-06-16T00:00:00Z', 'day'));
    assert.equal(body.metadata.recordCount, 31 * 3);
    assert.equal(body.metadata.uniqueServerlessCount, 3);
    assert.deepEqual(body.metadata.totals, { totalAmount: 11.5, gpuAmount: 6.75, cpuAmount: 1.25, diskAmount: 1.25, feeAmount: 2.25 });
  });

  for (const [bucketSize, lastN] of [['hour', 72], ['day', 900], ['week', 130], ['month', 40], ['year', 4]] as const) {
    test(`every event in the last ${lastN} ${bucketSize}s, summed per bucket per endpoint, matches the oracle`, async () => {
      const body = await billing({ bucketSize, lastN });
      const { startTime, endTime } = body.metadata.query;
      assertMatchesOracle(body, expectedRecords(ALICE_USAGE, startTime, endTime, bucketSize));
    });
  }

  test('records are ordered by startTime, then serverlessId (not by config order: zeta is listed before alpha)', async () => {
    const body = await billing({ bucketSize: 'month', lastN: 6 });
    const keys = body.records.map((r: any) => `${new Date(r.startTime).toISOString()} ${r.serverlessId}`);
    assert.deepEqual(keys, [...keys].sort());
    assert.deepEqual(body.records.slice(0, 3).map((r: any) => r.serverlessId), ['alpha', 'ep1', 'zeta']);
  });

  test('every record has totalAmount = gpu + cpu + disk + fee', async () => {
    const body = await billing({ bucketSize: 'day', lastN: 900 });
    for (const r of body.records) assert.equal(r.totalAmount, r.gpuAmount + r.cpuAmount + r.diskAmount + r.feeAmount);
  });

  test('a window with no usage at all: no records, zero counts, zero totals', async () => {
    const body = await billing({ bucketSize: 'day', startTime: '2020-01-01T00:00:00Z', endTime: '2020-02-01T00:00:00Z' });
    assert.deepEqual(body.records, []);
    assert.equal(body.metadata.recordCount, 0);
    assert.equal(body.metadata.uniqueServerlessCount, 0);
    assert.deepEqual(body.metadata.totals, { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0 });
  });

  test('the window is half-open: an event exactly at endTime is not counted', async () => {
    const body = await billing({ bucketSize: 'day', startTime: '2024-02-29T00:00:00Z', endTime: '2024-03-01T00:00:00Z' });
    assert.deepEqual(body.records.map((r: any) => [r.serverlessId, r.gpuAmount]), [['alpha', 2], ['zeta', 4]]);
  });
});

describe('the serverlessId filter', () => {
  test('one record per bucket for that endpoint, every one carrying its id, and the filter echoed', async () => {
    const body = await billing({ bucketSize: 'day', startTime: '2024-02-28T00:00:00Z', endTime: '2024-03-02T00:00:00Z', serverlessId: 'zeta' });
    assert.deepEqual(body.records.map((r: any) => [r.serverlessId, r.gpuAmount]), [['zeta', 0], ['zeta', 4], ['zeta', 0]]);
    assert.equal(body.metadata.query.serverlessId, 'zeta');
    assert.equal(body.metadata.uniqueServerlessCount, 1);
    assert.equal(body.metadata.recordCount, 3);
    assert.equal(body.metadata.totals.gpuAmount, 4);
  });

  test('an owned endpoint with no usage in the window still gets its zero buckets', async () => {
    const body = await billing({ bucketSize: 'day', lastN: 5, serverlessId: 'echo' });
    assert.equal(body.records.length, 5);
    assert.ok(body.records.every((r: any) => r.serverlessId === 'echo' && r.totalAmount === 0));
    assert.equal(body.metadata.totals.totalAmount, 0);
  });

  test("another user's endpoint id is 403, and its usage never shows in the owner's absence", async () => {
    assertProblem(await request(emu.url, '/v2/billing/serverless?serverlessId=bob-ep', { key: KEYS.full }), 403);
    const all = await billing({ bucketSize: 'day', startTime: '2026-06-10T00:00:00Z', endTime: '2026-06-11T00:00:00Z' });
    assert.ok(all.records.every((r: any) => r.serverlessId !== 'bob-ep'));
    assert.equal(all.metadata.totals.gpuAmount, 0.75);
  });

  test('an endpoint id nobody owns is 403', async () => {
    assertProblem(await request(emu.url, '/v2/billing/serverless?serverlessId=nobody-has-this', { key: KEYS.full }), 403);
  });

  test("bob sees his own usage and none of alice's (the route is per user)", async () => {
    const body = await billing({ bucketSize: 'day', startTime: '2026-06-10T00:00:00Z', endTime: '2026-06-11T00:00:00Z' }, KEYS.bob);
    assert.deepEqual(body.records.map((r: any) => [r.serverlessId, r.gpuAmount]), [['bob-ep', 1000]]);
  });
});

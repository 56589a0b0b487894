// SPEC 4.1 (query parameters, rule 1) and issue #3 "Billing": how the billing route resolves its window. Each
// bucket size is snapped across month ends, leap days and ISO week boundaries, with Z and non-Z offsets; the
// defaults are exactly "30 days before now", "now" and "day"; lastN ends with the bucket that holds now.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, startEmulator, type Emulator } from './harness';
import { sameInstant } from './assertions';
import { KEYS } from './fixtures';
import { billingConfig } from './billingData';

let emu: Emulator;
before(async () => { emu = await startEmulator(billingConfig()); });
after(async () => { await emu?.stop(); });

async function billing(query: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const r = await request(emu.url, `/v2/billing/serverless${qs ? `?${qs}` : ''}`, { key: KEYS.full });
  assert.equal(r.status, 200, `${qs}: ${r.text.slice(0, 500)}`);
  assert.match(String(r.headers['content-type']), /^application\/json\b/);
  return r.json;
}

/** The echoed window, and (filtered to one endpoint so there is one record per bucket) the bucket list. */
async function assertWindow(query: Record<string, string | number>, start: string, end: string, buckets: string[]) {
  const body = await billing({ ...query, serverlessId: 'alpha' });
  sameInstant(body.metadata.query.startTime, start, 'echoed startTime');
  sameInstant(body.metadata.query.endTime, end, 'echoed endTime');
  if (query.bucketSize !== undefined) assert.equal(body.metadata.query.bucketSize, query.bucketSize);
  const starts = body.records.map((r: { startTime: string }) => new Date(r.startTime).toISOString());
  assert.deepEqual(starts, buckets.map((b) => new Date(b).toISOString()));
  // Consecutive, no gap: each record ends where the next starts, the last where the window ends.
  body.records.forEach((r: { startTime: string; endTime: string }, i: number) => {
    const next = i + 1 < buckets.length ? buckets[i + 1]! : end;
    sameInstant(r.endTime, next, `record ${i} endTime`);
  });
  assert.equal(body.metadata.recordCount, buckets.length);
}

describe('snapping: startTime down to its bucket, endTime up unless on a boundary (SPEC 4.1 rule 1)', () => {
  const cases: Array<[string, Record<string, string>, string, string, string[]]> = [
    ['hour across the end of a leap day', { bucketSize: 'hour', startTime: '2024-02-29T23:30:00Z', endTime: '2024-03-01T01:00:00Z' },
      '2024-02-29T23:00:00Z', '2024-03-01T01:00:00Z', ['2024-02-29T23:00:00Z', '2024-03-01T00:00:00Z']],
    ['hour across a year end, milliseconds either side', { bucketSize: 'hour', startTime: '2024-12-31T23:59:59.999Z', endTime: '2025-01-01T00:00:00.001Z' },
      '2024-12-31T23:00:00Z', '2025-01-01T01:00:00Z', ['2024-12-31T23:00:00Z', '2025-01-01T00:00:00Z']],
    ['day through a leap day', { bucketSize: 'day', startTime: '2024-02-28T12:00:00Z', endTime: '2024-03-01T00:00:01Z' },
      '2024-02-28T00:00:00Z', '2024-03-02T00:00:00Z', ['2024-02-28T00:00:00Z', '2024-02-29T00:00:00Z', '2024-03-01T00:00:00Z']],
    ['day in a year without a leap day', { bucketSize: 'day', startTime: '2023-02-28T12:00:00Z', endTime: '2023-03-01T00:00:00Z' },
      '2023-02-28T00:00:00Z', '2023-03-01T00:00:00Z', ['2023-02-28T00:00:00Z']],
    ['week: a Thursday snaps to the Monday before, across a year change', { bucketSize: 'week', startTime: '2026-01-01T10:00:00Z', endTime: '2026-01-05T00:00:00Z' },
      '2025-12-29T00:00:00Z', '2026-01-05T00:00:00Z', ['2025-12-29T00:00:00Z']],
    ['week: Sunday night to one second into Monday is two weeks', { bucketSize: 'week', startTime: '2026-01-04T23:59:59Z', endTime: '2026-01-05T00:00:01Z' },
      '2025-12-29T00:00:00Z', '2026-01-12T00:00:00Z', ['2025-12-29T00:00:00Z', '2026-01-05T00:00:00Z']],
    ['week holding a leap day', { bucketSize: 'week', startTime: '2024-02-29T12:00:00Z', endTime: '2024-03-01T00:00:00Z' },
      '2024-02-26T00:00:00Z', '2024-03-04T00:00:00Z', ['2024-02-26T00:00:00Z']],
    ['week with +02:00 offsets: Monday 01:00 local is still Sunday in UTC', { bucketSize: 'week', startTime: '2026-01-05T01:00:00+02:00', endTime: '2026-01-05T03:00:00+02:00' },
      '2025-12-29T00:00:00Z', '2026-01-12T00:00:00Z', ['2025-12-29T00:00:00Z', '2026-01-05T00:00:00Z']],
    ['month from the last second of January to leap-day noon', { bucketSize: 'month', startTime: '2024-01-31T23:59:59Z', endTime: '2024-02-29T12:00:00Z' },
      '2024-01-01T00:00:00Z', '2024-03-01T00:00:00Z', ['2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z']],
    ['month: an end on the first of the month is not snapped', { bucketSize: 'month', startTime: '2024-02-29T00:00:00Z', endTime: '2024-03-01T00:00:00Z' },
      '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', ['2024-02-01T00:00:00Z']],
    ['month with offsets that cross the month in UTC', { bucketSize: 'month', startTime: '2025-12-31T23:00:00-02:00', endTime: '2026-02-01T00:30:00+01:00' },
      '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', ['2026-01-01T00:00:00Z']],
    ['month: 30-day and 31-day months in a row', { bucketSize: 'month', startTime: '2026-04-30T23:59:59Z', endTime: '2026-07-01T00:00:00Z' },
      '2026-04-01T00:00:00Z', '2026-07-01T00:00:00Z', ['2026-04-01T00:00:00Z', '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z']],
    ['year from a leap day to the next new year', { bucketSize: 'year', startTime: '2024-02-29T00:00:00Z', endTime: '2025-01-01T00:00:00Z' },
      '2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z', ['2024-01-01T00:00:00Z']],
    ['year: one millisecond either side of new year is two years', { bucketSize: 'year', startTime: '2024-12-31T23:59:59.999Z', endTime: '2025-01-01T00:00:00.001Z' },
      '2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z', ['2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z']],
  ];
  for (const [what, query, start, end, buckets] of cases) {
    test(`${what}: [${start}, ${end})`, async () => { await assertWindow(query, start, end, buckets); });
  }
});

describe('defaults: 30 days before now, now, by day (SPEC 4.1)', () => {
  test('no parameters at all: [now - 30 days snapped down, now snapped up) by day, no filter echoed', async () => {
    const body = await billing({});
    sameInstant(body.metadata.query.startTime, '2026-05-16T00:00:00Z');
    sameInstant(body.metadata.query.endTime, '2026-06-16T00:00:00Z');
    assert.equal(body.metadata.query.bucketSize, 'day');
    assert.ok(body.metadata.query.serverlessId === undefined || body.metadata.query.serverlessId === null);
  });

  test('only bucketSize=month: the default instants snap to months', async () => {
    await assertWindow({ bucketSize: 'month' }, '2026-05-01T00:00:00Z', '2026-07-01T00:00:00Z', ['2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z']);
  });

  test('only bucketSize=hour: 30 days of hours up to the end of the current hour', async () => {
    const body = await billing({ bucketSize: 'hour', serverlessId: 'alpha' });
    sameInstant(body.metadata.query.startTime, '2026-05-16T12:00:00Z');
    sameInstant(body.metadata.query.endTime, '2026-06-15T13:00:00Z');
    assert.equal(body.records.length, 30 * 24 + 1);
  });

  test('only startTime: the end defaults to now, snapped up', async () => {
    await assertWindow({ bucketSize: 'hour', startTime: '2026-06-15T09:10:00Z' }, '2026-06-15T09:00:00Z', '2026-06-15T13:00:00Z',
      ['2026-06-15T09:00:00Z', '2026-06-15T10:00:00Z', '2026-06-15T11:00:00Z', '2026-06-15T12:00:00Z']);
  });

  test('only endTime: the start still defaults to 30 days before now', async () => {
    const body = await billing({ endTime: '2026-06-01T00:00:00Z', serverlessId: 'alpha' });
    sameInstant(body.metadata.query.startTime, '2026-05-16T00:00:00Z');
    sameInstant(body.metadata.query.endTime, '2026-06-01T00:00:00Z');
    assert.equal(body.records.length, 16);
  });
});

describe('lastN: the last N buckets, ending with the one that holds now (SPEC 4.1)', () => {
  const cases: Array<[string, number, string, string]> = [
    ['hour', 1, '2026-06-15T12:00:00Z', '2026-06-15T13:00:00Z'],
    ['hour', 24, '2026-06-14T13:00:00Z', '2026-06-15T13:00:00Z'],
    ['day', 1, '2026-06-15T00:00:00Z', '2026-06-16T00:00:00Z'],
    ['day', 7, '2026-06-09T00:00:00Z', '2026-06-16T00:00:00Z'],
    ['week', 3, '2026-06-01T00:00:00Z', '2026-06-22T00:00:00Z'],
    ['week', 25, '2025-12-29T00:00:00Z', '2026-06-22T00:00:00Z'],
    ['month', 2, '2026-05-01T00:00:00Z', '2026-07-01T00:00:00Z'],
    ['month', 29, '2024-02-01T00:00:00Z', '2026-07-01T00:00:00Z'],
    ['year', 3, '2024-01-01T00:00:00Z', '2027-01-01T00:00:00Z'],
  ];
  for (const [bucketSize, lastN, start, end] of cases) {
    test(`lastN=${lastN} by ${bucketSize} is [${start}, ${end})`, async () => {
      const body = await billing({ bucketSize, lastN, serverlessId: 'alpha' });
      sameInstant(body.metadata.query.startTime, start);
      sameInstant(body.metadata.query.endTime, end);
      assert.equal(body.metadata.query.bucketSize, bucketSize);
      assert.equal(body.records.length, lastN);
      sameInstant(body.records[0].startTime, start, 'first bucket');
      sameInstant(body.records.at(-1).endTime, end, 'last bucket (the current one)');
    });
  }

  test('lastN without bucketSize counts days', async () => {
    const body = await billing({ lastN: 2 });
    assert.equal(body.metadata.query.bucketSize, 'day');
    sameInstant(body.metadata.query.startTime, '2026-06-14T00:00:00Z');
    sameInstant(body.metadata.query.endTime, '2026-06-16T00:00:00Z');
  });

  test('lastN=10000 hours is the largest window allowed, and all of it is served', async () => {
    const body = await billing({ bucketSize: 'hour', lastN: 10_000, serverlessId: 'alpha' });
    assert.equal(body.records.length, 10_000);
    assert.equal(body.metadata.recordCount, 10_000);
  });

  test('an explicit window of exactly 10,000 hourly buckets is served', async () => {
    // 2024-01-01T00:00Z + 10,000 h = 2025-02-20T16:00Z (2024 has 366 days).
    const body = await billing({ bucketSize: 'hour', startTime: '2024-01-01T00:00:00Z', endTime: '2025-02-20T16:00:00Z', serverlessId: 'alpha' });
    assert.equal(body.metadata.recordCount, 10_000);
  });
});

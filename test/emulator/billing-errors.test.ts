// Issue #3 "Billing" (bad input) and "Date-times", SPEC 2.9 and 8 rule 5: every way a billing query can be wrong
// is a 400 problem+json whose `errors` names each bad parameter; strict RFC 3339 with any offset.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, startEmulator, type Emulator } from './harness';
import { assertBadParams, sameInstant } from './assertions';
import { KEYS } from './fixtures';
import { billingConfig } from './billingData';

let emu: Emulator;
before(async () => { emu = await startEmulator(billingConfig()); });
after(async () => { await emu?.stop(); });

function billing(qs: string) {
  return request(emu.url, `/v2/billing/serverless?${qs}`, { key: KEYS.full });
}
const enc = encodeURIComponent;

describe('date-times are strict RFC 3339', () => {
  for (const [value, why] of [
    ['yesterday', 'not a date at all'],
    ['2027-02-29T00:00:00Z', 'an impossible date (2027 is not a leap year)'],
    ['2026-04-31T00:00:00Z', 'an impossible date (April has 30 days)'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-06-01T24:00:00Z', 'hour 24'],
    ['2026-06-01T10:60:00Z', 'minute 60'],
    ['2026-06-01T00:00:00', 'no offset'],
    ['2026-06-01', 'a date without a time'],
    ['1780000000', 'epoch seconds'],
  ] as const) {
    test(`startTime=${value} (${why}) is 400 naming startTime`, async () => {
      assertBadParams(await billing(`startTime=${enc(value)}`), 'startTime');
    });
  }

  test('endTime=2026-02-30T00:00:00Z is 400 naming endTime', async () => {
    assertBadParams(await billing(`endTime=${enc('2026-02-30T00:00:00Z')}`), 'endTime');
  });

  test('a leap day that exists (2024-02-29) is accepted', async () => {
    assert.equal((await billing(`startTime=${enc('2024-02-29T00:00:00Z')}&endTime=${enc('2024-03-01T00:00:00Z')}`)).status, 200);
  });

  for (const [value, snapped] of [
    ['2026-06-01T00:30:00+02:00', '2026-05-31T00:00:00Z'],
    ['2026-05-31T20:00:00-05:30', '2026-06-01T00:00:00Z'],
    ['2026-06-01T00:00:00.123456Z', '2026-06-01T00:00:00Z'],
  ] as const) {
    test(`startTime=${value} is accepted and snaps (by day) to ${snapped}`, async () => {
      const r = await billing(`startTime=${enc(value)}&endTime=${enc('2026-06-10T00:00:00Z')}`);
      assert.equal(r.status, 200, r.text);
      sameInstant(r.json.metadata.query.startTime, snapped);
    });
  }
});

describe('parameters', () => {
  for (const v of ['fortnight', 'Day', 'days', '']) {
    test(`bucketSize=${v || '(empty)'} is 400 naming bucketSize`, async () => {
      assertBadParams(await billing(`bucketSize=${enc(v)}`), 'bucketSize');
    });
  }

  for (const v of ['0', '-1', '1.5', 'abc', '', '1e3', '0x10']) {
    test(`lastN=${v || '(empty)'} is 400 naming lastN`, async () => {
      assertBadParams(await billing(`lastN=${enc(v)}`), 'lastN');
    });
  }

  test('lastN together with startTime is 400 naming lastN', async () => {
    assertBadParams(await billing(`lastN=2&startTime=${enc('2026-06-01T00:00:00Z')}`), 'lastN');
  });

  test('lastN together with endTime is 400 naming lastN', async () => {
    assertBadParams(await billing(`lastN=2&endTime=${enc('2026-06-10T00:00:00Z')}`), 'lastN');
  });

  test('a start equal to the end is 400', async () => {
    const t = enc('2026-06-01T00:00:00Z');
    const p = assertBadParams(await billing(`startTime=${t}&endTime=${t}`));
    assert.ok(p.errors!.some((e) => /startTime|endTime/.test(e)), JSON.stringify(p.errors));
  });

  test('a start after the end is 400', async () => {
    const p = assertBadParams(await billing(`startTime=${enc('2026-06-02T00:00:00Z')}&endTime=${enc('2026-06-01T00:00:00Z')}`));
    assert.ok(p.errors!.some((e) => /startTime|endTime/.test(e)), JSON.stringify(p.errors));
  });

  test('an endTime before the default start (30 days ago) is 400: the start is not before the end', async () => {
    const p = assertBadParams(await billing(`endTime=${enc('2026-01-01T00:00:00Z')}`));
    assert.ok(p.errors!.some((e) => /startTime|endTime/.test(e)), JSON.stringify(p.errors));
  });

  test('an unknown query parameter is 400 naming it', async () => {
    assertBadParams(await billing('bucket_size=day'), 'bucket_size');
  });

  test('several bad parameters are all named in one answer', async () => {
    assertBadParams(await billing('bucketSize=fortnight&lastN=0&colour=blue'), 'bucketSize', 'lastN', 'colour');
  });
});

describe('at most 10,000 buckets', () => {
  test('lastN=10001 hours is 400 naming lastN', async () => {
    assertBadParams(await billing('bucketSize=hour&lastN=10001'), 'lastN');
  });

  test('an explicit window of 10,001 hourly buckets (one millisecond past 10,000) is 400', async () => {
    assertBadParams(await billing(`bucketSize=hour&startTime=${enc('2024-01-01T00:00:00Z')}&endTime=${enc('2025-02-20T16:00:00.001Z')}`));
  });

  test('30 years by hour (about 263,000 buckets) is 400', async () => {
    assertBadParams(await billing(`bucketSize=hour&startTime=${enc('2000-01-01T00:00:00Z')}&endTime=${enc('2030-01-01T00:00:00Z')}`));
  });

  test('the same 30 years by month is fine', async () => {
    const r = await billing(`bucketSize=month&startTime=${enc('2000-01-01T00:00:00Z')}&endTime=${enc('2030-01-01T00:00:00Z')}&serverlessId=alpha`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.metadata.recordCount, 360);
  });
});

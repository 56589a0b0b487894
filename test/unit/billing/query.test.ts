import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { billingQueryString, validateBillingQuery } from '../../../src/core/billing/query';
import type { BillingQueryParams } from '../../../src/core/schemas';

const bad = (q: unknown) => validateBillingQuery(q as BillingQueryParams);

describe('validateBillingQuery', () => {
  test('accepts every good shape of query', () => {
    assert.deepEqual(validateBillingQuery({}), []);
    assert.deepEqual(validateBillingQuery({ lastN: 1, bucketSize: 'hour', serverlessId: 'ep1' }), []);
    assert.deepEqual(validateBillingQuery({ startTime: '2026-01-01T00:00:00Z', endTime: '2026-02-01T00:00:00+01:00', bucketSize: 'month' }), []);
    assert.deepEqual(validateBillingQuery({ startTime: '2026-01-01T00:00:00.123Z' }), []);
  });

  test('lastN must be an integer of at least 1', () => {
    for (const lastN of [0, -1, 1.5, Number.NaN, '3']) {
      const problems = bad({ lastN });
      assert.equal(problems.length, 1, String(lastN));
      assert.match(problems[0]!, /lastN must be a whole number of at least 1/);
    }
  });

  test('lastN is never combined with startTime or endTime', () => {
    assert.match(validateBillingQuery({ lastN: 3, startTime: '2026-01-01T00:00:00Z' }).join(), /cannot be combined/);
    assert.match(validateBillingQuery({ lastN: 3, endTime: '2026-01-01T00:00:00Z' }).join(), /cannot be combined/);
  });

  test('bucketSize must be a known size', () => {
    assert.match(bad({ bucketSize: 'minute' }).join(), /bucketSize must be one of hour, day, week, month, year/);
  });

  test('date-times must be strict RFC 3339 with an offset and a real calendar date', () => {
    for (const t of ['2026-01-01', '2026-01-01T00:00:00', '2026-01-01 00:00:00Z', '2027-02-29T00:00:00Z', '2026-13-01T00:00:00Z', 'yesterday', '2026-01-01T25:00:00Z']) {
      assert.match(bad({ startTime: t }).join(), /startTime must be an RFC 3339 date-time/, t);
    }
    assert.match(bad({ endTime: 42 }).join(), /endTime must be an RFC 3339/);
  });

  test('start must be before end, offsets included', () => {
    assert.match(validateBillingQuery({ startTime: '2026-01-02T00:00:00Z', endTime: '2026-01-01T00:00:00Z' }).join(), /startTime must be before endTime/);
    assert.match(validateBillingQuery({ startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T00:00:00Z' }).join(), /before/);
    // 01:00+02:00 is 23:00Z the day before: before 2026-01-01T00:00Z.
    assert.deepEqual(validateBillingQuery({ startTime: '2026-01-01T01:00:00+02:00', endTime: '2026-01-01T00:00:00Z' }), []);
  });

  test('unknown parameters and empty endpoint ids are reported', () => {
    assert.match(bad({ bucket: 'day' }).join(), /Unknown query parameter "bucket"/);
    assert.match(bad({ serverlessId: ' ' }).join(), /serverlessId must be a non-empty/);
  });

  test('several problems are all reported', () => {
    assert.equal(bad({ lastN: 0, startTime: 'x', bucketSize: 'decade' }).length, 4);
  });
});

describe('billingQueryString', () => {
  test('carries every parameter, encoded, in a fixed order', () => {
    const q = billingQueryString({ serverlessId: 'ep a&b', bucketSize: 'week', startTime: '2026-01-01T00:00:00+01:00', endTime: '2026-02-01T00:00:00Z' });
    assert.equal(q.toString(), 'startTime=2026-01-01T00%3A00%3A00%2B01%3A00&endTime=2026-02-01T00%3A00%3A00Z&bucketSize=week&serverlessId=ep+a%26b');
    assert.equal(new URLSearchParams(q.toString()).get('startTime'), '2026-01-01T00:00:00+01:00');
    assert.equal(billingQueryString({ lastN: 7 }).toString(), 'lastN=7');
    assert.equal(billingQueryString({}).toString(), '');
  });
});

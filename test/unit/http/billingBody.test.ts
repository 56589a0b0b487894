import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { safeParseBillingResponse } from '../../../src/core/http/billingBody';
import { AMOUNT_KEYS, ListServerlessBillingResponse } from '../../../src/core/schemas';
import { aBillingResponse } from '../builders/billingResponse';

// The fast path must give zod's verdict (zod is the definition of the wire type), and zod's path on failure.
const oddValues = fc.constantFrom<unknown>(
  undefined, null, '', 'x', 0, -1, 1.5, true, [], {}, '2026-01-01', '2027-02-29T00:00:00Z', '2026-01-01T00:00:00Z',
  '2026-01-01T00:00:00+02:00', '2026-01-01T00:00:00', 1e308,
);
const fields = fc.constantFrom('startTime', 'endTime', 'serverlessId', ...AMOUNT_KEYS, 'extra');

test('safeParseBillingResponse agrees with the zod schema on mutated records', () => {
  const base = aBillingResponse().withEndpoints(2).daily(3).build();
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(5), fields, oddValues), { maxLength: 3 }), fc.boolean(), (mutations, replaceRecord) => {
      const body = JSON.parse(JSON.stringify(base)) as { records: unknown[] };
      for (const [i, field, value] of mutations) {
        if (replaceRecord && i === 0) body.records[i] = value;
        else if (typeof body.records[i] === 'object' && body.records[i] !== null) (body.records[i] as Record<string, unknown>)[field] = value;
      }
      const copy = JSON.parse(JSON.stringify(body)) as unknown;
      const fast = safeParseBillingResponse(body);
      const zod = ListServerlessBillingResponse.safeParse(copy);
      assert.equal(fast.success, zod.success);
      if (!fast.success && !zod.success) assert.deepEqual(fast.error.issues[0]?.path, zod.error.issues[0]?.path);
      if (fast.success && zod.success) assert.deepEqual(JSON.parse(JSON.stringify(fast.data)), JSON.parse(JSON.stringify(zod.data)));
    }),
    { numRuns: 300 },
  );
});

test('a body that is not an object, or lacks records, is rejected like zod does', () => {
  for (const body of [null, [], 'x', { metadata: {} }, { records: {}, metadata: {} }]) {
    assert.equal(safeParseBillingResponse(body).success, false);
  }
});

test('a first record without startTime or endTime is rejected, as zod rejects it (the fast path once skipped it)', () => {
  for (const field of ['startTime', 'endTime']) {
    const body = JSON.parse(JSON.stringify(aBillingResponse().withEndpoints(2).daily(3).build())) as { records: Array<Record<string, unknown>> };
    delete body.records[0]![field];
    assert.equal(ListServerlessBillingResponse.safeParse(body).success, false, `zod, ${field}`);
    assert.equal(safeParseBillingResponse(body).success, false, `fast path, ${field}`);
  }
});

test('every amount of AMOUNT_KEYS is checked by the fast path: not a number, or not finite, is rejected as zod rejects it', () => {
  for (const key of AMOUNT_KEYS) {
    for (const value of ['1.5', null, undefined]) {
      const body = JSON.parse(JSON.stringify(aBillingResponse().withEndpoints(2).daily(3).build())) as { records: Array<Record<string, unknown>> };
      body.records[4]![key] = value;
      assert.equal(ListServerlessBillingResponse.safeParse(JSON.parse(JSON.stringify(body))).success, false, `zod, ${key}=${String(value)}`);
      const fast = safeParseBillingResponse(body);
      assert.equal(fast.success, false, `fast path, ${key}=${String(value)}`);
      if (!fast.success) assert.deepEqual(fast.error.issues[0]?.path, ['records', 4, key]);
    }
  }
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { amountsAgree, checkBillingConsistency } from '../../../src/core/billing/consistency';
import { aBillingResponse } from '../builders/billingResponse';

describe('checkBillingConsistency', () => {
  test('a consistent response gives no warnings', () => {
    assert.deepEqual(checkBillingConsistency(aBillingResponse().withEndpoints(3).daily(30).build()), []);
  });

  test('float drift over many records is tolerated', () => {
    const r = aBillingResponse().withEndpoints(20).hourly(24 * 30).build();
    r.metadata.totals.totalAmount = Math.round(r.metadata.totals.totalAmount * 100) / 100;
    assert.deepEqual(checkBillingConsistency(r), []);
  });

  test('a wrong recordCount is reported', () => {
    const r = aBillingResponse().withEndpoints(2).daily(3).build();
    r.metadata.recordCount = 7;
    assert.deepEqual(checkBillingConsistency(r), ['The service reports 7 records but sent 6.']);
  });

  test('a wrong uniqueServerlessCount is reported', () => {
    const r = aBillingResponse().withEndpoints(2).daily(3).build();
    r.metadata.uniqueServerlessCount = 3;
    assert.deepEqual(checkBillingConsistency(r), ['The service reports 3 endpoints but the records name 2.']);
  });

  test('a total that differs from the records is reported, per amount', () => {
    const r = aBillingResponse().withEndpoints(2).daily(3).build();
    r.metadata.totals.gpuAmount += 1;
    r.metadata.totals.feeAmount -= 0.02;
    const warnings = checkBillingConsistency(r);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /reported gpuAmount .* differs from the sum of the records/);
    assert.match(warnings[1]!, /feeAmount/);
  });

  test('amounts in a warning read as the editor shows them: a half rounds up as it reads, thousands grouped', () => {
    const r = aBillingResponse().withEndpoints(1).daily(2).build();
    for (const record of r.records) {
      record.gpuAmount = 0;
      record.feeAmount = 0;
    }
    // 2.675 is the double 2.67499999…: toFixed(2) said "$2.67"; the editor's formatter (and Intl) say "$2.68".
    r.metadata.totals.gpuAmount = 2.675;
    r.metadata.totals.feeAmount = 1234.5;
    assert.deepEqual(checkBillingConsistency(r), [
      'The reported gpuAmount ($2.68) differs from the sum of the records ($0.00).',
      'The reported feeAmount ($1,234.50) differs from the sum of the records ($0.00).',
    ]);
  });

  test('records of another endpoint than the filter are reported', () => {
    const r = aBillingResponse().withEndpoints(1).daily(2).build();
    r.metadata.query.serverlessId = 'someone-else';
    assert.match(checkBillingConsistency(r).join(), /2 record\(s\) belong to another endpoint than the filter someone-else/);
  });

  test('an empty response with zero metadata is consistent', () => {
    const r = aBillingResponse().withEndpoints(0).daily(0).build();
    assert.deepEqual(checkBillingConsistency(r), []);
  });
});

test('amountsAgree allows half a cent or a millionth', () => {
  assert.ok(amountsAgree(1, 1.004));
  assert.ok(!amountsAgree(1, 1.006));
  assert.ok(amountsAgree(1e6, 1e6 + 0.9));
  assert.ok(!amountsAgree(1e6, 1e6 + 2));
});

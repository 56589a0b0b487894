// The cost line's words, the same in the Batch panel, the job panel and the Jobs view: an estimate always says
// so, an unknown cost is blank (never $0), and the tooltip says how the cost was made.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { costText, costTooltip, savedCost, SavedCost } from '../../../src/core/cost/costText';
import { jobCost } from '../../../src/core/cost/jobCost';

describe('costText', () => {
  test('an estimate says "est."; in the one money format, three significant digits (test/unit/billing/usd.test.ts)', () => {
    assert.equal(costText({ kind: 'estimate', usd: 0.000218 }), '$0.000218 est.');
    assert.equal(costText({ kind: 'estimate', usd: 0.0125 }), '$0.0125 est.');
    assert.equal(costText({ kind: 'estimate', usd: 1.5 }), '$1.50 est.');
  });
  test('a reported cost is shown as it is, without "est."', () => {
    assert.equal(costText({ kind: 'reported', usd: 0.003 }), '$0.00300');
    assert.equal(costText({ kind: 'reported', usd: 0.03 }), '$0.0300');
  });
  test('unknown, or no cost at all, is blank: never "$0"', () => {
    assert.equal(costText({ kind: 'unknown' }), '');
    assert.equal(costText({ kind: 'unknown', usd: 0 }), '', 'a stray usd on an unknown cost is not shown');
    assert.equal(costText(undefined), '');
  });
  test('the tooltip: how an estimate was made; a reported cost says who reported it', () => {
    const price = { usdPerSecond: 0.00076, source: 'price table: L40 (ADA_48_PRO) $0.00053/s' };
    const estimate = savedCost(jobCost({ output: { images: [] }, executionTime: 4000 }, price));
    assert.equal(costText(estimate), '$0.00304 est.');
    assert.match(costTooltip(estimate), /^estimate: 4\.00 s of execution x \$0\.000760\/s \(price table: L40/);
    const reported = savedCost(jobCost({ output: { cost: 0.0035 }, executionTime: 4000 }, price));
    assert.equal(costText(reported), '$0.00350');
    assert.match(costTooltip(reported), /^Reported by the endpoint: /);
    assert.equal(costTooltip(undefined), '');
  });
  test('the kept form reads back with zod, and an unknown cost keeps no usd', () => {
    const unknown = savedCost(jobCost({ executionTime: 100 }, undefined));
    assert.deepEqual(unknown, { kind: 'unknown', how: 'no price per second is known for this endpoint' });
    assert.deepEqual(SavedCost.parse(JSON.parse(JSON.stringify(unknown))), unknown);
    assert.equal(SavedCost.safeParse({ kind: 'free', how: '' }).success, false);
  });
});

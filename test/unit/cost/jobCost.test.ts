// A job's cost: reported costs shown as they are, estimates always said to be estimates with how they were made,
// and the prices they rest on.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jobCost, priceFromBilling } from '../../../src/core/cost/jobCost';
import { priceFromTable } from '../../../src/core/cost/priceTable';

const price = { usdPerSecond: 0.0005, source: 'test price' };

describe('jobCost', () => {
  test('a public endpoint\'s own cost is reported as it is, whatever the price', () => {
    assert.deepEqual(jobCost({ output: { image_url: 'u', cost: 0.0123 }, executionTime: 5000 }, price), { kind: 'reported', usd: 0.0123, how: 'reported by the endpoint in its output (`cost`)' });
    assert.equal(jobCost({ output: { cost: 0.0123 } }, undefined).kind, 'reported');
  });
  test('a dedicated endpoint: execution seconds x price, labelled an estimate with its source', () => {
    const c = jobCost({ output: { text: 'x' }, executionTime: 2500 }, price);
    assert.equal(c.kind, 'estimate');
    assert.ok(c.kind === 'estimate' && Math.abs(c.usd - 0.00125) < 1e-12);
    assert.match(c.how, /^estimate: 2\.50 s of execution x \$0\.000500\/s \(test price\)/);
  });
  test('unknown without a price, an execution time, or with a nonsense cost', () => {
    assert.equal(jobCost({ executionTime: 100 }, undefined).kind, 'unknown');
    assert.equal(jobCost({ output: { cost: -1 } }, price).kind, 'unknown');
    assert.equal(jobCost({ output: { cost: 'free' }, executionTime: 1000 }, price).kind, 'estimate');
  });
  test('a price from billing is the billed amount over the billed seconds', () => {
    assert.equal(priceFromBilling(0.5, 1000, 'w')?.usdPerSecond, 0.0005);
    assert.equal(priceFromBilling(0.5, 0, 'w'), undefined);
  });
  test('the price table takes the dearest listed pool, times the GPUs, and the user\'s own prices win', () => {
    assert.equal(priceFromTable({ gpu: { pools: ['AMPERE_24', 'ADA_24'] } })?.usdPerSecond, 0.00031);
    assert.ok(Math.abs(priceFromTable({ gpu: { pools: ['AMPERE_80'], count: 2 } })!.usdPerSecond - 0.00152) < 1e-12);
    const own = priceFromTable({ gpu: { pools: ['ADA_24'] } }, { ADA_24: 0.0002 });
    assert.equal(own?.usdPerSecond, 0.0002);
    assert.match(own!.source, /your price table/);
    assert.equal(priceFromTable({ gpu: { pools: ['MYSTERY'] } }), undefined);
  });
});

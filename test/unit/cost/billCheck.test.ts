// The bill against a batch's estimate (issue 27 item 7): more than 25% apart, said in words, and the pool price the
// bill implies offered (the estimate's price scaled by bill / estimate, per GPU).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBill } from '../../../src/core/cost/billCheck';
import { priceFromTable } from '../../../src/core/cost/priceTable';

describe('the bill against the estimate', () => {
  test('within 25%: nothing said', () => {
    assert.equal(checkBill(0.0125, 0.01, undefined), undefined);
    assert.equal(checkBill(0.0075, 0.01, undefined), undefined);
  });

  test('the issue\'s flux-dev batch: billed $0.0429 against $0.0254, the L40 pool\'s price from the bill', () => {
    const price = priceFromTable({ gpu: { pools: ['ADA_48_PRO'], count: 1 } } as never)!;
    const c = checkBill(0.0429, 0.0254, price)!;
    assert.equal(c.words, 'Billed 69% more than the estimate ($0.0429 against $0.0254).');
    assert.deepEqual(c.suggested, { pool: 'ADA_48_PRO', usdPerSecond: Number((0.00053 * 0.0429 / 0.0254).toPrecision(3)) });
  });

  test('two GPUs per worker: the price offered is per GPU; a price not from a pool offers none', () => {
    const price = priceFromTable({ gpu: { pools: ['ADA_24'], count: 2 } } as never)!;
    assert.deepEqual(checkBill(0.005, 0.01, price)?.suggested, { pool: 'ADA_24', usdPerSecond: 0.000155 });
    assert.equal(checkBill(0.005, 0.01, { usdPerSecond: 0.001, source: 'billing' })?.suggested, undefined);
    assert.match(checkBill(0.005, 0.01, undefined)!.words, /^Billed 50% less/);
  });

  test('no estimate: nothing to compare', () => {
    assert.equal(checkBill(0.01, 0, undefined), undefined);
  });
});

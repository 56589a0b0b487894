// The bill against a batch's estimate (issue 27 item 7, reviewed after issue 29): more than 25% apart, said in
// words with why they differ. No price is ever derived from the bill: its buckets are whole hours of the whole
// endpoint (other jobs, worker starts, idle time), so bill / this batch's seconds is not a price.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBill } from '../../../src/core/cost/billCheck';

describe('the bill against the estimate', () => {
  test('within 25%: nothing said', () => {
    assert.equal(checkBill(0.0125, 0.01, { endpointId: 'e' }), undefined);
    assert.equal(checkBill(0.0075, 0.01, { endpointId: 'e' }), undefined);
  });

  test('the walk\'s flux-dev sweep: a bill 14x the estimate explains the whole hours, offers no price', () => {
    const c = checkBill(0.00657, 0.00279, { endpointId: 'flux-dev' })!;
    assert.equal(c.words, 'Billed $0.00657, 135% more than this batch\'s estimate ($0.00279): the bill counts whole hours of flux-dev, with its workers\' start and idle time and any other jobs in those hours, where the estimate counts only the seconds this batch\'s jobs ran.');
    assert.deepEqual(Object.keys(c), ['words'], 'no price offered from a bill that mixes in other time');
  });

  test('a cancelled batch: the gap is not called an estimation error', () => {
    const c = checkBill(0.0651, 0.00439, { endpointId: 'flux-dev', cancelled: true })!;
    assert.doesNotMatch(c.words, /% more/);
    assert.match(c.words, /^Billed \$0\.0651 over the hours of this cancelled batch; its estimate \(\$0\.00439\) counts only the seconds its jobs ran before the cancel/);
  });

  test('a bill below the estimate, and money in the one format', () => {
    assert.match(checkBill(0.005, 0.01, { endpointId: 'e' })!.words, /^Billed \$0\.00500, less than this batch's estimate \(\$0\.0100\)/);
  });

  test('no estimate: nothing to compare', () => {
    assert.equal(checkBill(0.01, 0, { endpointId: 'e' }), undefined);
  });
});

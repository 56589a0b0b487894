// The one USD formatter of the sidebar, the cost chart and the billing checks (src/core/billing/usd.ts). The
// chart's hover used Intl.NumberFormat before; the hand-rolled formatter (kept for the tree's speed) must read
// exactly the same.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { formatUsd, formatUsdExact } from '../../../src/core/billing/usd';

const intlExact = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });
const intlCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

// Amounts as billing records carry them: up to a billion dollars, with any fraction a double can hold.
const amount = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });

describe('USD formatting', () => {
  test('an amount whose decimal ends on a half rounds up, as it reads (2.675 is the double 2.67499999...)', () => {
    assert.equal(formatUsd(2.675), '$2.68');
    assert.equal(formatUsd(1.005), '$1.01');
    assert.equal(formatUsdExact(0.0000005), '$0.000001');
    assert.equal(formatUsdExact(999865233.5799135), '$999,865,233.579914');
    assert.equal(formatUsd(9.995), '$10.00');
    assert.equal(formatUsd(-2.675), '-$2.68');
  });

  test('exact amounts (tooltips, the chart hover) read as Intl\'s en-US currency format with 2 to 6 decimals', () => {
    fc.assert(fc.property(amount, (x) => {
      // Intl writes "-$0.00" for a negative amount that rounds to zero; we drop the sign of a zero.
      const expected = intlExact.format(x).replace(/^-(\$0\.00)$/, '$1');
      assert.equal(formatUsdExact(x), expected);
    }), { numRuns: 5000 });
  });

  test('amounts written with one decimal more than shown, ending in 5 (the ties), round as Intl rounds them', () => {
    const tie = (places: number) => fc.tuple(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 10 ** places - 1 }))
      .map(([whole, frac]) => Number(`${whole}.${String(frac).padStart(places, '0')}5`));
    fc.assert(fc.property(tie(6), (x) => assert.equal(formatUsdExact(x), intlExact.format(x))), { numRuns: 5000 });
    fc.assert(fc.property(tie(2), (x) => assert.equal(formatUsd(x), intlCents.format(x))), { numRuns: 5000 });
  });

  test('cent amounts read as Intl\'s, except that a non-zero amount under half a cent reads "<$0.01"', () => {
    fc.assert(fc.property(amount, (x) => {
      if (x !== 0 && Math.abs(x) < 0.005) assert.equal(formatUsd(x), x > 0 ? '<$0.01' : '-<$0.01');
      else assert.equal(formatUsd(x), intlCents.format(x).replace(/^-(\$0\.00)$/, '$1'));
    }), { numRuns: 5000 });
  });
});

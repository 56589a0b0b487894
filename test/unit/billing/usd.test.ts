// The one money formatter of every view (src/core/billing/usd.ts, issue 32): the precision chosen by the amount
// (three significant digits, 2 to 6 decimals), a group's parts adding up visibly to its total, and the hand-rolled
// digits (kept for the tree's speed) reading exactly as Intl's en-US currency format at that precision.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { formatUsd, formatUsdAt, formatUsdGroup, moneyDecimals } from '../../../src/core/billing/usd';

const intlAt = new Map<number, Intl.NumberFormat>();
function intl(x: number, decimals: number): string {
  let f = intlAt.get(decimals);
  if (!f) intlAt.set(decimals, (f = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  // Intl writes "-$0.00" for a negative amount that rounds to zero; we drop the sign of a zero.
  return f.format(x).replace(/^-(\$0\.0+)$/, '$1');
}

// Amounts as billing records carry them: up to a billion dollars, with any fraction a double can hold.
const amount = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });
const units = (text: string): number => Number(text.replace(/[^\d]/g, '')) * (text.startsWith('-') ? -1 : 1);

describe('money: the precision is chosen by the amount', () => {
  test('three significant digits, never fewer than 2 decimals nor more than 6', () => {
    assert.equal(formatUsd(80.35168), '$80.35');
    assert.equal(formatUsd(1234.5), '$1,234.50');
    assert.equal(formatUsd(0.35), '$0.350');
    assert.equal(formatUsd(0.03), '$0.0300');
    assert.equal(formatUsd(0.00212), '$0.00212');
    assert.equal(formatUsd(0.000218), '$0.000218');
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(-3.2), '-$3.20');
    assert.equal(formatUsd(0.0000004), '<$0.000001');
    // At a boundary the amount as it rounds decides: $0.996 is "$1.00", not "$0.996".
    assert.equal(formatUsd(0.996), '$1.00');
    assert.equal(formatUsd(0.0996), '$0.100');
  });

  test('an amount whose decimal ends on a half rounds up, as it reads (2.675 is the double 2.67499999...)', () => {
    assert.equal(formatUsd(2.675), '$2.68');
    assert.equal(formatUsd(1.005), '$1.01');
    assert.equal(formatUsd(9.995), '$10.00');
    assert.equal(formatUsd(-2.675), '-$2.68');
    assert.equal(formatUsdAt(999865233.5799135, 6), '$999,865,233.579914');
  });

  test('every amount reads as Intl\'s en-US currency format at the precision chosen for it', () => {
    fc.assert(fc.property(amount, (x) => {
      if (x !== 0 && Math.abs(x) < 0.0000005) return;
      assert.equal(formatUsd(x), intl(x, moneyDecimals(x)));
    }), { numRuns: 5000 });
    const small = fc.double({ min: 0.0000005, max: 2, noNaN: true });
    fc.assert(fc.property(small, (x) => assert.equal(formatUsd(x), intl(x, moneyDecimals(x)))), { numRuns: 5000 });
  });

  test('amounts written with one decimal more than shown, ending in 5 (the ties), round as Intl rounds them', () => {
    const tie = (places: number) => fc.tuple(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 10 ** places - 1 }))
      .map(([whole, frac]) => Number(`${whole}.${String(frac).padStart(places, '0')}5`));
    for (const d of [2, 3, 4, 5, 6]) fc.assert(fc.property(tie(d), (x) => assert.equal(formatUsdAt(x, d), intl(x, d))), { numRuns: 1000 });
  });
});

describe('money: a total and its parts', () => {
  test('the issue\'s tooltip: one precision, "Total $80.35" as the sidebar says it, and parts that add up to it', () => {
    const parts = [71.850722, 6.2, 1.3, 1.000958];
    const total = parts.reduce((a, b) => a + b, 0);
    const g = formatUsdGroup(total, parts);
    assert.equal(g.total, formatUsd(total));
    assert.equal(g.total, '$80.35');
    assert.deepEqual(g.parts, ['$71.85', '$6.20', '$1.30', '$1.00']);
  });

  test('parts that round apart from their total are rounded together: $0.625 + $0.625 shows $0.63 + $0.62 against $1.25, not $0.63 + $0.63', () => {
    const g = formatUsdGroup(1.25, [0.625, 0.625]);
    assert.equal(g.total, '$1.25');
    assert.equal(units(g.parts[0]!) + units(g.parts[1]!), units(g.total));
  });

  test('for any parts, those shown add up to the total shown, each off its amount by under one unit of the last decimal', () => {
    const part = fc.double({ min: 0, max: 1e6, noNaN: true });
    fc.assert(fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), (parts) => {
      const total = parts.reduce((a, b) => a + b, 0);
      const g = formatUsdGroup(total, parts);
      assert.equal(g.total, formatUsd(total) === '<$0.000001' ? g.total : formatUsd(total), 'the total reads as anywhere else');
      assert.equal(g.parts.reduce((a, p) => a + units(p), 0), units(g.total), `${g.parts.join(' + ')} = ${g.total}`);
      const unit = 10 ** -g.decimals;
      parts.forEach((p, i) => assert.ok(Math.abs(units(g.parts[i]!) * unit - p) < unit * (1 + 1e-9), `${g.parts[i]} for ${p}`));
    }), { numRuns: 3000 });
  });

  test('parts that do not add up to the total (a service\'s inconsistent totals) are shown each as it is', () => {
    const g = formatUsdGroup(10, [2, 3]);
    assert.deepEqual(g, { total: '$10.00', parts: ['$2.00', '$3.00'], decimals: 2 });
  });

  test('the precision is the largest amount\'s: a total of cents shows its sub-cent parts with the same decimals', () => {
    const g = formatUsdGroup(0.0123, [0.012, 0.0003]);
    assert.deepEqual(g, { total: '$0.0123', parts: ['$0.0120', '$0.0003'], decimals: 4 });
  });
});

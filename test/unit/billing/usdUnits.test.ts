// The tree's bucket lines written as bytes (src/core/billing/usdUnits.ts, src/endpoints/bucketLines.ts) say
// exactly what the one money formatter says of the same amounts (bucketLine, through formatUsdGroup): for
// amounts as billing records carry them, for totals that are the sum of their parts (the common case, where the
// parts are rounded together), for amounts that print exactly on a half of their last unit (where the double
// and its decimal round apart), for a service's inconsistent totals, and beyond what the fast path takes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { bucketLine, bucketLines } from '../../../src/endpoints/bucketLines';
import { Latin1Writer } from '../../../src/core/billing/usdUnits';

type Group = [number, number, number, number, number];

/** Each group's line both ways, in one call of bucketLines over all of them (as an expanded endpoint is). */
function assertSame(groups: Group[]): void {
  const column = new Float64Array(groups.flat());
  const fast = bucketLines(column, 0, groups.length);
  groups.forEach(([total, gpu, cpu, disk, fee], i) => {
    assert.equal(fast[i], bucketLine({ total, gpu, cpu, disk, fee }), `group ${JSON.stringify(groups[i])}`);
  });
}

const anyAmount = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });
// Amounts with few decimals, as a service's records mostly are (0.0635, 12.5): where halves are common.
const decimalAmount = fc.tuple(fc.integer({ min: -2_000_000, max: 2_000_000 }), fc.integer({ min: 1, max: 7 })).map(([n, d]) => n / 10 ** d);
// Exactly half of a last unit at 2 to 6 decimals: 0.125, 0.0635, 0.000215.
const halfAmount = fc.tuple(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 2, max: 6 })).map(([n, d]) => (2 * n + 1) / (2 * 10 ** d));
const part = fc.oneof(anyAmount, decimalAmount, halfAmount, fc.constant(0), fc.double({ min: 0, max: 0.01, noNaN: true }));

describe('bucket lines as bytes: the same words as the money formatter', () => {
  test('a total that is the sum of its parts', () => {
    fc.assert(fc.property(fc.array(fc.tuple(part, part, part, part), { minLength: 1, maxLength: 40 }), (rows) => {
      assertSame(rows.map(([g, c, d, f]) => [g + c + d + f, g, c, d, f]));
    }), { numRuns: 3000 });
  });

  test('a total and parts that need not agree (a service\'s inconsistent totals)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(part, part, part, part, part), { minLength: 1, maxLength: 40 }), (rows) => {
      assertSame(rows);
    }), { numRuns: 3000 });
  });

  test('amounts exactly on a half, and the groups the tree bench draws', () => {
    assertSame([
      [0.0704, 0.0635, 0.006, 0.0003, 0.0006],
      [0.125, 0.125, 0, 0, 0],
      [0.25, 0.125, 0.125, 0, 0],
      [2.675, 2.675, 0, 0, 0],
      [1.005, 1.005, 0, 0, 0],
      [-0.0635, -0.0635, 0, 0, 0],
      [-0.004, -0.001, -0.001, -0.001, -0.001],
      [0, 0, 0, 0, 0],
      [-0, 0, -0, 0, 0],
      [1e-9, 1e-9, 0, 0, 0],
      [5e-7, 5e-7, 0, 0, 0],
      [1234567.891, 1234567, 0.891, 0, 0],
      [9.995, 9.99, 0.005, 0, 0],
      [0.995, 0.5, 0.495, 0, 0],
    ]);
  });

  test('beyond the fast path: amounts of 10^10 dollars and more are written from the formatter\'s strings', () => {
    assertSame([
      [2e10, 1e10, 1e10, 0, 0],
      [1e15, 1e15, 0, 0, 0],
      [123456789012.345, 123456789012, 0.345, 0, 0],
    ]);
  });

  test('a range of a longer column: only its own rows, in order', () => {
    const column = new Float64Array([1, 1, 0, 0, 0, 2, 2, 0, 0, 0, 3, 3, 0, 0, 0]);
    assert.deepEqual(bucketLines(column, 1, 3), [bucketLine({ total: 2, gpu: 2, cpu: 0, disk: 0, fee: 0 }), bucketLine({ total: 3, gpu: 3, cpu: 0, disk: 0, fee: 0 })]);
    assert.deepEqual(bucketLines(column, 2, 2), []);
  });
});

describe('Latin1Writer', () => {
  test('grows past its first buffer and keeps what it wrote', () => {
    const w = new Latin1Writer();
    const words = 'GPU · $1,234.50 + ';
    for (let i = 0; i < 2000; i++) w.text(words);
    w.usd(-123456789, 4);
    const text = Buffer.from(w.bytes.buffer, 0, w.length).toString('latin1');
    assert.equal(text, `${words.repeat(2000)}-$12,345.6789`);
  });
});

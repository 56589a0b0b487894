// DateTime's refine uses isRealInstantQuick for speed (test/bench/billing.bench.ts); it must give exactly
// isRealInstant's verdict on every string, so the schema's behaviour (and its issue list) is unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DateTime, isRealInstant, isRealInstantQuick } from '../../src/core/schemas';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const dateTimeLike = fc.record({
  y: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 99, 100, 1900, 2000, 2024, 2100)),
  // Biased towards valid values and month ends, so the true verdicts and the calendar edges are well covered.
  mo: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(2, 2, 0, 13, 19)),
  d: fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constantFrom(28, 29, 29, 30, 31, 0, 32, 39)),
  h: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 29 })),
  mi: fc.oneof(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 69 })),
  se: fc.oneof(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 69 })),
  fraction: fc.oneof(fc.constant(''), fc.constant('.'), fc.string({ unit: fc.constantFrom('0', '5', '9'), minLength: 1, maxLength: 14 }).map((f) => `.${f}`)),
  zone: fc.oneof(
    fc.constant('Z'),
    fc.constantFrom('Z', 'z', '', 'ZZ', '+0100', '+01', ' Z', 'Z '),
    fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 29 }), fc.integer({ min: 0, max: 69 })).map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
  ),
  sep: fc.constantFrom('T', 'T', 'T', 't', ' '),
}).map(({ y, mo, d, h, mi, se, fraction, zone, sep }) => `${pad(y, 4)}-${pad(mo)}-${pad(d)}${sep}${pad(h)}:${pad(mi)}:${pad(se)}${fraction}${zone}`);
const mutated = fc.tuple(dateTimeLike, fc.nat(), fc.string({ maxLength: 2 })).map(([s, at, ins]) => {
  const i = at % (s.length + 1);
  return s.slice(0, i) + ins + s.slice(i + 1);
});

test('isRealInstantQuick gives exactly the verdict of isRealInstant', () => {
  fc.assert(fc.property(fc.oneof(dateTimeLike, mutated, fc.string()), (s) => {
    assert.equal(isRealInstantQuick(s), isRealInstant(s), s);
  }), { numRuns: 50_000 });
});

test('DateTime still refuses impossible dates and accepts any offset', () => {
  for (const s of ['2027-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2100-02-29T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00', '2026-01-01 00:00:00Z']) {
    assert.equal(DateTime.safeParse(s).success, false, s);
  }
  for (const s of ['2024-02-29T00:00:00Z', '2000-02-29T23:59:59.999+05:30', '2026-12-31T23:59:59-23:59']) {
    assert.equal(DateTime.safeParse(s).success, true, s);
  }
});

test('years 0000-0099 are real years, not 1900-1999', () => {
  assert.equal(isRealInstant('0050-01-01T00:00:00Z'), true);
  assert.equal(isRealInstantQuick('0050-01-01T00:00:00Z'), true);
  assert.equal(isRealInstant('0004-02-29T00:00:00Z'), true);
  assert.equal(isRealInstant('0100-02-29T00:00:00Z'), false);
});

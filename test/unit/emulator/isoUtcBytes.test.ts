// The billing body writes its bucket times with IsoUtcWriter (a date part once per UTC day, digits for the
// time): every byte must be isoUtc's, from year 0000 to 9999 (the billing query's bounds), with and without
// milliseconds, whatever instant came before (the day cache).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isoUtc } from '../../../src/emulator/clock';
import { IsoUtcWriter, MAX_ISO_BYTES } from '../../../src/emulator/billing/isoUtcBytes';

const MIN = Date.parse('0000-01-01T00:00:00Z');
const MAX = Date.parse('9999-12-31T23:59:59.999Z');
const DAY = 86_400_000;

function written(w: IsoUtcWriter, ms: number): string {
  const out = new Uint8Array(MAX_ISO_BYTES + 3).fill(0x21);
  const n = w.write(ms, out, 3);
  assert.ok(out.subarray(0, 3).every((b) => b === 0x21) && out.subarray(3 + n).every((b) => b === 0x21), 'wrote outside its text');
  return Buffer.from(out.subarray(3, 3 + n)).toString('latin1');
}

test('random instants in a row (each after another day or the same one) give isoUtc text', () => {
  const instant = fc.oneof(
    fc.integer({ min: MIN, max: MAX }),
    fc.integer({ min: MIN / DAY, max: Math.floor(MAX / DAY) }).map((d) => d * DAY), // midnights
    fc.integer({ min: MIN / 3_600_000, max: Math.floor(MAX / 3_600_000) }).map((h) => h * 3_600_000), // hours
  );
  fc.assert(fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (ms) => {
    const w = new IsoUtcWriter();
    for (const t of ms) {
      assert.equal(written(w, t), isoUtc(t));
      assert.equal(written(w, t + 1), isoUtc(t + 1)); // same day, with a fraction (or the next day)
    }
  }), { numRuns: 300 });
});

test('the edges: a leap day, the last millisecond of a day, year 0000 and 9999, before 1970', () => {
  const w = new IsoUtcWriter();
  for (const s of ['2024-02-29T23:59:59.999Z', '2024-03-01T00:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31T23:00:00Z', '1969-12-31T23:59:59.001Z', '1970-01-01T00:00:00.010Z']) {
    assert.equal(written(w, Date.parse(s)), s);
  }
});

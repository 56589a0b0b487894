// Property-based tests of the UTC bucket arithmetic (SPEC 4.1 rule 1, issue #3 "Done when"): for random instants
// over six centuries (leap years, 1900/2100 which are not, 2000 which is) and instants pushed towards month,
// year and week ends, every bucket size must snap, tile and count consistently. The checks use plain Date UTC
// getters as the oracle, not date-fns, so they do not share a mistake with the code under test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  addBuckets, bucketStart, bucketStarts, countBuckets, isBoundary, resolveWindow, snapUp,
} from '../../src/core/billing/buckets';
import { BUCKET_SIZES, type BucketSize } from '../../src/core/schemas';

const MIN = new Date('1600-01-01T00:00:00Z');
const MAX = new Date('2600-01-01T00:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RUNS = { numRuns: 400 };

/** Instants near the edges that calendars get wrong: the last and first moments of months, leap days. */
const edgeInstant = fc
  .record({
    year: fc.integer({ min: 1600, max: 2599 }),
    month: fc.integer({ min: 0, max: 11 }),
    // -1 = the last day of the previous month, 0..1 = the first days of this one, 27..28 = late in February
    day: fc.constantFrom(-1, 0, 1, 27, 28, 29, 30),
    offsetMs: fc.oneof(fc.constant(0), fc.constant(-1), fc.constant(1), fc.integer({ min: -DAY, max: DAY })),
  })
  .map(({ year, month, day, offsetMs }) => new Date(Date.UTC(year, month, 1) + day * DAY + offsetMs));

const anyInstant = fc.oneof(fc.date({ min: MIN, max: MAX, noInvalidDate: true }), edgeInstant);
const bucketSize = fc.constantFrom<BucketSize>(...BUCKET_SIZES);

/** The oracle: is `d` the first instant of a bucket of `size`, judged from UTC fields alone? */
function looksLikeBoundary(d: Date, size: BucketSize): boolean {
  const zeroTime = d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
  const midnight = zeroTime && d.getUTCHours() === 0;
  switch (size) {
    case 'hour': return zeroTime;
    case 'day': return midnight;
    case 'week': return midnight && d.getUTCDay() === 1;
    case 'month': return midnight && d.getUTCDate() === 1;
    case 'year': return midnight && d.getUTCDate() === 1 && d.getUTCMonth() === 0;
  }
}

/** How far a window may reach for a size, so that tiling stays a few thousand buckets at most. */
const SPAN_MS: Record<BucketSize, number> = {
  hour: 40 * DAY, day: 3 * 366 * DAY, week: 20 * 366 * DAY, month: 120 * 366 * DAY, year: 400 * 366 * DAY,
};

describe('bucket arithmetic (properties, SPEC 4.1)', () => {
  test('snapping down is idempotent and lands on a boundary of the size', () => {
    fc.assert(fc.property(anyInstant, bucketSize, (t, size) => {
      const s = bucketStart(t, size);
      assert.equal(bucketStart(s, size).getTime(), s.getTime());
      assert.ok(looksLikeBoundary(s, size), `${s.toISOString()} is not a ${size} boundary`);
      assert.ok(isBoundary(s, size));
    }), RUNS);
  });

  test('a snapped start is never after the instant, and the next bucket starts after it', () => {
    fc.assert(fc.property(anyInstant, bucketSize, (t, size) => {
      const s = bucketStart(t, size);
      const next = addBuckets(s, size, 1);
      assert.ok(s.getTime() <= t.getTime(), `${s.toISOString()} > ${t.toISOString()}`);
      assert.ok(next.getTime() > t.getTime(), `next ${next.toISOString()} <= ${t.toISOString()}`);
      assert.ok(looksLikeBoundary(next, size), `next ${next.toISOString()} is not a ${size} boundary`);
      // No boundary between the start and the next one: the bucket is exactly one unit long.
      assert.equal(bucketStart(new Date(next.getTime() - 1), size).getTime(), s.getTime());
    }), RUNS);
  });

  test('snapping up is never before the instant, idempotent, and moves only off-boundary instants', () => {
    fc.assert(fc.property(anyInstant, bucketSize, (t, size) => {
      const u = snapUp(t, size);
      assert.ok(u.getTime() >= t.getTime());
      assert.ok(looksLikeBoundary(u, size));
      assert.equal(snapUp(u, size).getTime(), u.getTime());
      if (looksLikeBoundary(t, size)) assert.equal(u.getTime(), t.getTime());
      else assert.equal(u.getTime(), addBuckets(bucketStart(t, size), size, 1).getTime());
    }), RUNS);
  });

  test('weeks start on Monday 00:00 UTC and last exactly seven days', () => {
    fc.assert(fc.property(anyInstant, (t) => {
      const s = bucketStart(t, 'week');
      assert.equal(s.getUTCDay(), 1, `${s.toISOString()} is not a Monday`);
      assert.ok(looksLikeBoundary(s, 'day'), `${s.toISOString()} is not midnight UTC`);
      assert.ok(t.getTime() - s.getTime() < 7 * DAY);
      assert.equal(addBuckets(s, 'week', 1).getTime() - s.getTime(), 7 * DAY);
    }), RUNS);
  });

  test('buckets tile a window with no gap and no overlap, and countBuckets agrees', () => {
    fc.assert(fc.property(anyInstant, bucketSize, fc.double({ min: 0, max: 1, noNaN: true }), (a, size, f) => {
      const b = new Date(Math.min(MAX.getTime(), a.getTime() + Math.floor(f * SPAN_MS[size])));
      const start = bucketStart(a, size);
      const end = snapUp(b, size);
      const starts = bucketStarts(start, end, size);
      assert.equal(countBuckets(start, end, size), starts.length);
      if (starts.length === 0) {
        assert.equal(start.getTime(), end.getTime());
        return;
      }
      assert.equal(starts[0]!.getTime(), start.getTime());
      for (let i = 0; i < starts.length; i++) {
        const cur = starts[i]!;
        const next = i + 1 < starts.length ? starts[i + 1]! : end;
        assert.ok(looksLikeBoundary(cur, size));
        assert.ok(cur.getTime() < next.getTime(), 'buckets overlap or are empty');
        // The bucket's end is the next start: no gap.
        assert.equal(addBuckets(cur, size, 1).getTime(), next.getTime(), `gap after ${cur.toISOString()}`);
      }
      // Every instant of the window is in exactly the bucket bucketStart names.
      const probe = new Date(start.getTime() + Math.floor(f * (end.getTime() - start.getTime() - 1)));
      const owner = starts.filter((s, i) => s <= probe && probe < (starts[i + 1] ?? end));
      assert.equal(owner.length, 1);
      assert.equal(owner[0]!.getTime(), bucketStart(probe, size).getTime());
    }), { numRuns: 200 });
  });

  test('countBuckets matches a window built by adding N buckets, including windows ending off a boundary', () => {
    fc.assert(fc.property(anyInstant, bucketSize, fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: DAY }), (t, size, n, extraMs) => {
      const start = bucketStart(t, size);
      const end = addBuckets(start, size, n);
      assert.equal(countBuckets(start, end, size), n);
      // An end inside the following bucket counts that bucket too (it is snapped up).
      const ragged = new Date(end.getTime() + Math.min(extraMs, addBuckets(end, size, 1).getTime() - end.getTime() - 1) + 1);
      assert.equal(countBuckets(start, ragged, size), n + 1);
    }), RUNS);
  });

  test('lastN resolves to exactly N whole buckets ending with the one that holds now', () => {
    fc.assert(fc.property(anyInstant, bucketSize, fc.integer({ min: 1, max: 200 }), (now, size, lastN) => {
      const w = resolveWindow({ lastN, bucketSize: size }, now);
      assert.ok(w.start.getTime() <= now.getTime() && now.getTime() < w.end.getTime());
      assert.equal(w.end.getTime(), addBuckets(bucketStart(now, size), size, 1).getTime());
      assert.equal(countBuckets(w.start, w.end, size), lastN);
      assert.equal(bucketStarts(w.start, w.end, size).length, lastN);
    }), RUNS);
  });

  test('an explicit window resolves to snapped bounds that contain the requested one', () => {
    fc.assert(fc.property(anyInstant, anyInstant, bucketSize, (a, b, size) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const w = resolveWindow({ startTime: lo.toISOString(), endTime: hi.toISOString(), bucketSize: size }, new Date());
      assert.equal(w.start.getTime(), bucketStart(lo, size).getTime());
      assert.ok(w.start.getTime() <= lo.getTime() && hi.getTime() <= w.end.getTime());
      assert.ok(looksLikeBoundary(w.start, size) && looksLikeBoundary(w.end, size));
    }), RUNS);
  });
});

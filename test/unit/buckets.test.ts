import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketStart, resolveWindow, snapUp } from '../../src/core/billing/buckets';

test('weeks start on Monday 00:00 UTC, whatever the offset of the instant', () => {
  assert.equal(bucketStart(new Date('2026-11-22T23:30:00-05:00'), 'week').toISOString(), '2026-11-23T00:00:00.000Z');
});

test('an end already on a boundary is not snapped up', () => {
  const d = new Date('2026-03-01T00:00:00Z');
  assert.equal(snapUp(d, 'month').toISOString(), d.toISOString());
  assert.equal(snapUp(new Date('2026-02-28T10:00:00Z'), 'month').toISOString(), '2026-03-01T00:00:00.000Z');
});

test('lastN ends with the current bucket', () => {
  const w = resolveWindow({ lastN: 3, bucketSize: 'month' }, new Date('2024-02-29T12:00:00Z'));
  assert.equal(w.start.toISOString(), '2023-12-01T00:00:00.000Z');
  assert.equal(w.end.toISOString(), '2024-03-01T00:00:00.000Z');
});

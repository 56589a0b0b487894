import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketBoundaries, UserUsage } from '../../../src/emulator/billing/billingStore';

const H = 3_600_000;
const t = (iso: string) => Date.parse(iso);

test('events out of order land in the right hour, and sums per bucket are the sums of the events', () => {
  const u = new UserUsage();
  u.add('b', t('2026-01-01T05:10:00Z'), { gpu: 1, cpu: 0, disk: 0, fee: 0 });
  u.add('b', t('2026-01-01T01:59:59Z'), { gpu: 2, cpu: 0, disk: 0, fee: 0 });
  u.add('b', t('2026-01-01T05:50:00Z'), { gpu: 4, cpu: 1, disk: 0, fee: 0 });
  u.add('a', t('2026-01-02T00:00:00Z'), { gpu: 8, cpu: 0, disk: 0, fee: 0 }); // outside the window below
  const b = bucketBoundaries(t('2026-01-01T00:00:00Z'), t('2026-01-01T06:00:00Z'), 'hour');
  assert.equal(b.length, 7);
  const r = u.sumBuckets(b);
  assert.deepEqual(r.map((e) => e.serverlessId), ['b'], 'an endpoint without usage in the window has no records');
  assert.deepEqual([...r[0]!.gpu], [0, 2, 0, 0, 0, 5]);
  assert.deepEqual([...r[0]!.cpu], [0, 0, 0, 0, 0, 1]);
  const only = u.sumBuckets(b, 'a');
  assert.deepEqual([...only[0]!.gpu], [0, 0, 0, 0, 0, 0], 'a filtered endpoint gets zero buckets');
});

test('month boundaries follow the calendar (leap February)', () => {
  const b = bucketBoundaries(t('2024-01-01T00:00:00Z'), t('2024-04-01T00:00:00Z'), 'month');
  assert.deepEqual(b.map((x) => new Date(x).toISOString().slice(0, 10)), ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01']);
  const u = new UserUsage();
  u.add('x', t('2024-02-29T23:59:59Z'), { gpu: 1, cpu: 0, disk: 0, fee: 0 });
  u.add('x', t('2024-03-01T00:00:00Z'), { gpu: 10, cpu: 0, disk: 0, fee: 0 });
  assert.deepEqual([...u.sumBuckets(b)[0]!.gpu], [0, 1, 10]);
  assert.equal(b[1]! % H, 0);
});

// The billing windows of "Change Billing Window" and the tree model (src/endpoints/billingWindow.ts,
// billingTreeModel.ts): queries per preset, validation as typed, sorting and formatting.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildBillingTree } from '../../../src/endpoints/billingTreeModel';
import { buildBillingTable } from '../../../src/core/billing/billingTable';
import { formatUsd } from '../../../src/core/billing/usd';
import { bucketLine, formatBreakdown } from '../../../src/endpoints/bucketLines';
import { bucketTooltip } from '../../../src/endpoints/itemText';
import { describeWindow, parseStoredWindow, validateRange, validateRfc3339, windowQuery } from '../../../src/endpoints/billingWindow';
import { aBillingResponse } from '../builders/billingResponse';

describe('billing windows', () => {
  test('presets use lastN with their bucket size; "today" starts at 00:00 UTC by hour', () => {
    assert.deepEqual(windowQuery({ kind: 'preset', preset: 'last7Days' }), { lastN: 7, bucketSize: 'day' });
    assert.deepEqual(windowQuery({ kind: 'preset', preset: 'last30Days' }), { lastN: 30, bucketSize: 'day' });
    assert.deepEqual(windowQuery({ kind: 'preset', preset: 'last12Weeks' }), { lastN: 12, bucketSize: 'week' });
    assert.deepEqual(windowQuery({ kind: 'preset', preset: 'last12Months' }), { lastN: 12, bucketSize: 'month' });
    assert.deepEqual(windowQuery({ kind: 'preset', preset: 'last5Years' }), { lastN: 5, bucketSize: 'year' });
    assert.deepEqual(windowQuery({ kind: 'preset', preset: 'today' }, new Date('2026-06-15T13:45:12.345Z')), { startTime: '2026-06-15T00:00:00Z', bucketSize: 'hour' });
  });

  test('a custom window sends its start and end', () => {
    assert.deepEqual(windowQuery({ kind: 'custom', startTime: '2026-01-01T00:00:00Z', endTime: '2026-02-01T00:00:00+02:00', bucketSize: 'week' }),
      { startTime: '2026-01-01T00:00:00Z', endTime: '2026-02-01T00:00:00+02:00', bucketSize: 'week' });
  });

  test('RFC 3339 is validated as typed: impossible dates and missing offsets are refused', () => {
    assert.equal(validateRfc3339('2026-01-01T00:00:00Z'), undefined);
    assert.equal(validateRfc3339('2026-01-01T00:00:00+05:30'), undefined);
    assert.match(validateRfc3339('2026-02-30T00:00:00Z') ?? '', /RFC 3339/);
    assert.match(validateRfc3339('2026-01-01T00:00:00') ?? '', /RFC 3339/);
    assert.match(validateRfc3339('') ?? '', /Enter/);
    assert.match(validateRange('2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z') ?? '', /after the start/);
    assert.equal(validateRange('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'), undefined);
  });

  test('a stored window of an unknown shape falls back to the default', () => {
    assert.deepEqual(parseStoredWindow({ kind: 'preset', preset: 'nope' }), { kind: 'preset', preset: 'last30Days' });
    assert.deepEqual(parseStoredWindow({ kind: 'custom', startTime: 'x', endTime: 'y', bucketSize: 'day' }), { kind: 'preset', preset: 'last30Days' });
    assert.deepEqual(parseStoredWindow({ kind: 'preset', preset: 'last5Years' }), { kind: 'preset', preset: 'last5Years' });
    const custom = { kind: 'custom', startTime: '2026-01-01T00:00:00Z', endTime: '2026-02-01T00:00:00+02:00', bucketSize: 'week' };
    assert.deepEqual(parseStoredWindow(custom), custom);
    assert.deepEqual(parseStoredWindow({ ...custom, bucketSize: 'fortnight' }), { kind: 'preset', preset: 'last30Days' });
    assert.deepEqual(parseStoredWindow({ ...custom, endTime: '2027-02-29T00:00:00Z' }), { kind: 'preset', preset: 'last30Days' });
    assert.deepEqual(parseStoredWindow(null), { kind: 'preset', preset: 'last30Days' });
  });

  test('the view description comes from the echoed query and the metadata total', () => {
    const echo = { startTime: '2026-05-17T00:00:00Z', endTime: '2026-06-16T00:00:00Z', bucketSize: 'day' as const };
    assert.equal(describeWindow({ kind: 'preset', preset: 'last30Days' }, echo, '$123.45'), 'Last 30 days, daily, $123.45');
    assert.equal(describeWindow({ kind: 'custom', startTime: 'a', endTime: 'b', bucketSize: 'day' }, echo, '$1.00'), '2026-05-17 – 2026-06-16, daily, $1.00');
  });
});

describe('billing tree model', () => {
  test('endpoints sorted by cost, zero-cost last, added ones appended; buckets newest first', () => {
    const response = aBillingResponse().withEndpoints(['cheap', 'free', 'dear']).daily(3)
      .withAmounts((e, b) => ({ gpuAmount: e === 1 ? 0 : (e + 1) * (b + 1), cpuAmount: 0, diskAmount: 0, feeAmount: 0 })).build();
    const model = buildBillingTree(buildBillingTable(response), [{ id: 'mine', displayName: 'My endpoint' }, { id: 'dear', displayName: 'Dear one' }]);
    assert.deepEqual(model.endpoints.map((e) => e.id), ['dear', 'cheap', 'free', 'mine']);
    assert.equal(model.endpoints[0]!.displayName, 'Dear one');
    assert.equal(model.endpoints[3]!.added, true);
    assert.deepEqual(model.endpoints[3]!.buckets, []);
    assert.deepEqual(model.endpoints.map((e) => e.bucketCount), [3, 3, 3, 0]);
    const starts = model.endpoints[0]!.buckets.map((b) => b.startMs);
    assert.equal(starts.length, 3);
    assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
    assert.equal(model.endpoints[0]!.buckets[0]!.parent, model.endpoints[0]);
    assert.equal(model.totals.total, response.metadata.totals.totalAmount);
  });

  test('a bucket node says what its record says: kind, size, start and end, the five amounts, its line and tooltip', () => {
    const response = aBillingResponse().withEndpoints(['a', 'b']).daily(4)
      .withAmounts((e, b) => ({ gpuAmount: 1.5 * (e + 1) + b, cpuAmount: 0.1 * b, diskAmount: 0.05, feeAmount: 0.2 * e })).build();
    const model = buildBillingTree(buildBillingTable(response));
    let seen = 0;
    for (const endpoint of model.endpoints) {
      for (const node of endpoint.buckets) {
        const record = response.records.find((r) => r.serverlessId === endpoint.id && Date.parse(r.startTime) === node.startMs);
        assert.ok(record, `a record for ${endpoint.id} at ${node.startMs}`);
        assert.equal(node.kind, 'bucket');
        assert.equal(node.bucketSize, 'day');
        assert.equal(node.endMs, Date.parse(record.endTime));
        // Read from the table's columns, not copied onto each of a year's 8,760 nodes per endpoint.
        assert.deepEqual(Object.keys(node).filter((k) => ['kind', 'bucketSize', 'endMs', 'total', 'gpu', 'cpu', 'disk', 'fee'].includes(k)), []);
        assert.deepEqual([node.amounts.total, node.amounts.gpu, node.amounts.cpu, node.amounts.disk, node.amounts.fee],
          [record.totalAmount, record.gpuAmount, record.cpuAmount, record.diskAmount, record.feeAmount]);
        assert.equal(node.line, bucketLine(node.amounts));
        const money = formatBreakdown(node.amounts);
        assert.equal(bucketTooltip(node), `${record.startTime.replace('.000', '')} – ${record.endTime.replace('.000', '')}\nTotal ${money.total}\n${money.parts}`);
        seen++;
      }
    }
    assert.equal(seen, 8);
  });

  test('USD formatting: cents, thousands, sub-cent amounts with the digits they need (test/unit/billing/usd.test.ts)', () => {
    assert.equal(formatUsd(1234.5), '$1,234.50');
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(0.004), '$0.00400');
    assert.equal(formatUsd(-3.2), '-$3.20');
    assert.equal(formatUsd(0.1234567), '$0.123');
  });
});

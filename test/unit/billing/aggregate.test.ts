import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateBilling } from '../../../src/core/billing/aggregate';
import { ListServerlessBillingResponse, type ServerlessBillingRecord } from '../../../src/core/schemas';
import { aBillingResponse } from '../builders/billingResponse';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

function rec(serverlessId: string, startTime: string, endTime: string, gpu: number, cpu = 0, disk = 0, fee = 0): ServerlessBillingRecord {
  return { serverlessId, startTime, endTime, gpuAmount: gpu, cpuAmount: cpu, diskAmount: disk, feeAmount: fee, totalAmount: gpu + cpu + disk + fee };
}

describe('aggregateBilling', () => {
  test('the builder makes a response the schema accepts, with consistent metadata', () => {
    const r = aBillingResponse().withEndpoints(3).hourly(24).build();
    assert.equal(ListServerlessBillingResponse.safeParse(r).success, true);
    assert.equal(r.records.length, 72);
    assert.equal(r.metadata.recordCount, 72);
    assert.equal(r.metadata.query.endTime, '2026-01-02T00:00:00Z');
  });

  test('per-endpoint totals sum all five amounts and match the metadata totals', () => {
    const r = aBillingResponse().withEndpoints(4).daily(31).build();
    const agg = aggregateBilling(r);
    assert.equal(agg.endpoints.length, 4);
    for (const key of ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount', 'feeAmount'] as const) {
      close(agg.endpoints.reduce((s, e) => s + e[key], 0), r.metadata.totals[key]);
      for (const e of agg.endpoints) {
        close(e[key], r.records.filter((x) => x.serverlessId === e.serverlessId).reduce((s, x) => s + x[key], 0));
      }
    }
    assert.ok(agg.endpoints.every((e) => e.recordCount === 31));
  });

  test('endpoints sorted by total, highest first; zero-cost last; ties by id', () => {
    const s = '2026-01-01T00:00:00Z', e = '2026-01-02T00:00:00Z';
    const agg = aggregateBilling({ records: [
      rec('zero', s, e, 0), rec('small', s, e, 1), rec('credit', s, e, -2), rec('big', s, e, 5), rec('big', s, e, 1), rec('b-tie', s, e, 1), rec('a-zero', s, e, 0),
    ] });
    assert.deepEqual(agg.endpoints.map((x) => x.serverlessId), ['big', 'b-tie', 'small', 'credit', 'a-zero', 'zero']);
    close(agg.endpoints[0]!.totalAmount, 6);
  });

  test('buckets of an endpoint come newest first, whatever the order of the response', () => {
    for (const builder of [aBillingResponse().withEndpoints(2).hourly(5), aBillingResponse().withEndpoints(2).hourly(5).newestBucketsFirst()]) {
      const agg = aggregateBilling(builder.build());
      assert.deepEqual(agg.bucketsOf('ep-02').map((r) => r.startTime.slice(11, 13)), ['04', '03', '02', '01', '00']);
    }
    const shuffled = ['03', '01', '04', '00', '02'].map((h) => rec('x', `2026-01-01T${h}:00:00Z`, `2026-01-01T${h}:59:00Z`, 1));
    assert.deepEqual(aggregateBilling({ records: shuffled }).bucketsOf('x').map((r) => r.startTime.slice(11, 13)), ['04', '03', '02', '01', '00']);
    assert.deepEqual(aggregateBilling({ records: shuffled }).bucketsOf('unknown'), []);
  });

  test('the series sums the components per bucket, oldest first, for all endpoints or one', () => {
    const r = aBillingResponse().withEndpoints(3).daily(4).newestBucketsFirst().build();
    const agg = aggregateBilling(r);
    const all = agg.series();
    assert.deepEqual(all.map((p) => p.startTime), ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z']);
    for (const p of all) {
      const inBucket = r.records.filter((x) => x.startTime === p.startTime);
      assert.equal(inBucket.length, 3);
      for (const key of ['gpuAmount', 'cpuAmount', 'diskAmount', 'feeAmount', 'totalAmount'] as const) close(p[key], inBucket.reduce((s, x) => s + x[key], 0));
    }
    const one = agg.series('ep-02');
    assert.equal(one.length, 4);
    for (const p of one) close(p.gpuAmount, r.records.find((x) => x.serverlessId === 'ep-02' && x.startTime === p.startTime)!.gpuAmount);
    assert.deepEqual(agg.series('nope'), []);
  });

  test('the same instant written with different offsets is one bucket', () => {
    const agg = aggregateBilling({ records: [
      rec('a', '2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z', 1),
      rec('b', '2026-01-01T01:00:00+01:00', '2026-01-01T02:00:00+01:00', 2),
    ] });
    assert.equal(agg.series().length, 1);
    close(agg.series()[0]!.gpuAmount, 3);
  });

  test('an empty response gives nothing, without failing', () => {
    const agg = aggregateBilling({ records: [] });
    assert.deepEqual(agg.endpoints, []);
    assert.deepEqual(agg.series(), []);
  });

  test('the series handed out is a copy: a view cannot corrupt the next one', () => {
    const agg = aggregateBilling(aBillingResponse().withEndpoints(1).daily(2).build());
    agg.series()[0]!.gpuAmount = 1e9;
    assert.ok(agg.series()[0]!.gpuAmount < 1);
  });
});

// Issue 21: the billing body is written from prepared bytes for speed (src/emulator/billing/billingRow.ts), and
// must stay byte for byte what the plain formatting (a template string per record, JSON.stringify for the rest)
// served before. The hashes below were taken from that formatting (the build of commit aa3bd61), so any
// change of a byte (number text, escaping of an id, a time, the order, a comma) fails here, while the other
// billing suites check the meaning of the records.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request, startEmulator, type Emulator } from './harness';

const KEY = 'k-pin';

/** Amounts whose texts are awkward: sums that are not short decimals, exponents, zero events. */
function pinConfig() {
  const usage: Array<Record<string, unknown>> = [];
  const at = (day: number, second: number) => new Date(Date.parse('2025-01-01T00:00:00Z') + day * 86_400_000 + second * 1000).toISOString();
  for (let d = 0; d < 365; d += 3) {
    usage.push({ serverlessId: 'alpha', time: at(d, (d * 7919) % 86_400), gpuAmount: 0.1, cpuAmount: 0.2, diskAmount: 1e-7, feeAmount: 0.3 });
    usage.push({ serverlessId: 'alpha', time: at(d, (d * 7919) % 86_400), gpuAmount: 0.2 }); // same hour: 0.1 + 0.2
    usage.push({ serverlessId: 'zeta', time: at(d, 43_200), gpuAmount: 1e21 / (d + 1), feeAmount: 1 / 3 });
    usage.push({ serverlessId: 'idle-but-billed', time: at(d, 3600) }); // every amount 0: an all-zero record
  }
  // An id that JSON must escape (a quote, a backslash, a control character) and one that is not ASCII.
  usage.push({ serverlessId: 'gone "old"\\\u0001', time: at(100, 5), gpuAmount: 2.5 });
  usage.push({ serverlessId: 'ünïcødé-ε', time: at(200, 7), gpuAmount: 0.75, cpuAmount: 0.0625 });
  return {
    now: '2026-03-01T12:00:00Z',
    rateLimits: { minute: 100_000, hour: 1_000_000, day: 10_000_000 },
    users: [{
      id: 'pin',
      keys: [{ key: KEY, scopes: ['billing:read'] }],
      endpoints: [{ id: 'alpha', kind: 'echo' }, { id: 'zeta', kind: 'echo' }],
      usage,
      // The demo's generator: a different amount nearly every hour.
      syntheticUsage: { days: 400, seed: 11, endpoints: ['synthetic-a', { id: 'synthetic-b', scale: 0.37, fromDaysAgo: 300, untilDaysAgo: 20 }] },
    }],
  };
}

/** [query, byte length, sha256 of the body] as served by the plain formatting. */
const PINNED: Array<[string, number, string]> = [
  ['bucketSize=hour&startTime=2025-01-01T00:00:00Z&endTime=2026-01-01T00:00:00Z', 10_731_663, 'fe320f5153b7c9ebd783c504fe3e5cce8ee7e183963247ac78539033331ec232'],
  ['bucketSize=hour&startTime=2025-01-01T00:00:00Z&endTime=2026-01-01T00:00:00Z&serverlessId=synthetic-b', 1_568_617, '5b82492686dd03733f9a89081c9099cfeb571c17f7f753461746ca04b4986ee2'],
  ['bucketSize=hour&startTime=2025-03-30T00:30:00%2B02:00&endTime=2025-04-02T00:00:00Z&serverlessId=idle-but-billed', 13_308, '06446cba27186730697d79306ad07d078bd082ae32176ef9ba225c0599e9416f'],
  ['bucketSize=day&lastN=400', 531_496, '4e0f5e453e449d78022694bdc8e39469e59108bc29144952f3e3b6150b312019'],
  ['bucketSize=week&startTime=2024-12-30T00:00:00Z&endTime=2026-01-05T00:00:00Z', 75_681, '72638b38ee981e89150e00ba53b59f176b81060f1b382cb1ba623001c8ec1336'],
  ['bucketSize=hour&startTime=2020-01-01T00:00:00Z&endTime=2020-01-02T00:00:00Z', 271, 'aff86778210f6021992389c7544b6c43a78415b44c265307a30c1eaa0f379c3c'], // no usage: no records
  ['bucketSize=month&lastN=15', 21_606, '40877d750fa3e13bfe3feee50d8ffcec26877b156b44d56ddca98ce6451b22f0'],
];

let emu: Emulator;
before(async () => { emu = await startEmulator(pinConfig(), { admin: false }); });
after(async () => { await emu?.stop(); });

describe('the bytes of billing bodies', () => {
  for (const [query, length, sha256] of PINNED) {
    test(query, async () => {
      const r = await request(emu.url, `/v2/billing/serverless?${query}`, { key: KEY });
      assert.equal(r.status, 200, r.text.slice(0, 300));
      if (query === PINNED[0]![0]) {
        // The awkward texts are really in it (else the pin would prove less than it claims).
        for (const text of ['0.30000000000000004', '1e-7', 'e+21', '"gone \\"old\\"\\\\\\u0001"', 'ünïcødé-ε', '"idle-but-billed","totalAmount":0,']) {
          assert.ok(r.text.includes(text), text);
        }
      }
      assert.equal(r.body.length, length);
      assert.equal(createHash('sha256').update(r.body).digest('hex'), sha256);
    });
  }
});

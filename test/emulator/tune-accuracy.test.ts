// Issue 29, "Done when: Accuracy": the replay of a recorded batch (the arrivals of 1,000 jobs) predicts what the
// emulator then bills and how long the jobs wait when the same arrivals are really sent to it: cost within 2%,
// p95 wait within 10%. The jobs are sent to an emulator in virtual time (config clockFrozen, the clock moved to
// each submit instant), recorded as the Tune view records a workspace's jobs (submit time, the service's
// delayTime and executionTime), and replayed from that record alone: the arrivals and the cold start come from
// trafficOf, as in the view, not from the endpoint's config. `npm run bench -- --only tune` reports the same
// figures (tune.accuracy.*); this holds them to the targets, under both scaler types.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { moveClock, request, startEmulator, type Emulator } from './harness';
import { percentile, replay, type ReplaySettings } from '../../src/core/tune/replay';
import { trafficOf, type JobSample } from '../../src/core/tune/traffic';

const KEY = 'tune-accuracy';
const START = Date.parse('2026-06-15T12:00:00Z');
const PRICE = 0.001; // GPU only, per worker-second: the bill in USD / 0.001 is worker-seconds
const COLD_START_MS = 7000;
const EXECUTION_MS = 4000;
const ENDPOINTS: Array<{ id: string; settings: ReplaySettings }> = [
  { id: 'acc-qd', settings: { workersMin: 0, workersMax: 4, idleTimeoutMs: 5000, scalerType: 'QUEUE_DELAY', scalerValue: 4 } },
  { id: 'acc-rc', settings: { workersMin: 0, workersMax: 4, idleTimeoutMs: 5000, scalerType: 'REQUEST_COUNT', scalerValue: 2 } },
];

/** 1,000 arrivals: bursts of 1..20 jobs within 2 s, 0..30 s apart (a seeded LCG, as the bench's). */
function recordedArrivals(n: number, seed: number): number[] {
  let x = seed;
  const rnd = (): number => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const out: number[] = [];
  for (let t = START; out.length < n; t += Math.floor(rnd() * 30_000)) {
    const burst = 1 + Math.floor(rnd() * 20);
    for (let i = 0; i < burst && out.length < n; i++) out.push(t + Math.floor(rnd() * 2000));
  }
  return out.sort((a, b) => a - b);
}

let emu: Emulator;
before(async () => {
  emu = await startEmulator({
    now: new Date(START).toISOString(), clockFrozen: true, retentionMinutes: 6000,
    rateLimits: { minute: 10_000_000, hour: 100_000_000, day: 1_000_000_000 },
    operationLimits: { run: 10_000_000, status: 10_000_000 },
    users: [{
      id: 'acc', keys: [{ key: KEY, scopes: ['jobs:run', 'jobs:read', 'billing:read'] }],
      endpoints: ENDPOINTS.map(({ id, settings }) => ({
        id, kind: 'echo', queueMs: 0, executionMs: EXECUTION_MS, coldStartMs: COLD_START_MS, maxQueued: 100_000,
        workersMin: settings.workersMin, workersMax: settings.workersMax, idleTimeoutMs: settings.idleTimeoutMs,
        scalerType: settings.scalerType, scalerValue: settings.scalerValue,
        prices: { gpuPerSecond: PRICE, cpuPerSecond: 0, diskPerSecond: 0, feePerSecond: 0 },
      })),
    }],
  });
});
after(async () => { await emu?.stop(); });

async function call(method: string, path: string, body?: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await request(emu.url, path, { method, key: KEY, body });
  assert.equal(r.status, 200, `${method} ${path}: ${r.text}`);
  return r.json;
}

describe('the replay of 1,000 recorded arrivals predicts the emulator\'s bill and waits', () => {
  const sent = new Map<string, Array<{ id: string; submittedAt: number }>>(ENDPOINTS.map((e) => [e.id, []]));

  before(async () => {
    let at = START;
    for (const submitMs of recordedArrivals(1000, 11)) {
      if (submitMs > at) await moveClock(emu.url, { advanceMs: submitMs - at });
      at = submitMs;
      for (const e of ENDPOINTS) sent.get(e.id)!.push({ id: (await call('POST', `/v2/${e.id}/run`, { input: {} })).id, submittedAt: submitMs });
    }
    await moveClock(emu.url, { advanceMs: 3_600_000 }); // every job and idle timeout over
  });

  for (const { id, settings } of ENDPOINTS) {
    test(`${settings.scalerType} ${settings.scalerValue}: cost within 2%, p95 wait within 10%`, async () => {
      const record: JobSample[] = [];
      for (const s of sent.get(id)!) {
        const j = await call('GET', `/v2/${id}/status/${s.id}`);
        assert.equal(j.status, 'COMPLETED');
        record.push({ endpointId: id, submittedAt: s.submittedAt, delayTime: j.delayTime, executionTime: j.executionTime });
      }
      const traffic = trafficOf(record, id, START - 1, START + 86_400_000, settings.idleTimeoutMs);
      assert.equal(traffic.arrivals.length, 1000);
      assert.equal(traffic.coldStartMs, COLD_START_MS, 'the cold start read from the record');
      const predicted = replay({ arrivals: traffic.arrivals, coldStartMs: traffic.coldStartMs, pricePerWorkerSecond: PRICE }, settings);
      const billed = (await call('GET', `/v2/billing/serverless?serverlessId=${id}&bucketSize=year&lastN=1`)).metadata.totals.totalAmount as number;
      const realP95 = percentile(record.map((j) => j.delayTime!).sort((a, b) => a - b), 0.95);
      const cost = predicted.costUsd / billed;
      const wait = predicted.waitP95Ms / realP95;
      assert.ok(Math.abs(cost - 1) <= 0.02, `replay $${predicted.costUsd.toFixed(4)} vs billed $${billed.toFixed(4)}: ${cost.toFixed(4)}x`);
      assert.ok(Math.abs(wait - 1) <= 0.10, `replay p95 ${predicted.waitP95Ms} ms vs ${realP95} ms: ${wait.toFixed(4)}x`);
    });
  }
});

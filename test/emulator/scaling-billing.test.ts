// Issue 29: the platform's autoscaler and bill, in virtual time (config clockFrozen: the clock moves only when
// the test moves it, so every expected second is exact). Each expected number names the doc behind it:
//   [Pricing]  docs.runpod.io/serverless/pricing: "billed from when a worker starts until it fully stops, rounded
//              up to the nearest second"; start time, execution time and idle timeout are all billed.
//   [Settings] docs.runpod.io/serverless/endpoints/endpoint-configurations: auto-scaling type (REQUEST_COUNT:
//              ceil((inQueue + inProgress) / N) workers; QUEUE_DELAY: a worker added once a request waited S s),
//              idle timeout, execution timeout, active (min) workers, FlashBoot.
//   [Ours]     what the docs leave open, chosen in docs/emulator.md "Scaling and billing": QUEUE_DELAY looks once a
//              second and adds one worker per look; a queue with no worker gets one at once; FlashBoot start 2 s
//              here (config), cached 10 minutes after a worker was up.
//   [Config]   the endpoint's own numbers in EP below (cold start, execution time): inputs, not rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { moveClock, request, startEmulator, type Emulator } from './harness';
import { config, KEYS } from './fixtures';
import { jobApi } from './runtimeFixtures';
import { estimateBatchCost } from '../../src/core/batch/costRange';

/** One round price: $0.001 per GPU-second, nothing else, so billed dollars / 0.001 is GPU-seconds. */
const PRICES = { gpuPerSecond: 0.001, cpuPerSecond: 0, diskPerSecond: 0, feePerSecond: 0 };
const base = { kind: 'echo', queueMs: 0, prices: PRICES };
const burst = { ...base, workersMax: 5, coldStartMs: 10_000, executionMs: 20_000, idleTimeoutMs: 5000 };
const EP = {
  rc: { id: 'sb-rc', ...burst, scalerType: 'REQUEST_COUNT', scalerValue: 1 },
  qd: { id: 'sb-qd', ...burst, scalerType: 'QUEUE_DELAY', scalerValue: 4 },
  idle: { id: 'sb-idle', ...base, workersMax: 1, coldStartMs: 3000, executionMs: 10_000, idleTimeoutMs: 7000 },
  round: { id: 'sb-round', ...base, workersMax: 1, coldStartMs: 1200, executionMs: 5000, idleTimeoutMs: 6000 },
  min: { id: 'sb-min', ...base, workersMin: 1, workersMax: 1, gpuCount: 2 },
  timeout: { id: 'sb-timeout', ...base, workersMax: 1, executionMs: 20_000, executionTimeoutMs: 6000, idleTimeoutMs: 5000 },
  batch: { id: 'sb-batch', ...base, workersMax: 2, coldStartMs: 3500, executionMs: 10_000, idleTimeoutMs: 5000 },
  flash: { id: 'sb-flash', ...base, workersMax: 1, coldStartMs: 20_000, executionMs: 1000, idleTimeoutMs: 5000, flashboot: true, flashbootColdStartMs: 2000 },
};

let emu: Emulator;
const api = jobApi(() => emu.url);
const advance = (ms: number) => moveClock(emu.url, { advanceMs: ms });
before(async () => { emu = await startEmulator({ ...config({ aliceEndpoints: Object.values(EP) }), clockFrozen: true }); });
after(async () => { await emu?.stop(); });

async function workers(ep: string) {
  const w = (await api.health(ep)).json.workers;
  return { initializing: w.initializing, running: w.running, idle: w.idle };
}
async function billedSeconds(ep: string): Promise<number> {
  const r = await request(emu.url, `/v2/billing/serverless?serverlessId=${ep}&bucketSize=year&lastN=1`, { key: KEYS.full });
  assert.equal(r.status, 200, r.text);
  return Math.round((r.json.metadata.totals.totalAmount as number) / PRICES.gpuPerSecond * 1000) / 1000;
}
async function lives(ep: string) {
  const r = await request(emu.url, `/__admin/worker-lives?endpointId=${ep}`);
  assert.equal(r.status, 200, r.text);
  return r.json.lives as Array<Record<string, number | string | boolean | null>>;
}
/** Worker counts at each of `times` (seconds after the burst), moving the clock between them. */
async function countsOver(ep: string, times: number[]) {
  const seen: Record<number, { initializing: number; running: number; idle: number }> = {};
  let at = 0;
  for (const t of times) {
    await advance((t - at) * 1000);
    at = t;
    seen[t] = await workers(ep);
  }
  return seen;
}

describe('a cold burst of 4 jobs (cold start 10 s, jobs 20 s, idle timeout 5 s, max 5)', () => {
  test('REQUEST_COUNT 1: ceil((inQueue + inProgress) / 1) = 4 workers at once [Settings]', async () => {
    for (let i = 0; i < 4; i++) await api.submit(EP.rc.id);
    const seen = await countsOver(EP.rc.id, [0, 9, 10, 29, 30, 34, 35]);
    assert.deepEqual(seen, {
      0: { initializing: 4, running: 0, idle: 0 }, // 4 requests in queue: 4 workers [Settings]
      9: { initializing: 4, running: 0, idle: 0 },
      10: { initializing: 0, running: 4, idle: 0 }, // after the 10 s cold start [Config]
      29: { initializing: 0, running: 4, idle: 0 },
      30: { initializing: 0, running: 0, idle: 4 }, // jobs of 20 s done [Config]
      34: { initializing: 0, running: 0, idle: 4 },
      35: { initializing: 0, running: 0, idle: 0 }, // idle timeout 5 s [Settings]
    });
    // [Pricing] each life: 10 s start + 20 s execution + 5 s idle = 35 s.
    assert.equal(await billedSeconds(EP.rc.id), 4 * 35);
  });

  test('QUEUE_DELAY 4 s: one worker at once, then one a second once requests waited 4 s: lazier, and cheaper here', async () => {
    for (let i = 0; i < 4; i++) await api.submit(EP.qd.id);
    const seen = await countsOver(EP.qd.id, [0, 3, 4, 5, 6, 7, 10, 14, 16, 30, 41]);
    assert.deepEqual(seen, {
      0: { initializing: 1, running: 0, idle: 0 }, // a queue with no worker gets one at once [Ours]
      3: { initializing: 1, running: 0, idle: 0 }, // nobody has waited 4 s yet [Settings]
      4: { initializing: 2, running: 0, idle: 0 }, // waited 4 s: one more per look [Settings] [Ours]
      5: { initializing: 3, running: 0, idle: 0 },
      6: { initializing: 4, running: 0, idle: 0 },
      7: { initializing: 4, running: 0, idle: 0 }, // a worker is coming for every waiting job: no more [Settings]
      10: { initializing: 3, running: 1, idle: 0 }, // workers started at 0, 4, 5, 6 s are up 10 s later [Config]
      14: { initializing: 2, running: 2, idle: 0 },
      16: { initializing: 0, running: 4, idle: 0 },
      30: { initializing: 0, running: 3, idle: 1 }, // the first job (10..30 s) done [Config]
      41: { initializing: 0, running: 0, idle: 0 }, // the last job ends at 36 s, its worker idles 5 s [Settings]
    });
    // [Pricing] every life is 10 + 20 + 5 s, whenever it started.
    assert.equal(await billedSeconds(EP.qd.id), 4 * 35);
  });
});

describe('the bill per worker life [Pricing]', () => {
  test("the idle timeout's seconds are billed: 3 s start + 10 s execution + 7 s idle = 20 s", async () => {
    await api.submit(EP.idle.id);
    await advance(13_000);
    assert.equal(await billedSeconds(EP.idle.id), 13, 'start and execution so far, billed as they pass');
    await advance(7000);
    assert.equal(await billedSeconds(EP.idle.id), 20, 'the idle timeout too, until the worker fully stops');
    const [life] = await lives(EP.idle.id);
    assert.deepEqual(
      [life!.startingSeconds, life!.executingSeconds, life!.idleSeconds, life!.billedSeconds, typeof life!.stoppedAt],
      [3, 10, 7, 20, 'string'],
    );
    await advance(60_000);
    assert.equal(await billedSeconds(EP.idle.id), 20, 'nothing after it stopped');
  });

  test('each life is rounded up to the second ("rounded up to the nearest second"): two lives of 12.2 s bill 26 s, not 24.4', async () => {
    for (let i = 0; i < 2; i++) {
      await api.submit(EP.round.id);
      await advance(1200 + 5000 + 6000); // start 1.2 s, execution 5 s, idle 6 s: then it stops
      await advance(800);
    }
    const ls = await lives(EP.round.id);
    assert.equal(ls.length, 2);
    for (const l of ls) assert.deepEqual([l.startingSeconds, l.executingSeconds, l.idleSeconds, l.roundUpSeconds, l.billedSeconds], [1.2, 5, 6, 0.8, 13]);
    assert.equal(await billedSeconds(EP.round.id), 26);
  });

  test('workers min are billed while they wait, with no traffic at all, once per GPU (2 GPUs) [Settings: active workers "always running"]', async () => {
    await advance(3_600_000);
    const ls = await lives(EP.min.id);
    assert.equal(ls.length, 1);
    assert.equal(ls[0]!.warm, true);
    assert.equal(ls[0]!.stoppedAt, null, 'a worker min never stops');
    assert.ok((ls[0]!.idleSeconds as number) >= 3600, `idle ${ls[0]!.idleSeconds} s`);
    // Every second since the emulator started, x 2 GPUs [Pricing: "each GPU"].
    assert.equal(await billedSeconds(EP.min.id), 2 * (ls[0]!.idleSeconds as number));
  });

  test('an execution timeout ends the job TIMED_OUT at 6 s; the worker is billed 6 s + its 5 s idle', async () => {
    const id = await api.submit(EP.timeout.id);
    await advance(6000);
    const s = (await api.status(EP.timeout.id, id)).json;
    // [Settings] execution timeout: a job running longer is ended (docs "Job states": TIMED_OUT) at the timeout.
    assert.equal(s.status, 'TIMED_OUT', JSON.stringify(s));
    assert.equal(s.executionTime, 6000);
    await advance(5000);
    // [Pricing] its execution until the timeout, then the idle timeout [Settings], billed to the worker.
    assert.equal(await billedSeconds(EP.timeout.id), 11);
  });

  test('FlashBoot: a repeated cold start takes 2 s instead of 20 s, and is billed as such', async () => {
    const a = await api.submit(EP.flash.id);
    await advance(20_000 + 1000 + 5000); // cold start, job, idle: the worker stops
    assert.equal((await api.status(EP.flash.id, a)).json.delayTime, 20_000, 'the first start is a full cold start [Config]');
    await advance(4000);
    const b = await api.submit(EP.flash.id);
    await advance(2000 + 1000 + 5000);
    // [Settings] FlashBoot: "faster cold starts via state retention"; how much faster and for how long is [Ours]:
    // flashbootColdStartMs 2 s here, the endpoint's state cached 10 minutes after a worker was up (4 s here).
    assert.equal((await api.status(EP.flash.id, b)).json.delayTime, 2000, 'the state was cached: a FlashBoot start');
    const ls = await lives(EP.flash.id);
    // [Pricing] each life's start is billed as it took: 20 + 1 + 5 s, then 2 + 1 + 5 s.
    assert.deepEqual(ls.map((l) => [l.flashboot, l.startingSeconds, l.billedSeconds]), [[false, 20, 26], [true, 2, 8]]);
    assert.equal(await billedSeconds(EP.flash.id), 34);
  });
});

describe("the batch cost range (src/core/batch/costRange.ts) holds this bill [Pricing]", () => {
  test('6 jobs of 10 s on 2 workers (cold start 3.5 s, idle 5 s): billed 2 x 39 s, inside the range 60..79 s', async () => {
    for (let i = 0; i < 6; i++) await api.submit(EP.batch.id);
    await advance(3500 + 30_000 + 5000);
    // [Pricing] each worker: 3.5 s start + 3 jobs x 10 s + 5 s idle = 38.5 s, rounded up to 39 s.
    assert.equal(await billedSeconds(EP.batch.id), 78);
    const durations = { executionMs: 10_000, executionSpreadMs: 0, queueMs: 0, queueSpreadMs: 0, samples: 6 };
    const range = estimateBatchCost({ jobs: 6, durations, price: { usdPerSecond: PRICES.gpuPerSecond, source: 'test' }, workers: 2, coldStartMs: 3500, idleTimeoutMs: 5000 })!;
    const billedUsd = 78 * PRICES.gpuPerSecond;
    assert.ok(range.lowUsd <= billedUsd + 1e-12 && billedUsd <= range.highUsd + 1e-12, `billed ${billedUsd} in ${range.lowUsd}..${range.highUsd}`);
  });
});

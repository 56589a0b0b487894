// Issue 21 fidelity, on simulated workers: how long a /runsync result is kept (docs "Send API requests":
// "available for 1 minute by default"), a held /status-sync or /runsync answering as soon as its job ends in any
// way (cancel, purge), and billing that adds up: the billing route's total rises by exactly the billed seconds
// (cold start + execution + idle, per worker life, issue 29) times the endpoint's per-second prices.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from './harness';
import { assertProblem } from './assertions';
import { KEYS } from './fixtures';
import { BILLED_PRICES, RT, useRuntimeEmulator } from './runtimeFixtures';

const rt = useRuntimeEmulator();
const api = rt.api;
const advance = rt.advance;

async function billedTotal(endpoint: string): Promise<number> {
  const r = await request(rt.url(), `/v2/billing/serverless?serverlessId=${endpoint}&bucketSize=hour&lastN=1`, { key: KEYS.full });
  assert.equal(r.status, 200, r.text);
  return r.json.metadata.totals.totalAmount as number;
}

/** POST /runsync, answered once the clock has been moved past the job's end. */
async function runsync(endpoint: string, input: Record<string, unknown>) {
  const pending = api.call('POST', `/v2/${endpoint}/runsync?wait=60000`, { input });
  await sleep(200);
  await advance(5000);
  return pending;
}

describe('/runsync results are kept 1 minute, /run results 30 minutes', () => {
  test('a /runsync result reads at 59 s after it finished and is a 404 problem at 61 s; a /run result still reads', async () => {
    const r = await runsync(RT.keepSync, { n: 1 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'COMPLETED');
    const viaRun = await api.submit(RT.keepSync, { n: 2 });
    await advance(5000); // the /run job ends too (3 s after it was queued); the sync job ended 3 s after submit
    assert.equal((await api.status(RT.keepSync, viaRun)).json.status, 'COMPLETED');
    await advance(51_000); // 59 s after the sync job's end (it ended 3 s into the 5 s move above)
    assert.equal((await api.status(RT.keepSync, r.json.id)).json.status, 'COMPLETED');
    await advance(2000);
    assertProblem(await api.status(RT.keepSync, r.json.id), 404);
    assert.equal((await api.status(RT.keepSync, viaRun)).json.status, 'COMPLETED', 'a /run result is kept 30 minutes');
    await advance(30 * 60_000);
    assertProblem(await api.status(RT.keepSync, viaRun), 404);
  });

  test('/retry of a /runsync job past its minute is a 404 problem too', async () => {
    const r = await runsync(RT.keepSyncFail, {});
    assert.equal(r.json.status, 'FAILED', r.text);
    await advance(61_000);
    assertProblem(await api.retry(RT.keepSyncFail, r.json.id), 404);
  });
});

describe('a held wait ends when the job does', () => {
  test('/status-sync?wait=10000 held on a running job answers CANCELLED as soon as the job is cancelled', async () => {
    const id = await api.submit(RT.heldEnd);
    await advance(2000);
    const t0 = Date.now();
    const pending = api.statusSync(RT.heldEnd, id, 10_000);
    await sleep(300);
    assert.equal((await api.cancel(RT.heldEnd, id)).json.status, 'CANCELLED');
    const r = await pending;
    assert.equal(r.json.status, 'CANCELLED', r.text);
    assert.ok(Date.now() - t0 < 3000, `answered ${Date.now() - t0} ms after it was asked (the wait was 10 s)`);
  });

  test('/runsync?wait=10000 on a queued job answers CANCELLED as soon as the queue is purged', async () => {
    const t0 = Date.now();
    const pending = api.call('POST', `/v2/${RT.heldPurge}/runsync?wait=10000`, { input: {} });
    await sleep(300);
    assert.equal((await api.purge(RT.heldPurge)).json.removed, 1);
    const r = await pending;
    assert.equal(r.json.status, 'CANCELLED', r.text);
    assert.ok(Date.now() - t0 < 900, `answered ${Date.now() - t0} ms after it was asked (the wait was 10 s; the job's hand-off, the next event, was 1 s away)`);
  });
});

describe('billing adds up: the worker life (cold start, execution, idle) at the endpoint price', () => {
  test("two 10 s jobs on one worker with a 5 s cold start and a 60 s idle timeout add exactly 85 s x the endpoint's prices", async () => {
    const before0 = await billedTotal(RT.billed);
    const a = await api.submit(RT.billed, { n: 'a' });
    const b = await api.submit(RT.billed, { n: 'b' });
    await advance(40_000); // cold start 5 s, then a from 5 s to 15 s, b from 15 s to 25 s, idle since
    const sa = (await api.status(RT.billed, a)).json;
    const sb = (await api.status(RT.billed, b)).json;
    assert.equal(sa.status, 'COMPLETED');
    assert.equal(sb.status, 'COMPLETED');
    assert.equal(sa.executionTime + sb.executionTime, 20_000);
    const perSecond = BILLED_PRICES.gpuPerSecond + BILLED_PRICES.cpuPerSecond + BILLED_PRICES.diskPerSecond + BILLED_PRICES.feePerSecond;
    const soFar = (await billedTotal(RT.billed)) - before0;
    assert.ok(soFar >= 40 * perSecond - 1e-9 && soFar < 41 * perSecond, `billed so far ${soFar}: the 40 s the worker has lived, idle included`);
    await advance(60_000); // the idle timeout ends the life at 25 s + 60 s
    const billed = (await billedTotal(RT.billed)) - before0;
    // Issue 29 (docs "Pricing"): from start to full stop, rounded up to the second: 5 + 20 + 60 = 85 s.
    const expected = (5 + 10 + 10 + 60) * perSecond;
    assert.ok(Math.abs(billed - expected) < 1e-9, `billed ${billed}, expected (5 s cold start + 20 s of jobs + 60 s idle) x ${perSecond} = ${expected}`);
  });
});

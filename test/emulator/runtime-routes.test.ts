// Issue 9 job routes, with the shapes of the docs' "Operation reference" and runpod-sdk's types:
// POST /cancel/<job>, POST /retry/<job>, POST /purge-queue, GET /health, GET /status-sync/<job>?wait=,
// GET /status/<job>?ttl=, policy.executionTimeout and policy.ttl (TIMED_OUT), and billing of cancelled jobs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from './harness';
import { assertBadParams, assertProblem } from './assertions';
import { KEYS } from './fixtures';
import { RT, useRuntimeEmulator } from './runtimeFixtures';

const rt = useRuntimeEmulator();
const api = rt.api;

const advance = rt.advance;
const state = async (ep: string, id: string) => (await api.status(ep, id)).json;

async function billedTotal(endpoint: string): Promise<number> {
  const r = await request(rt.url(), `/v2/billing/serverless?serverlessId=${endpoint}&bucketSize=year&lastN=1`, { key: KEYS.full });
  assert.equal(r.status, 200, r.text);
  return r.json.metadata.totals.totalAmount as number;
}

describe('/cancel', () => {
  test('a queued job becomes CANCELLED at once, is never run, and costs nothing', async () => {
    const running = await api.submit(RT.cancel, { n: 1 });
    const queued = await api.submit(RT.cancel, { n: 2 });
    const r = await api.cancel(RT.cancel, queued);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.json).sort(), ['delayTime', 'executionTime', 'id', 'status']);
    assert.equal(r.json.id, queued);
    assert.equal(r.json.status, 'CANCELLED');
    assert.equal(r.json.executionTime, 0);
    await advance(30_000);
    assert.equal((await state(RT.cancel, queued)).status, 'CANCELLED', 'CANCELLED is terminal: the worker never took it');
    assert.equal((await state(RT.cancel, running)).status, 'COMPLETED');
  });

  test('a running job becomes CANCELLED after the time it ran, its worker billed for it, and the worker takes the next job', async () => {
    await advance(60_000);
    const before0 = await billedTotal(RT.cancel);
    const a = await api.submit(RT.cancel, { n: 'a' });
    const b = await api.submit(RT.cancel, { n: 'b' });
    await advance(4000); // a runs from 1 s
    assert.equal((await state(RT.cancel, a)).status, 'IN_PROGRESS');
    const r = await api.cancel(RT.cancel, a);
    assert.equal(r.json.status, 'CANCELLED');
    assert.ok(r.json.executionTime >= 3000 && r.json.executionTime < 3500, `ran about 3 s: ${r.json.executionTime}`);
    const s = await state(RT.cancel, a);
    assert.equal(s.status, 'CANCELLED');
    assert.equal(s.executionTime, r.json.executionTime);
    assert.equal(typeof s.workerId, 'string');
    assert.equal(s.output, undefined);
    // Issue 29: the worker is billed, not the job (docs "Pricing"): its time so far, at least the 3 s it ran a.
    const billed = (await billedTotal(RT.cancel)) - before0;
    const perSecond = 0.00031; // no prices set: the default pool's (ADA_24) catalog price, in all (billing/workerPrices.ts)
    assert.ok(billed >= (r.json.executionTime / 1000) * perSecond - 1e-12, `billed ${billed} for ${r.json.executionTime} ms`);
    assert.equal((await state(RT.cancel, b)).status, 'IN_PROGRESS', 'the freed worker took the queued job at once');
  });

  test('cancelling a finished job leaves it as it is', async () => {
    const id = await api.submit(RT.cancel);
    await advance(40_000);
    const r = await api.cancel(RT.cancel, id);
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'COMPLETED');
    assert.equal((await state(RT.cancel, id)).status, 'COMPLETED');
  });
});

describe('/retry', () => {
  test('a FAILED job is queued again under the same id, runs again, and health counts the retry', async () => {
    const id = await api.submit(RT.retry, { prompt: 'x' });
    await advance(3000);
    assert.equal((await state(RT.retry, id)).status, 'FAILED');
    const r = await api.retry(RT.retry, id);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { id, status: 'IN_QUEUE' });
    assert.equal((await state(RT.retry, id)).status, 'IN_QUEUE', 'the previous result is gone');
    await advance(1000);
    assert.equal((await state(RT.retry, id)).status, 'IN_PROGRESS');
    await advance(2000);
    assert.equal((await state(RT.retry, id)).status, 'FAILED', 'the endpoint still fails');
    const h = (await api.health(RT.retry)).json;
    assert.equal(h.jobs.retried, 1);
    assert.equal(h.jobs.failed, 1);
  });

  test('a TIMED_OUT job can be retried too', async () => {
    const id = await api.submit(RT.retryTimeout);
    await advance(8000);
    assert.equal((await state(RT.retryTimeout, id)).status, 'TIMED_OUT');
    assert.equal((await api.retry(RT.retryTimeout, id)).json.status, 'IN_QUEUE');
  });

  test('a COMPLETED, queued or cancelled job cannot be retried: 400 naming its state', async () => {
    const done = await api.submit(RT.echo);
    await advance(12_000);
    const p = assertProblem(await api.retry(RT.echo, done), 400);
    assert.match(p.detail, /COMPLETED/);
    const queued = await api.submit(RT.echo);
    assert.match(assertProblem(await api.retry(RT.echo, queued), 400).detail, /IN_QUEUE/);
    await api.cancel(RT.echo, queued);
    assert.match(assertProblem(await api.retry(RT.echo, queued), 400).detail, /CANCELLED/);
  });

  test('an expired or unknown job is 404', async () => {
    assertProblem(await api.retry(RT.retry, 'no-such-job'), 404);
    const id = await api.submit(RT.retry, { prompt: 'x' });
    await advance(3000 + 31 * 60_000);
    assertProblem(await api.retry(RT.retry, id), 404);
  });
});

describe('/purge-queue and /health', () => {
  test('purge removes only queued jobs (they end CANCELLED) and says how many; the running one goes on', async () => {
    const running = await api.submit(RT.purge);
    await advance(2000);
    const queued = [await api.submit(RT.purge), await api.submit(RT.purge), await api.submit(RT.purge)];
    const r = await api.purge(RT.purge);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { removed: 3, status: 'completed' });
    for (const id of queued) assert.equal((await state(RT.purge, id)).status, 'CANCELLED');
    assert.equal((await state(RT.purge, running)).status, 'IN_PROGRESS');
    await advance(10_000);
    assert.equal((await state(RT.purge, running)).status, 'COMPLETED');
  });

  test('health has the documented jobs counts and the workers by status, and they move as jobs run', async () => {
    const h0 = (await api.health(RT.health)).json;
    assert.deepEqual(h0, {
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
      workers: { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 },
    });
    await api.submit(RT.health);
    await api.submit(RT.health);
    const h1 = (await api.health(RT.health)).json;
    assert.equal(h1.jobs.inQueue, 2);
    assert.equal(h1.workers.idle, 1, 'the worker started for the burst is up (no cold start), waiting for the hand-off');
    await advance(1000);
    const h2 = (await api.health(RT.health)).json;
    assert.deepEqual([h2.jobs.inQueue, h2.jobs.inProgress, h2.workers.running, h2.workers.ready], [1, 1, 1, 1]);
    await advance(20_000);
    const h3 = (await api.health(RT.health)).json;
    assert.deepEqual([h3.jobs.completed, h3.jobs.inQueue, h3.jobs.inProgress, h3.workers.idle], [2, 0, 0, 1]);
  });
});

describe('/status-sync', () => {
  test('held until the job ends: a clock jump answers it at once with the finished job', async () => {
    const id = await api.submit(RT.sync, { x: 1 });
    const pending = api.statusSync(RT.sync, id, 60_000);
    let settled = false;
    void pending.finally(() => { settled = true; });
    await sleep(300);
    assert.equal(settled, false, 'held while the job runs');
    for (let i = 0; i < 50 && !settled; i++) {
      await advance(5000);
      await sleep(100);
    }
    const r = await pending;
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'COMPLETED');
    assert.deepEqual(r.json.output, { x: 1 });
  });

  test('after ?wait=1000 of real time it answers with the current state', async () => {
    const id = await api.submit(RT.sync);
    const t0 = Date.now();
    const r = await api.statusSync(RT.sync, id, 1000);
    assert.ok(Date.now() - t0 >= 900, 'it waited');
    assert.equal(r.status, 200);
    assert.ok(['IN_QUEUE', 'IN_PROGRESS'].includes(r.json.status), r.text);
  });

  test('a finished job is answered at once; bad wait values and unknown parameters are 400 naming them', async () => {
    const id = await api.submit(RT.sync);
    await advance(12_000);
    const t0 = Date.now();
    assert.equal((await api.statusSync(RT.sync, id)).json.status, 'COMPLETED');
    assert.ok(Date.now() - t0 < 900);
    for (const q of ['wait=999', 'wait=300001', 'wait=x', 'colour=red']) {
      assertBadParams(await api.call('GET', `/v2/${RT.sync}/status-sync/${id}?${q}`), q.split('=')[0]!);
    }
    assertProblem(await api.statusSync(RT.sync, 'no-such-job'), 404);
  });
});

describe('?ttl= on /status', () => {
  test('shortens how long a finished result is kept (it never extends it)', async () => {
    const id = await api.submit(RT.echo);
    await advance(12_000);
    assert.equal((await api.status(RT.echo, id, '?ttl=6000')).json.status, 'COMPLETED');
    await advance(7000);
    assertProblem(await api.status(RT.echo, id), 404);
    const other = await api.submit(RT.echo);
    await advance(12_000);
    await api.status(RT.echo, other, '?ttl=604800000');
    await advance(31 * 60_000);
    assertProblem(await api.status(RT.echo, other), 404);
  });

  test('bad ttl values are 400 naming ttl', async () => {
    const id = await api.submit(RT.echo);
    for (const v of ['999', 'abc', '604800001']) assertBadParams(await api.status(RT.echo, id, `?ttl=${v}`), 'ttl');
  });
});

describe('policy: executionTimeout and ttl end jobs TIMED_OUT', () => {
  test("the endpoint's executionTimeoutMs ends an overrunning job TIMED_OUT, billed for the time it ran", async () => {
    const id = await api.submit(RT.timeout);
    await advance(8000);
    const s = await state(RT.timeout, id);
    assert.equal(s.status, 'TIMED_OUT', JSON.stringify(s));
    assert.equal(s.executionTime, 6000);
    assert.match(s.error, /execution timeout/);
  });

  test('policy.executionTimeout overrides the endpoint setting for that job', async () => {
    const longer = await api.submit(RT.timeout, {}, { policy: { executionTimeout: 20_000 } });
    const shorter = await api.submit(RT.echo, {}, { policy: { executionTimeout: 5001 } });
    await advance(12_000);
    assert.equal((await state(RT.timeout, longer)).status, 'COMPLETED');
    const s = await state(RT.echo, shorter);
    assert.equal(s.status, 'TIMED_OUT');
    assert.equal(s.executionTime, 5001);
  });

  test('policy.ttl expires a job that waited too long in the queue: TIMED_OUT, never run', async () => {
    await api.submit(RT.ttl); // holds the only worker for 10 s
    const waiting = await api.submit(RT.ttl, {}, { policy: { ttl: 10_000 } });
    await advance(10_500);
    const s = await state(RT.ttl, waiting);
    assert.equal(s.status, 'TIMED_OUT', JSON.stringify(s));
    assert.equal(s.executionTime, 0);
    assert.equal(s.workerId, undefined);
    assert.match(s.error, /TTL/);
  });
});

// Issue 9 "Workers and a real queue per endpoint": workersMin/workersMax, cold start (initializing), idle
// timeout, one FIFO queue per endpoint, delayTime as the real wait, low-priority jobs last and never scaling,
// the queue-size 429 of the docs' rate-limit section; all on the emulator clock (docs/emulator.md, "Workers, queue and
// runtime routes").
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem } from './assertions';
import { RT, useRuntimeEmulator } from './runtimeFixtures';

const rt = useRuntimeEmulator();
const api = rt.api;

const advance = rt.advance;
const workers = async (ep: string) => (await api.health(ep)).json.workers;
const state = async (ep: string, id: string) => (await api.status(ep, id)).json;

/** Within `slack` ms below `expected`: jobs submitted one request apart differ by that much real time. */
function about(actual: number, expected: number, what: string, slack = 500): void {
  assert.ok(actual <= expected && actual >= expected - slack, `${what}: ${actual}, expected ${expected} (up to ${slack} ms less)`);
}

describe('workers scale up with a cold start, and a burst larger than workersMax queues', () => {
  test('3 jobs on 2 workers (cold start 5 s, jobs 10 s): two start after the cold start, the third when a worker frees', async () => {
    const ids = [await api.submit(RT.burst), await api.submit(RT.burst), await api.submit(RT.burst)];
    const w0 = await workers(RT.burst);
    assert.equal(w0.initializing, 2, `two workers start, no more than workersMax: ${JSON.stringify(w0)}`);
    assert.equal(w0.running + w0.idle, 0);
    assert.equal((await state(RT.burst, ids[0]!)).status, 'IN_QUEUE', 'queued while its worker initializes (hand-off is only 1 s)');

    await advance(5000);
    const w1 = await workers(RT.burst);
    assert.equal(w1.running, 2, JSON.stringify(w1));
    assert.equal(w1.initializing, 0);
    assert.equal((await state(RT.burst, ids[0]!)).status, 'IN_PROGRESS');
    assert.equal((await state(RT.burst, ids[1]!)).status, 'IN_PROGRESS');
    assert.equal((await state(RT.burst, ids[2]!)).status, 'IN_QUEUE', 'the third waits: workersMax is 2');
    const h = (await api.health(RT.burst)).json;
    assert.equal(h.jobs.inQueue, 1);
    assert.equal(h.jobs.inProgress, 2);

    await advance(10_000);
    const first = await state(RT.burst, ids[0]!);
    assert.equal(first.status, 'COMPLETED');
    assert.equal(first.delayTime, 5000, 'delayTime is the real wait: the cold start');
    assert.equal(first.executionTime, 10_000);
    assert.equal((await state(RT.burst, ids[2]!)).status, 'IN_PROGRESS', 'taken by the first worker that freed');

    await advance(10_000);
    const third = await state(RT.burst, ids[2]!);
    assert.equal(third.status, 'COMPLETED');
    about(third.delayTime, 15_000, 'the third waited for the cold start and a whole job');
    assert.equal(third.workerId, first.workerId, 'it ran on the worker the first job freed');
  });
});

describe('idle timeout', () => {
  test('workers stop idleTimeoutMs after their last job, and the next job pays the cold start again', async () => {
    const a = await api.submit(RT.idle);
    await advance(15_000);
    const done = await state(RT.idle, a);
    assert.equal(done.status, 'COMPLETED');
    assert.equal((await workers(RT.idle)).idle, 1, 'idle after its job');
    await advance(19_000);
    assert.equal((await workers(RT.idle)).idle, 1, 'still there before the idle timeout');
    const b = await api.submit(RT.idle);
    await advance(2000);
    const reused = await state(RT.idle, b);
    assert.equal(reused.status, 'IN_PROGRESS');
    assert.equal(reused.delayTime, 1000, 'a warm worker: only the hand-off');
    await advance(10_000 + 20_000 + 1000);
    assert.deepEqual(await workers(RT.idle), { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 }, 'scaled to zero');
    const c = await api.submit(RT.idle);
    await advance(16_000);
    const cold = await state(RT.idle, c);
    assert.equal(cold.status, 'COMPLETED');
    assert.equal(cold.delayTime, 5000, 'a new worker: the cold start again');
    assert.notEqual(cold.workerId, done.workerId, 'a new worker has a new id');
  });

  test('workersMin keeps a warm worker from the start, which never idles out', async () => {
    const w = await workers(RT.warm);
    assert.equal(w.idle, 1, JSON.stringify(w));
    await advance(3_600_000);
    assert.equal((await workers(RT.warm)).idle, 1, 'an active worker stays');
    const id = await api.submit(RT.warm);
    await advance(11_000);
    const r = await state(RT.warm, id);
    assert.equal(r.status, 'COMPLETED');
    assert.equal(r.delayTime, 1000, 'no cold start on an active worker');
  });
});

describe('queue order', () => {
  test('jobs of one endpoint run first in, first out', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await api.submit(RT.fifo, { i }));
    const finished: string[] = [];
    for (let step = 0; step < 5; step++) {
      await advance(10_000);
      for (const id of ids) if (!finished.includes(id) && (await state(RT.fifo, id)).status === 'COMPLETED') finished.push(id);
    }
    assert.deepEqual(finished, ids);
  });

  test('a low-priority job waits behind normal jobs queued after it', async () => {
    const busy = await api.submit(RT.lowPriority, { n: 'busy' });
    await advance(2000);
    assert.equal((await state(RT.lowPriority, busy)).status, 'IN_PROGRESS');
    const low = await api.submit(RT.lowPriority, { n: 'low' }, { policy: { lowPriority: true } });
    const normal = await api.submit(RT.lowPriority, { n: 'normal' });
    await advance(10_000);
    assert.equal((await state(RT.lowPriority, normal)).status, 'IN_PROGRESS', 'the normal job goes first');
    assert.equal((await state(RT.lowPriority, low)).status, 'IN_QUEUE');
    await advance(10_000);
    assert.equal((await state(RT.lowPriority, low)).status, 'IN_PROGRESS', 'then the low-priority one');
  });

  test('a low-priority job never starts a worker: alone on a scaled-down endpoint it waits until its TTL', async () => {
    await advance(60_000); // let earlier jobs and workers of this endpoint go
    const low = await api.submit(RT.lowPriority, {}, { policy: { lowPriority: true, ttl: 30_000 } });
    await advance(20_000);
    assert.equal((await state(RT.lowPriority, low)).status, 'IN_QUEUE');
    assert.equal((await workers(RT.lowPriority)).initializing + (await workers(RT.lowPriority)).idle + (await workers(RT.lowPriority)).running, 0);
    await advance(11_000);
    assert.equal((await state(RT.lowPriority, low)).status, 'TIMED_OUT');
  });
});

describe('the queue-size limit', () => {
  test('with workersMax 0 the queue takes 51 jobs, then /run and /runsync are 429 with Retry-After', async () => {
    for (let i = 0; i < 51; i++) await api.submit(RT.closed, { i });
    const r = await api.call('POST', `/v2/${RT.closed}/run`, { input: {} });
    const p = assertProblem(r, 429);
    assert.match(p.detail, /queue/);
    assert.ok(Number(r.headers['retry-after']) > 0);
    assertProblem(await api.call('POST', `/v2/${RT.closed}/runsync`, { input: {} }), 429);
    assert.equal((await api.purge(RT.closed)).json.removed, 51);
    assert.equal((await api.call('POST', `/v2/${RT.closed}/run`, { input: {} })).status, 200, 'room again once purged');
  });
});

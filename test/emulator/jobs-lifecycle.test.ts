// SPEC 2.7, 3, 4.2-4.4, 8 rule 6 and issue #3 "Jobs": a job's life. IN_QUEUE for queueMs, IN_PROGRESS (echoing
// its input) for executionMs, then COMPLETED with delayTime/executionTime/workerId/output, or FAILED with an
// error; /runsync waits for that (or answers a sync- job still running); finished jobs stay readable for
// retentionMinutes from when they finished; and what they cost shows up in billing. Time is moved with the
// admin clock, never slept away: the endpoints here take 10 s to 2 h of emulator time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { client, moveClock, request, startEmulator, type Emulator } from './harness';
import { assertBadParams, assertProblem } from './assertions';
import { config, ENDPOINTS, KEYS } from './fixtures';

let emu: Emulator;
let api: ReturnType<typeof client>;
before(async () => {
  emu = await startEmulator(config());
  api = client(emu.url, KEYS.full);
});
after(async () => { await emu?.stop(); });

const status = (endpoint: string, id: string) => api.get(`/v2/${endpoint}/status/${encodeURIComponent(id)}`);

async function submit(endpoint: string, input: Record<string, unknown>): Promise<string> {
  const r = await api.post(`/v2/${endpoint}/run`, { input });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.status, 'IN_QUEUE');
  return r.json.id;
}

describe('IN_QUEUE -> IN_PROGRESS -> COMPLETED (ep1: queue 10 s, run 30 s)', () => {
  test('each state in turn, with the fields the spec puts on each', async () => {
    const input = { prompt: 'a lighthouse at dusk', width: 32, height: 16, seed: 3 };
    const id = await submit(ENDPOINTS.image, input);

    const queued = await status(ENDPOINTS.image, id);
    assert.equal(queued.status, 200, queued.text);
    assert.equal(queued.json.id, id);
    assert.equal(queued.json.status, 'IN_QUEUE');
    assert.equal(queued.json.output, undefined);

    await moveClock(emu.url, { advanceMs: 10_000 });
    const running = await status(ENDPOINTS.image, id);
    assert.equal(running.json.status, 'IN_PROGRESS', running.text);
    assert.deepEqual(running.json.input, input, 'IN_PROGRESS echoes the input');
    assert.equal(running.json.output, undefined);

    await moveClock(emu.url, { advanceMs: 30_000 });
    const done = await status(ENDPOINTS.image, id);
    assert.equal(done.json.status, 'COMPLETED', done.text);
    assert.equal(done.json.id, id);
    assert.equal(done.json.delayTime, 10_000, 'delayTime is the time spent in the queue');
    assert.equal(done.json.executionTime, 30_000, 'executionTime is the time spent running');
    assert.equal(typeof done.json.workerId, 'string');
    assert.ok(done.json.workerId.length > 0);
    assert.ok(Array.isArray(done.json.output) && done.json.output.length === 1, done.text.slice(0, 300));
  });

  test('a completed job stays completed, with the same output, when read again', async () => {
    const id = await submit(ENDPOINTS.image, { prompt: 'x', width: 8, height: 8 });
    await moveClock(emu.url, { advanceMs: 40_000 });
    const a = await status(ENDPOINTS.image, id);
    await moveClock(emu.url, { advanceMs: 60_000 });
    const b = await status(ENDPOINTS.image, id);
    assert.equal(a.json.status, 'COMPLETED');
    assert.deepEqual(b.json, a.json);
  });
});

describe('FAILED', () => {
  test('an endpoint with `fail` ends FAILED with that message as `error`, and no output', async () => {
    const id = await submit(ENDPOINTS.failing, { prompt: 'x' });
    await moveClock(emu.url, { advanceMs: 3_000 });
    const r = await status(ENDPOINTS.failing, id);
    assert.equal(r.json.status, 'FAILED', r.text);
    assert.equal(typeof r.json.error, 'string');
    assert.match(r.json.error, /CUDA out of memory/);
    assert.equal(r.json.output, undefined);
    await moveClock(emu.url, { advanceMs: 60_000 });
    assert.equal((await status(ENDPOINTS.failing, id)).json.status, 'FAILED', 'FAILED is terminal');
  });

  test('/runsync on a failing endpoint returns the FAILED job', async () => {
    const r = await api.post(`/v2/${ENDPOINTS.failing}/runsync`, { input: {} });
    // Three seconds of real time at most; the clock may also be nudged by other tests, which only helps.
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'FAILED');
    assert.match(r.json.error, /CUDA out of memory/);
  });
});

describe('/runsync', () => {
  test('waits for the end and returns the whole job, with a sync- id', async () => {
    const input = { text: 'hello', n: [1, 2, 3] };
    const r = await api.post(`/v2/${ENDPOINTS.echo}/runsync`, { input });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'COMPLETED');
    assert.match(r.json.id, /^sync-/);
    assert.deepEqual(r.json.output, input);
    assert.equal(typeof r.json.delayTime, 'number');
    assert.equal(typeof r.json.executionTime, 'number');
    assert.equal(typeof r.json.workerId, 'string');
    // ...and it is readable through /status like any job.
    const again = await status(ENDPOINTS.echo, r.json.id);
    assert.equal(again.json.status, 'COMPLETED');
    assert.deepEqual(again.json.output, input);
  });

  test('a job finished by a clock jump while /runsync waits is returned at once', async () => {
    const pending = api.post(`/v2/${ENDPOINTS.image}/runsync?wait=120000`, { input: { prompt: 'clock', width: 8, height: 8 } });
    let settled = false;
    void pending.finally(() => { settled = true; });
    // The job needs 40 s of emulator time; push the clock until the answer comes (bounded, not a fixed sleep).
    for (let i = 0; i < 100 && !settled; i++) {
      await moveClock(emu.url, { advanceMs: 20_000 });
      await sleep(200);
    }
    const r = await pending;
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'COMPLETED');
    assert.match(r.json.id, /^sync-/);
  });

  test('with ?wait=1000 a job that is not done comes back with its current status, and /status finishes it', async () => {
    const r = await api.post(`/v2/${ENDPOINTS.slow}/runsync?wait=1000`, { input: { prompt: 'slow', width: 8, height: 8 } });
    assert.equal(r.status, 200, r.text);
    assert.ok(['IN_QUEUE', 'IN_PROGRESS'].includes(r.json.status), r.text);
    assert.match(r.json.id, /^sync-/);
    const queued = await status(ENDPOINTS.slow, r.json.id);
    assert.equal(queued.json.status, 'IN_QUEUE');
    await moveClock(emu.url, { advanceMs: 2 * 3_600_000 });
    const done = await status(ENDPOINTS.slow, r.json.id);
    assert.equal(done.json.status, 'COMPLETED', done.text.slice(0, 300));
    assert.equal(done.json.delayTime, 3_600_000);
    assert.equal(done.json.executionTime, 3_600_000);
  });

  for (const wait of ['999', '300001', 'abc', '-5', '1.5']) {
    test(`?wait=${wait} is 400 naming wait`, async () => {
      const p = assertProblem(await api.post(`/v2/${ENDPOINTS.echo}/runsync?wait=${wait}`, { input: {} }), 400);
      assert.ok(p.errors?.some((e) => e.includes('wait')) || p.detail.includes('wait'), JSON.stringify(p));
    });
  }

  test('each bad query parameter of a job route is named in one 400: unknown ones, a repeated wait, wait on /run', async () => {
    assertBadParams(await api.post(`/v2/${ENDPOINTS.echo}/runsync?wait=5000&wait=6000`, { input: {} }), 'wait');
    assertBadParams(await api.post(`/v2/${ENDPOINTS.echo}/runsync?colour=blue&wait=1`, { input: {} }), 'colour', 'wait');
    assertBadParams(await api.post(`/v2/${ENDPOINTS.echo}/run?wait=5000`, { input: {} }), 'wait');
    const id = await submit(ENDPOINTS.echo, { q: 1 });
    assertBadParams(await api.get(`/v2/${ENDPOINTS.echo}/status/${encodeURIComponent(id)}?verbose=1`), 'verbose');
  });

  test('?wait=1000 and ?wait=300000 are accepted', async () => {
    for (const wait of ['1000', '300000']) {
      const r = await api.post(`/v2/${ENDPOINTS.echo}/runsync?wait=${wait}`, { input: { w: wait } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status, 'COMPLETED');
    }
  });
});

describe('/status', () => {
  test('an unknown job id is 404 problem+json', async () => {
    assertProblem(await status(ENDPOINTS.echo, 'no-such-job'), 404);
  });

  test("a job id read through another of the user's endpoints is 404", async () => {
    const id = await submit(ENDPOINTS.echo, {});
    assert.equal((await status(ENDPOINTS.echo, id)).status, 200);
    assertProblem(await status(ENDPOINTS.image, id), 404);
  });
});

describe('retention: retentionMinutes (30) from when the job finished (SPEC 8 rule 6)', () => {
  test('readable 29:40 after it finished, 404 at 30:05, counted from the finish and not the submit', async () => {
    // ep1 takes 40 s: counting from the submit would already expire it at 29:40 after the finish.
    const id = await submit(ENDPOINTS.image, { prompt: 'kept', width: 8, height: 8 });
    await moveClock(emu.url, { advanceMs: 40_000 });
    assert.equal((await status(ENDPOINTS.image, id)).json.status, 'COMPLETED');
    await moveClock(emu.url, { advanceMs: 30 * 60_000 - 20_000 });
    const kept = await status(ENDPOINTS.image, id);
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.json.status, 'COMPLETED');
    await moveClock(emu.url, { advanceMs: 25_000 });
    assertProblem(await status(ENDPOINTS.image, id), 404);
  });

  test('a failed job expires the same way', async () => {
    const id = await submit(ENDPOINTS.failing, {});
    await moveClock(emu.url, { advanceMs: 3_000 });
    assert.equal((await status(ENDPOINTS.failing, id)).json.status, 'FAILED');
    await moveClock(emu.url, { advanceMs: 30 * 60_000 + 5_000 });
    assertProblem(await status(ENDPOINTS.failing, id), 404);
  });

  test('a job still queued does not expire, however long it waits', async () => {
    const id = await submit(ENDPOINTS.slow, {});
    await moveClock(emu.url, { advanceMs: 50 * 60_000 });
    assert.equal((await status(ENDPOINTS.slow, id)).json.status, 'IN_QUEUE');
  });
});

describe('finished jobs are billed (issue #3: billing reflects the jobs run against the emulator)', () => {
  async function ep1Totals() {
    const r = await request(emu.url, `/v2/billing/serverless?serverlessId=${ENDPOINTS.image}&bucketSize=year&lastN=1`, { key: KEYS.full });
    assert.equal(r.status, 200, r.text);
    return r.json.metadata.totals;
  }

  // Issue 29 (docs "Pricing"): the worker is billed from its start to its full stop, as its time passes.
  test("a job's worker is billed as it runs and idles, and the same job costs the same again", async () => {
    // Let any ep1 job of earlier tests finish, and its worker stop, first.
    await moveClock(emu.url, { advanceMs: 60_000 });
    const perSecond = 0.00031; // no prices set: the default pool's (ADA_24) catalog price, in all (billing/workerPrices.ts)
    const before0 = await ep1Totals();
    const id = await submit(ENDPOINTS.image, { prompt: 'billed', width: 8, height: 8 });
    await moveClock(emu.url, { advanceMs: 15_000 });
    assert.equal((await status(ENDPOINTS.image, id)).json.status, 'IN_PROGRESS');
    const running = (await ep1Totals()).totalAmount - before0.totalAmount;
    assert.ok(running >= 15 * perSecond - 1e-9, `a running worker is billed as it runs: ${running}`);
    await moveClock(emu.url, { advanceMs: 45_000 }); // queue 10 s, job 30 s, idle 5 s: it has stopped
    assert.equal((await status(ENDPOINTS.image, id)).json.status, 'COMPLETED');
    const after1 = await ep1Totals();
    const cost = after1.totalAmount - before0.totalAmount;
    assert.ok(cost >= 45 * perSecond - 1e-9 && cost <= 46 * perSecond + 1e-9, `one worker life of 45 s (and a few real ms), rounded up: ${cost}`);
    assert.ok(Math.abs(after1.totalAmount - (after1.gpuAmount + after1.cpuAmount + after1.diskAmount + after1.feeAmount)) < 1e-9);
    const id2 = await submit(ENDPOINTS.image, { prompt: 'billed', width: 8, height: 8 });
    await moveClock(emu.url, { advanceMs: 60_000 });
    assert.equal((await status(ENDPOINTS.image, id2)).json.status, 'COMPLETED');
    const after2 = await ep1Totals();
    assert.ok(Math.abs(after2.totalAmount - after1.totalAmount - cost) < 1e-9, `second job cost ${after2.totalAmount - after1.totalAmount}, first ${cost}`);
  });
});

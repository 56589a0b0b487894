// Issue 14 "Done when", emulator side: a user's handler, unchanged, run by the platform's own Python worker SDK
// (runpod 1.12.0 in the project venv) as real worker processes of a `worker` endpoint, behind the hosted API:
// queueing on two workers, streaming before the end, a raising handler, cancel reaching the worker, the
// execution timeout, concurrency_modifier. The emulator is the built CLI in its own process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Emulator } from '../emulator/harness';
import { api, pngSize, skipReason, startWorkerEmulator, waitFor, workerEndpoint } from './workerHarness';

const skip = skipReason();
if (skip) console.log(`# skipped: ${skip}`);

describe('worker endpoints run the handler on the real worker SDK', { skip }, () => {
  let emu: Emulator;
  let w: ReturnType<typeof api>;
  before(async () => {
    emu = await startWorkerEmulator([
      workerEndpoint('png', 'png_handler.py', { workersMax: 2 }),
      workerEndpoint('words', 'stream_handler.py'),
      workerEndpoint('raises', 'raising_handler.py'),
      workerEndpoint('sleeps', 'sleeping_handler.py'),
      workerEndpoint('many', 'concurrent_handler.py'),
    ]);
    w = api(emu);
  });
  after(async () => {
    await emu?.stop();
  });

  test('20 jobs on 2 workers: every PNG has its asked size, both workers take jobs, and delayTime grows with the queue', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await w.submit('png', { width: 8 + i, height: 5 + i }));
    const jobs = await Promise.all(ids.map((id) => w.settle('png', id, 120_000)));
    jobs.forEach((job, i) => {
      assert.equal(job.status, 'COMPLETED', JSON.stringify(job).slice(0, 400));
      assert.deepEqual(pngSize(job.output[0].image_url), { width: 8 + i, height: 5 + i });
      assert.ok(job.executionTime >= 0 && job.delayTime >= 0);
    });
    assert.equal(new Set(jobs.map((j) => j.workerId)).size, 2, 'two workers, no more (workersMax 2)');
    // The first two jobs waited for the cold starts only; the last ones also for the 18 jobs ahead of them.
    const first = Math.max(jobs[0].delayTime, jobs[1].delayTime);
    const last = Math.min(jobs[18].delayTime, jobs[19].delayTime);
    assert.ok(last > first + 2000, `delayTime of the last jobs (${last} ms) shows the queue, beside the first (${first} ms)`);
    const procs = await w.processes('png');
    assert.equal(procs.length, 2);
    for (const p of procs) assert.ok(p.coldStartMs !== null && p.coldStartMs > 0 && typeof p.pid === 'number', JSON.stringify(p));
    const health = (await w.get('/v2/png/health')).json;
    assert.equal(health.jobs.completed, 20);
    assert.equal(health.workers.idle, 2);
  });

  test("a generator handler's chunks arrive through /stream before the job completes, then the aggregated output", async () => {
    const id = await w.submit('words', { text: 'alpha beta gamma delta', delay: 0.5 });
    const seen: string[] = [];
    let chunksBeforeEnd = 0;
    for (let i = 0; i < 60; i++) {
      const r = await w.get(`/v2/words/stream/${id}`);
      assert.equal(r.status, 200, r.text);
      for (const item of r.json.stream) seen.push(item.output);
      if (r.json.status === 'IN_PROGRESS') chunksBeforeEnd = seen.length;
      if (r.json.status === 'COMPLETED') break;
    }
    assert.deepEqual(seen, ['alpha', 'beta', 'gamma', 'delta'], 'each chunk once, in order');
    assert.ok(chunksBeforeEnd >= 1, 'at least one chunk was read while the job was IN_PROGRESS');
    const job = await w.status('words', id);
    assert.equal(job.status, 'COMPLETED');
    assert.deepEqual(job.output, ['alpha', 'beta', 'gamma', 'delta'], 'return_aggregate_stream: the output is every chunk');
    const logs = await w.logs('words', `?job=${id}`);
    assert.ok(logs.some((l) => l.stream === 'stdout' && l.text === 'stream worker: gamma'), 'what the handler printed is in its job log');
  });

  test('a raising handler ends FAILED with its error message', async () => {
    const job = await w.settle('raises', await w.submit('raises', { what: 'purple elephants' }));
    assert.equal(job.status, 'FAILED', JSON.stringify(job));
    // The SDK posts {error: JSON of error_type, error_message, error_traceback...} (rp_job.py run_job).
    const error = JSON.parse(job.error);
    assert.equal(error.error_message, 'cannot handle purple elephants');
    assert.equal(error.error_type, "<class 'ValueError'>");
    assert.match(error.error_traceback, /raising_handler\.py/);
    assert.equal(job.output, undefined);
  });

  test("a failed job's webhook gets its /status JSON, error included (the package's own server sends none on failure)", async () => {
    const received: unknown[] = [];
    const hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const id = await w.submit('raises', { what: 'a webhook' }, { webhook: url });
      await w.settle('raises', id);
      const [sent] = await waitFor('the webhook', async () => (received.length ? received : undefined), 15_000);
      assert.equal((sent as { id: string }).id, id);
      assert.equal((sent as { status: string }).status, 'FAILED');
      assert.equal(JSON.parse((sent as { error: string }).error).error_message, 'cannot handle a webhook');
    } finally {
      hook.close();
    }
  });

  test('cancelling a sleeping job: CANCELLED at once, the worker is told and stops it, and takes the next job', async () => {
    const long = await w.submit('sleeps', { seconds: 60 });
    const next = await w.submit('sleeps', { seconds: 0.2 });
    await waitFor('the long job to start', async () => ((await w.status('sleeps', long)).status === 'IN_PROGRESS' ? true : undefined));
    const started = Date.now();
    const c = await w.post(`/v2/sleeps/cancel/${long}`, undefined);
    assert.equal(c.status, 200, c.text);
    assert.equal(c.json.status, 'CANCELLED');
    const done = await w.settle('sleeps', next, 30_000);
    assert.equal(done.status, 'COMPLETED', `${JSON.stringify(done)}\n${(await w.logs('sleeps')).map((l) => `${l.stream} ${l.text}`).join('\n')}`);
    assert.deepEqual(done.output, { slept: 0.2 });
    assert.ok(Date.now() - started < 15_000, 'the next job ran long before the cancelled one would have ended');
    assert.equal((await w.status('sleeps', long)).status, 'CANCELLED', 'still CANCELLED: nothing late overwrote it');
    const logs = await w.logs('sleeps', `?job=${long}`);
    assert.ok(logs.some((l) => l.text === `sleeping worker: stopped ${long}`), 'the stop channel reached the handler');
  });

  test('policy.executionTimeout ends a running job TIMED_OUT (admin clock) and the worker is told to stop it', async () => {
    const id = await w.submit('sleeps', { seconds: 60 }, { policy: { executionTimeout: 6000 } });
    await waitFor('the job to start', async () => ((await w.status('sleeps', id)).status === 'IN_PROGRESS' ? true : undefined));
    await w.advance(6500);
    const job = await w.status('sleeps', id);
    assert.equal(job.status, 'TIMED_OUT', JSON.stringify(job));
    assert.equal(job.executionTime, 6000);
    assert.match(job.error, /execution timeout \(6000 ms\)/);
    await waitFor('the handler to be stopped', async () => ((await w.logs('sleeps', `?job=${id}`)).some((l) => l.text === `sleeping worker: stopped ${id}`) ? true : undefined));
  });

  test('concurrency_modifier: one worker runs three jobs at once (batch take)', async () => {
    const ids = [];
    for (let n = 0; n < 3; n++) ids.push(await w.submit('many', { seconds: 2, n }));
    let most = 0;
    await waitFor('three jobs in progress', async () => {
      most = Math.max(most, (await w.get('/v2/many/health')).json.jobs.inProgress);
      return most === 3 ? true : undefined;
    }, 30_000, 100);
    const jobs = await Promise.all(ids.map((id) => w.settle('many', id)));
    assert.deepEqual(jobs.map((j) => j.output), [{ done: 0 }, { done: 1 }, { done: 2 }]);
    assert.equal(new Set(jobs.map((j) => j.workerId)).size, 1, 'all on the one worker');
  });
});

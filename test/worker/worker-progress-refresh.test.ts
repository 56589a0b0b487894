// Issue 21, two worker-protocol behaviours found by running real handlers on runpod 1.12.0:
// - progress_update(job, x) posts {"status": "IN_PROGRESS", "output": x} to the job's result URL
//   (rp_progress.py): /status answers IN_PROGRESS with output = the latest update, then COMPLETED with what the
//   handler returned (docs: "Progress updates will be available when the status is polled").
// - a handler returning {..., "refresh_worker": true} (or started with {"refresh_worker": True}) makes the SDK add
//   stopPod: true to its result (rp_job.py): no job goes to that worker any more, its process group is stopped as
//   soon as its result arrives, and a new worker (a new pid) takes the queued jobs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Emulator } from '../emulator/harness';
import { api, processesInGroup, skipReason, startWorkerEmulator, waitFor, workerEndpoint } from './workerHarness';

const skip = skipReason();
if (skip) console.log(`# skipped: ${skip}`);

describe('progress updates and refresh_worker on the real worker SDK', { skip }, () => {
  let emu: Emulator;
  let w: ReturnType<typeof api>;
  before(async () => {
    emu = await startWorkerEmulator([
      workerEndpoint('progress', 'progress_handler.py'),
      workerEndpoint('refresh', 'refresh_handler.py'),
      workerEndpoint('refresh-all', 'refresh_handler.py', {}, { env: { REFRESH_ALL: '1' } }),
    ]);
    w = api(emu);
  });
  after(async () => {
    await emu?.stop();
  });

  test('/status shows each progress update as IN_PROGRESS output, then COMPLETED with the handler\'s return', async () => {
    const id = await w.submit('progress', { pause: 1.5 });
    const seen: string[] = [];
    const job = await waitFor('the job to end', async () => {
      const s = await w.status('progress', id);
      if (s.status === 'IN_PROGRESS' && s.output !== undefined && seen[seen.length - 1] !== s.output) seen.push(s.output);
      return ['COMPLETED', 'FAILED', 'TIMED_OUT', 'CANCELLED'].includes(s.status) ? s : undefined;
    }, 60_000, 50);
    assert.deepEqual(seen, ['step 1 of 2', 'step 2 of 2'], 'both updates were seen, in order, while it ran');
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    assert.equal(job.output.done, true, 'the output is what the handler returned, not the last update');
    assert.ok(job.executionTime >= 2500, `it ran for the whole handler (${job.executionTime} ms), not until the first update`);
  });

  test('a result with refresh_worker stops that worker\'s process group at once; the next job runs on a new worker', async () => {
    const first = await w.submit('refresh', { refresh: true });
    const second = await w.submit('refresh', {});
    const a = await w.settle('refresh', first);
    assert.equal(a.status, 'COMPLETED', JSON.stringify(a));
    assert.equal(a.output.refresh_worker, undefined, 'the SDK takes the flag out of the output');
    const oldPid = a.output.pid as number;
    await waitFor('the refreshed worker\'s process group to be gone', async () => (processesInGroup(oldPid).length === 0 ? true : undefined), 5000);
    const b = await w.settle('refresh', second);
    assert.equal(b.status, 'COMPLETED', JSON.stringify(b));
    assert.notEqual(b.output.pid, oldPid, 'the queued job ran on a new process');
    assert.notEqual(b.workerId, a.workerId, 'and on a new worker');
    const procs = await w.processes('refresh');
    assert.deepEqual(procs.map((p) => p.pid), [b.output.pid], 'only the new worker is left');
  });

  test('start({"refresh_worker": True}) on workersMax 1: each job gets a fresh process, and the next waits about one cold start, not the old process\'s 20 s poll', async () => {
    const ids = [await w.submit('refresh-all', {}), await w.submit('refresh-all', {})];
    const [a, b] = [await w.settle('refresh-all', ids[0]!), await w.settle('refresh-all', ids[1]!)];
    assert.equal(a.status, 'COMPLETED', JSON.stringify(a));
    assert.equal(b.status, 'COMPLETED', JSON.stringify(b));
    assert.notEqual(a.output.pid, b.output.pid);
    // b waited for a's run and then one cold start of a new worker (a python start-up: a few seconds on a busy
    // machine); before the fix it waited for the old process to exit by itself, about 21 s after a's result.
    const waitedAfterA = b.delayTime - a.delayTime - a.executionTime;
    const procs = await w.processes('refresh-all');
    assert.ok(waitedAfterA < 12_000, `the second job waited ${waitedAfterA} ms after the first ended (${JSON.stringify(procs)})`);
    await waitFor('the first worker\'s process group to be gone', async () => (processesInGroup(a.output.pid).length === 0 ? true : undefined), 5000);
  });
});

// Issue 14 with /retry: a job retried while the worker still runs its earlier run (a handler that does not stop
// when told, on a worker with concurrency_modifier above 1, so it is taking jobs meanwhile) ends with the result
// of the retried run, never with the late result of the earlier one. The worker protocol names a result by job id
// alone (POST job-done/<worker>/<job>), so two runs of one id on one worker could not be told apart: the emulator
// does not hand a worker a job whose earlier run it still holds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Emulator } from '../emulator/harness';
import { api, skipReason, startWorkerEmulator, waitFor, workerEndpoint } from './workerHarness';

const skip = skipReason();
if (skip) console.log(`# skipped: ${skip}`);

describe('a retried job on a worker that still runs its earlier run', { skip }, () => {
  let emu: Emulator;
  let w: ReturnType<typeof api>;
  before(async () => {
    emu = await startWorkerEmulator([workerEndpoint('stubborn', 'stubborn_handler.py')]);
    w = api(emu);
  });
  after(async () => {
    await emu?.stop();
  });

  test('ends with the retried run\'s result, not with the late result of the run that timed out', async () => {
    // The first run outlasts, in real time, everything up to its stop (the wait for IN_PROGRESS, the clock's
    // advance, the stop's way to the SDK): with 3 s it once ended before its stop came, under load in CI.
    const id = await w.submit('stubborn', { seconds: 15, retry_seconds: 1 }, { policy: { executionTimeout: 6000 } });
    await waitFor('the job to start', async () => ((await w.status('stubborn', id)).status === 'IN_PROGRESS' ? true : undefined));
    await w.advance(6500);
    assert.equal((await w.status('stubborn', id)).status, 'TIMED_OUT');
    await waitFor('the handler to be told to stop (it goes on)', async () => ((await w.logs('stubborn', `?job=${id}`)).some((l) => l.text.startsWith('stubborn worker: ignoring a stop of run 1')) ? true : undefined));
    assert.equal((await w.post(`/v2/stubborn/retry/${id}`, undefined)).json.status, 'IN_QUEUE');
    const job = await w.settle('stubborn', id);
    assert.equal(job.status, 'COMPLETED', JSON.stringify(job));
    assert.deepEqual(job.output, { run: 2 }, 'the result is the retried run\'s');
    const logs = await w.logs('stubborn', `?job=${id}`);
    assert.ok(logs.some((l) => /late result of .* dropped/.test(l.text)), 'the first run\'s result came late and was dropped');
  });
});

// Issue 20: a job's result over the platform's ~20 MB limit. There the worker's result post is refused with a 400
// and the job fails (its users are told to upload files with s3Config); the emulator read such a result up to
// 32 MB and completed the job, so a handler that worked locally failed once deployed. A real handler on the
// real worker SDK posts both sizes here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Emulator } from '../emulator/harness';
import { api, skipReason, startWorkerEmulator, workerEndpoint } from './workerHarness';

const skip = skipReason();
if (skip) console.log(`# skipped: ${skip}`);

describe('the result size limit on the real worker SDK', { skip }, () => {
  let emu: Emulator;
  let w: ReturnType<typeof api>;
  before(async () => {
    emu = await startWorkerEmulator([workerEndpoint('big', 'big_result_handler.py')]);
    w = api(emu);
  });
  after(async () => {
    await emu?.stop();
  });

  test('a result over 20 MB fails its job with the advice to use s3Config; one under it completes', async () => {
    const over = await w.settle('big', await w.submit('big', { megabytes: 21 }));
    assert.equal(over.status, 'FAILED', `status ${over.status}`);
    assert.match(String(over.error), /too large: 21\.\d MB, over the 20 MB limit.*s3Config/);
    assert.equal(over.output, undefined, 'nothing of the refused result is kept');
    const under = await w.settle('big', await w.submit('big', { megabytes: 2 }));
    assert.equal(under.status, 'COMPLETED', `status ${under.status}: ${String(under.error ?? '')}`);
    assert.equal(String(under.output.image).length, 2_000_000);
  });
});

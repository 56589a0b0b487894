// Issue 29: the replay runs the emulator's own engine in virtual time. Its numbers for a cold burst are the ones
// the emulator bills in test/emulator/scaling-billing.test.ts (docs "Pricing" and "Endpoint settings").
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { replay, type ReplaySettings } from '../../../src/core/tune/replay';
import { startReplays } from '../../../src/core/tune/replayThread';

const burst = { arrivals: Array.from({ length: 4 }, () => ({ submitMs: 1_000_000, executionMs: 20_000 })), coldStartMs: 10_000, pricePerWorkerSecond: 0.001 };
const rc: ReplaySettings = { workersMin: 0, workersMax: 5, idleTimeoutMs: 5000, scalerType: 'REQUEST_COUNT', scalerValue: 1 };

describe('replay', () => {
  test('a cold burst of 4 under REQUEST_COUNT 1: 4 lives of 10 + 20 + 5 s, every job waits the 10 s cold start', () => {
    const r = replay(burst, rc);
    assert.deepEqual([r.startUsd, r.executionUsd, r.idleUsd].map((x) => Math.round(x * 1000)), [40, 80, 20]);
    assert.ok(Math.abs(r.costUsd - 0.14) < 1e-12);
    assert.deepEqual([r.waitP50Ms, r.waitP95Ms, r.waitMaxMs, r.coldStarts, r.peakWorkers], [10_000, 10_000, 10_000, 4, 4]);
  });

  test('QUEUE_DELAY 4 s is lazier: the last job waits 16 s', () => {
    const r = replay(burst, { ...rc, scalerType: 'QUEUE_DELAY', scalerValue: 4 });
    assert.equal(r.waitMaxMs, 16_000);
    assert.equal(r.peakWorkers, 4);
  });

  test('workers min 1 with no traffic after the burst still bills its waiting', () => {
    const r = replay({ ...burst, windowEndMs: 1_000_000 + 3_600_000 }, { ...rc, workersMin: 1 });
    // Workers are interchangeable: the warm one runs 20 s and idles out 5 s later (three more are up), two of
    // the cold ones idle 5 s and stop, the last stays as the worker min: idle from 30 s to the hour's end.
    assert.ok(Math.abs(r.idleUsd - (5 + 5 + 5 + 3570) * 0.001) < 1e-9, `idle ${r.idleUsd}`);
    assert.equal(r.coldStarts, 3, 'the worker min was warm');
  });

  test('in a worker thread: results in order, progress streamed, cancel stops it', async () => {
    const file = join(__dirname, '../../../dist/replayWorker.js');
    const many = { ...burst, arrivals: Array.from({ length: 5000 }, (_, i) => ({ submitMs: i * 200, executionMs: 1000 })) };
    const seen: string[] = [];
    const run = startReplays(file, many, [rc, { ...rc, idleTimeoutMs: 60_000 }], (m) => seen.push(m.kind));
    const [a, b] = await run.results;
    assert.ok(a!.costUsd < b!.costUsd, 'a longer idle timeout costs more here');
    assert.ok(seen.includes('progress'));
    const cancelled = startReplays(file, many, Array(50).fill(rc));
    cancelled.cancel();
    await assert.rejects(cancelled.results, /cancelled/);
  });
});

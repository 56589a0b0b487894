// Issue 29: Engine.updateSettings, the one seam where an endpoint PATCH (issue 28) changes a running engine;
// run here on the engine alone, in virtual time (no timers: the test moves its clock).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../../src/emulator/jobs/engine';
import type { EmulatedJob } from '../../../src/emulator/jobs/job';
import type { RuntimeSettings } from '../../../src/emulator/jobs/runtimeSettings';
import { SimulatedWorkers } from '../../../src/emulator/workers/simulated/simulatedDriver';
import { countsOf } from '../../../src/emulator/jobs/workerViews';

const settings: RuntimeSettings = {
  queueMs: 0, workersMin: 0, workersMax: 3, idleTimeoutMs: 5000, coldStartMs: 1000,
  scalerType: 'REQUEST_COUNT', scalerValue: 1, flashboot: false, flashbootColdStartMs: 1000, flashbootWindowMs: 600_000,
};

function rig(s: Partial<RuntimeSettings> = {}) {
  let now = 0;
  const ended: EmulatedJob[] = [];
  const engine = new Engine({ ...settings, ...s }, 'w', { now: () => now, onChange: () => () => {} }, new SimulatedWorkers(), { onJobEnd: (j) => ended.push(j) }, false);
  let n = 0;
  const submit = (executionMs: number): EmulatedJob => {
    const job = { id: `j${n++}`, queuedAtMs: engine.now, executionMs, lowPriority: false, executionTimeoutMs: 0, expiresAtMs: Number.MAX_SAFE_INTEGER, phase: 'queued', retries: 0, streamCursor: 0, retentionMs: 0 } as unknown as EmulatedJob;
    engine.enqueue(job);
    return job;
  };
  const to = (ms: number): void => { now = ms; engine.advance(ms); };
  return { engine, submit, to, ended, counts: () => countsOf(engine.list()) };
}

describe('Engine.updateSettings', () => {
  test('workersMax lowered: idle workers above it stop now, running ones finish their job, and none starts above it', () => {
    const r = rig();
    for (let i = 0; i < 3; i++) r.submit(10_000);
    r.to(1000);
    assert.equal(r.counts().running, 3);
    r.engine.updateSettings({ workersMax: 1 });
    assert.equal(r.counts().running, 3, 'running jobs are not cut short');
    r.submit(10_000);
    r.submit(10_000);
    r.to(11_000);
    assert.equal(r.ended.length, 3, 'the three running jobs finished');
    assert.deepEqual([r.counts().running, r.counts().idle, r.counts().initializing], [1, 0, 0], 'one worker left, running the next job');
    r.to(12_000);
    assert.equal(r.engine.list().length, 1, 'no worker started above the new max');
  });

  test('workersMin raised: a worker starts now, and stays', () => {
    const r = rig();
    assert.equal(r.engine.list().length, 0);
    r.engine.updateSettings({ workersMin: 1 });
    assert.equal(r.counts().initializing, 1);
    r.to(3_600_000);
    assert.equal(r.counts().idle, 1, 'a worker min never idles out');
    const [life] = r.engine.lives.list();
    r.engine.accrueAll();
    assert.deepEqual([life!.startMs, life!.idleMs], [1000, 3_599_000], 'billed while it waits');
  });

  test('the scaler type changes: QUEUE_DELAY then leaves a second job waiting until it waited S seconds', () => {
    const r = rig({ workersMax: 3 });
    r.engine.updateSettings({ scalerType: 'QUEUE_DELAY', scalerValue: 4 });
    r.submit(60_000);
    r.submit(60_000);
    assert.equal(r.counts().initializing, 1, 'one worker for a queue with none');
    r.to(3000);
    assert.equal(r.engine.list().length, 1);
    r.to(4000);
    assert.equal(r.engine.list().length, 2, 'the second job waited 4 s: one more worker');
  });
});

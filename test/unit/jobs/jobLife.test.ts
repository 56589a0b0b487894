// The job life (issue 22): one description of a job for every view, and the transitions the runner feeds it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration } from '../../../src/core/jobs/durationText';
import { answerPatch, cancelAnswerPatch, costPatch, describeJob, jobActions, lifeLine, msToNextTick, retryAnswerPatch, type LifeFacts } from '../../../src/core/jobs/jobLife';
import type { Job } from '../../../src/core/schemas';

const T0 = 1_700_000_000_000;
const job = (status: string, more: Partial<Job> = {}): Job => ({ id: 'j1', status, ...more }) as Job;
const apply = (facts: LifeFacts, patch: object): LifeFacts => ({ ...facts, ...patch }) as LifeFacts;

describe('formatDuration', () => {
  test('writes ms under a second, tenths under a minute, minutes with padded seconds, hours with padded minutes', () => {
    assert.equal(formatDuration(340), '340 ms');
    assert.equal(formatDuration(1749), '1.7 s');
    assert.equal(formatDuration(59_960), '59.9 s');
    assert.equal(formatDuration(125_400), '2 min 05 s');
    assert.equal(formatDuration(119_600), '1 min 59 s');
    assert.equal(formatDuration(3_725_000), '1 h 02 min');
    assert.equal(formatDuration(-1), '—');
    // A live "so far" in whole seconds past the first (the views tick it together).
    assert.equal(formatDuration(2950, true), '2 s');
    assert.equal(formatDuration(125_400, true), '2 min 05 s');
  });
});

describe('describeJob', () => {
  test('a moving job reads its local clock as "so far", and the text changes a second later', () => {
    const facts: LifeFacts = { status: 'IN_QUEUE', submittedAt: T0 };
    assert.equal(lifeLine(facts, T0 + 2300), 'In queue · 2 s so far');
    assert.equal(lifeLine(facts, T0 + 450), 'In queue · 450 ms so far');
    assert.notEqual(describeJob(facts, T0 + 2300).durationText, describeJob(facts, T0 + 3300).durationText);
    assert.equal(describeJob(facts, T0).live, true);
  });

  test('every view ticks on the job\'s own second, so they change together', () => {
    const facts: LifeFacts = { status: 'IN_PROGRESS', submittedAt: T0 };
    const next = T0 + 2300 + msToNextTick(facts, T0 + 2300);
    assert.equal(describeJob(facts, next - 10).durationText, '2 s so far');
    assert.equal(describeJob(facts, next).durationText, '3 s so far');
  });

  test('an ended job reads the service\'s times of record, not our clock', () => {
    const facts: LifeFacts = { status: 'CANCELLED', submittedAt: T0, finishedAt: T0 + 4900, delayTime: 800, executionTime: 1700 };
    assert.deepEqual(describeJob(facts, T0 + 60_000), { statusText: 'Cancelled', durationText: '2.5 s', live: false, final: true, attempt: 1 });
  });

  test('a sub-second job reads in ms, never "0 s"', () => {
    assert.equal(lifeLine({ status: 'COMPLETED', submittedAt: T0, delayTime: 120, executionTime: 220 }), 'Completed · 340 ms');
  });

  test('an ended job the service never timed reads our clock from submission to end', () => {
    assert.equal(lifeLine({ status: 'ERROR', submittedAt: T0, finishedAt: T0 + 1500 }), 'Error · 1.5 s');
  });
});

describe('transitions', () => {
  test('a terminal answer moves the job to "saving outputs" with the service\'s times, never straight to the end', () => {
    const patch = answerPatch({ status: 'IN_PROGRESS', submittedAt: T0 }, job('COMPLETED', { delayTime: 10, executionTime: 900 }), [], T0 + 1000);
    assert.equal(patch.status, 'SAVING_OUTPUTS');
    assert.equal(patch.executionTime, 900);
    assert.equal(describeJob(apply({ status: 'IN_PROGRESS', submittedAt: T0 }, patch), T0 + 5000).live, false);
  });

  test('the cancel\'s answer ends the job at once, and a held wait\'s late "in progress" changes nothing', () => {
    let facts: LifeFacts = { status: 'IN_PROGRESS', submittedAt: T0, startedAt: T0 + 100 };
    facts = apply(facts, cancelAnswerPatch(facts, { status: 'CANCELLED' }, T0 + 3000));
    assert.equal(describeJob(facts).statusText, 'Cancelled');
    assert.deepEqual(answerPatch(facts, job('IN_PROGRESS'), [], T0 + 3100), {});
    assert.equal(describeJob(facts).statusText, 'Cancelled');
  });

  test('a retry is attempt 2 of the same job, moving again with none of the failure left', () => {
    const failed: LifeFacts & { error?: string } = { status: 'FAILED', submittedAt: T0, finishedAt: T0 + 1400, executionTime: 1400, error: 'boom' };
    const again = apply(failed, retryAnswerPatch(failed, { status: 'IN_QUEUE' }, T0 + 10_000)) as LifeFacts & { error?: string };
    assert.equal(again.error, undefined);
    assert.equal(lifeLine(again, T0 + 11_000), 'In queue · attempt 2 · 1 s so far');
    assert.equal(describeJob(again).attempt, 2);
  });

  test('a job\'s cost at its end: reported by a public endpoint, else an estimate from execution time x price, else unknown', () => {
    const price = { usdPerSecond: 0.00053, source: 'price table: L40 (ADA_48_PRO) $0.00053/s' };
    assert.deepEqual(costPatch(job('COMPLETED', { output: { cost: 0.0024 }, executionTime: 1200 }), price).jobCost, { kind: 'reported', usd: 0.0024, how: 'reported by the endpoint in its output (`cost`)' });
    const estimate = costPatch(job('COMPLETED', { output: { images: [] }, executionTime: 4000 }), price).jobCost!;
    assert.equal(estimate.kind, 'estimate');
    assert.ok(Math.abs(estimate.usd! - 0.00212) < 1e-12);
    assert.match(estimate.how, /^estimate: 4\.00 s of execution x \$0\.000530\/s \(price table: L40/);
    assert.deepEqual(costPatch(job('COMPLETED', { executionTime: 4000 }), undefined).jobCost, { kind: 'unknown', how: 'no price per second is known for this endpoint' });
  });

  test('a retry forgets the failed attempt\'s cost: the new attempt gets its own at its end', () => {
    const failed = { status: 'FAILED', submittedAt: T0, executionTime: 1400, jobCost: { kind: 'estimate' as const, usd: 0.001, how: 'x' } };
    const patch = retryAnswerPatch(failed, { status: 'IN_QUEUE' }, T0 + 10_000);
    assert.ok('jobCost' in patch && patch.jobCost === undefined);
  });

  test('a running job\'s output is its latest progress update, dropped at the end', () => {
    const running: LifeFacts = { status: 'IN_PROGRESS', submittedAt: T0 };
    assert.equal(answerPatch(running, job('IN_PROGRESS', { output: { step: 3, of: 10 } }), []).progress, '{"step":3,"of":10}');
    const end = answerPatch(running, job('COMPLETED', { output: { done: true } }), []);
    assert.ok('progress' in end && end.progress === undefined);
  });

  test('a progress update that echoes the key is scrubbed', () => {
    const patch = answerPatch({ status: 'IN_QUEUE', submittedAt: T0 }, job('IN_PROGRESS', { output: 'using key rpa_SECRET1234' }), ['rpa_SECRET1234']);
    assert.ok(!patch.progress?.includes('rpa_SECRET1234'));
  });
});

describe('jobActions', () => {
  test('what a job offers follows its life: cancel while it moves or after Stop Waiting, retry once failed and let go, stop waiting only while it moves', () => {
    const moving = { status: 'IN_PROGRESS', submittedAt: T0, jobId: 'j1' };
    assert.deepEqual(jobActions(moving, true), { cancel: true, retry: false, stopWaiting: true });
    assert.deepEqual(jobActions({ ...moving, status: 'SAVING_OUTPUTS' }, true), { cancel: false, retry: false, stopWaiting: false });
    assert.deepEqual(jobActions({ ...moving, status: 'CANCELLED' }, true), { cancel: false, retry: false, stopWaiting: false });
    assert.deepEqual(jobActions({ ...moving, status: 'STOPPED' }, false), { cancel: true, retry: false, stopWaiting: false });
    assert.deepEqual(jobActions({ ...moving, status: 'FAILED' }, false), { cancel: false, retry: true, stopWaiting: false });
    assert.deepEqual(jobActions({ status: 'SUBMITTING', submittedAt: T0 }, true), { cancel: false, retry: false, stopWaiting: true });
  });
});

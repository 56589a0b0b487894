import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BEAT_MS, FAST_POLL_MS, MAX_POLL_MS, nextPollDelayMs, predictEnd, type PollState } from '../../../src/core/jobs/pollPlan';
import { JobDurationModel, durationKey } from '../../../src/core/jobs/durationModel';

const T = 1_000_000;
const exact = { queueMs: 500, executionMs: 2000, executionSpreadMs: 50, queueSpreadMs: 20, samples: 5 };

describe('nextPollDelayMs without an estimate', () => {
  test('keeps a beat under 1 s, then grows with the elapsed time, up to a cap', () => {
    const at = (elapsed: number) => nextPollDelayMs({ now: T + elapsed, submittedAt: T, startedWatchingAt: T });
    assert.equal(at(0), BEAT_MS);
    assert.equal(at(5000), BEAT_MS);
    assert.equal(at(20_000), 1600);
    assert.equal(at(3_600_000), 5000);
  });
});

describe('nextPollDelayMs with an estimate', () => {
  test('a queued job is next asked just after its predicted end, not before', () => {
    const d = nextPollDelayMs({ now: T, submittedAt: T, startedWatchingAt: T, status: 'IN_QUEUE', estimate: exact, roundTripMs: 10 });
    // end = T + 500 + 2000; plus a 20 ms margin and half the round trip.
    assert.equal(d, 2500 + 20 + 5);
  });

  test('delayTime of a running job pins its start', () => {
    const s: PollState = { now: T + 1500, submittedAt: T, startedWatchingAt: T, status: 'IN_PROGRESS', delayTime: 1200, estimate: exact };
    assert.deepEqual(predictEnd(s), { endAt: T + 1200 + 2000, uncertaintyMs: 50 });
    assert.equal(nextPollDelayMs(s), T + 3200 + 20 - (T + 1500));
  });

  test('a wide uncertainty is probed from where its window opens, on a grid ending just after the predicted end', () => {
    const wide = { ...exact, executionSpreadMs: 1000, queueSpreadMs: 0 };
    const base: PollState = { now: T, submittedAt: T, startedWatchingAt: T, status: 'IN_PROGRESS', delayTime: 0, estimate: wide };
    const probeAfterEnd = T + 2000 + 20;
    const times: number[] = [];
    let now = T;
    for (let i = 0; i < 3; i++) {
      now += nextPollDelayMs({ ...base, now });
      times.push(now - T);
    }
    assert.deepEqual(times, [1000, 1520, probeAfterEnd - T]);
  });

  test('an overdue job is polled fast at first, then backs off, within a cap', () => {
    const s: PollState = { now: 0, submittedAt: T, startedWatchingAt: T, status: 'IN_PROGRESS', delayTime: 0, estimate: exact };
    const end = T + 2020;
    assert.equal(nextPollDelayMs({ ...s, now: end }), FAST_POLL_MS);
    assert.equal(nextPollDelayMs({ ...s, now: end + 1000 }), 500);
    assert.equal(nextPollDelayMs({ ...s, now: end + 3000 }), 1500);
    assert.equal(nextPollDelayMs({ ...s, now: end + 10_000 }), 3005);
    assert.equal(nextPollDelayMs({ ...s, now: end + 10_000_000 }), MAX_POLL_MS);
  });

  test('a resumed wait (submission time unknown) still predicts from when it was first seen running', () => {
    const p = predictEnd({ now: T, startedWatchingAt: T, status: 'IN_PROGRESS', firstSeenRunningAt: T, estimate: exact });
    assert.deepEqual(p, { endAt: T + 1000, uncertaintyMs: 1050 });
  });
});

describe('JobDurationModel', () => {
  test('estimates from the median, with a spread that narrows as samples agree', () => {
    const m = new JobDurationModel();
    const k = durationKey('http://x/', 'ep');
    assert.equal(m.estimate(k), undefined);
    m.record(k, 400, 2000);
    const one = m.estimate(k)!;
    assert.equal(one.executionMs, 2000);
    assert.equal(one.executionSpreadMs, 600);
    for (let i = 0; i < 9; i++) m.record(k, 400, 2000);
    assert.ok(m.estimate(k)!.executionSpreadMs < 30);
    m.record(k, 400, 'soon');
    m.record(k, 400, -5);
    assert.equal(m.estimate(k)!.samples, 10);
  });

  test('another endpoint gives no estimate: durations differ by endpoint', () => {
    const m = new JobDurationModel();
    m.record(durationKey('http://x', 'a'), 100, 4000);
    assert.equal(m.estimate(durationKey('http://x', 'b')), undefined);
    assert.equal(m.estimate(durationKey('http://y', 'a')), undefined);
    assert.equal(m.estimate(durationKey('http://x/', 'a'))?.executionMs, 4000);
  });

  test('survives a round trip through JSON and ignores junk', () => {
    const m = new JobDurationModel();
    m.record('s e', 10, 20);
    const copy = JobDurationModel.fromJSON(JSON.parse(JSON.stringify(m)));
    assert.deepEqual(copy.estimate('s e'), m.estimate('s e'));
    assert.equal(JobDurationModel.fromJSON({ bad: { execution: ['x', -1] } }).estimate('bad'), undefined);
    assert.equal(JobDurationModel.fromJSON(null).estimate('s e'), undefined);
  });
});

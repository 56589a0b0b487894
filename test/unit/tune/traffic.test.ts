// Issue 29: the Tune view's traffic, candidates and flags (core, no editor).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { changeLabel, tuneCandidates, withinPlatformRanges } from '../../../src/core/tune/candidates';
import { moneySplit, tuneWindow, utcRange, workerFlags } from '../../../src/core/tune/flags';
import type { ReplaySettings } from '../../../src/core/tune/replay';
import { changedSettings, cheapestWithin, coldStartOf, settingsOf, syntheticArrivals, trafficOf } from '../../../src/core/tune/traffic';

const current: ReplaySettings = { workersMin: 0, workersMax: 3, idleTimeoutMs: 5000, scalerType: 'QUEUE_DELAY', scalerValue: 4 };

describe('tune traffic', () => {
  test('the window\'s jobs of the endpoint; those with no execution time left out and counted', () => {
    const jobs = [
      { endpointId: 'a', submittedAt: 1000, delayTime: 900, executionTime: 2000 },
      { endpointId: 'a', submittedAt: 2000 }, // stopped: no execution time
      { endpointId: 'b', submittedAt: 1500, executionTime: 100 },
      { endpointId: 'a', submittedAt: 99_000, delayTime: 10, executionTime: 1000 },
    ];
    const t = trafficOf(jobs, 'a', 0, 50_000, 5000);
    assert.deepEqual(t.arrivals, [{ submitMs: 1000, executionMs: 2000 }]);
    assert.equal(t.leftOut, 1);
    assert.equal(t.coldStartMs, 900);
  });

  test('the cold start: the smallest delay of a job that came after a quiet gap longer than the idle timeout', () => {
    const jobs = [
      { endpointId: 'a', submittedAt: 0, delayTime: 8000, executionTime: 1000 },
      { endpointId: 'a', submittedAt: 100, delayTime: 9000, executionTime: 1000 }, // behind the first, no gap
      { endpointId: 'a', submittedAt: 60_000, delayTime: 7500, executionTime: 1000 },
    ];
    assert.equal(coldStartOf(jobs, 5000), 7500);
  });

  test('the cold start of a burst sent in one millisecond is the delay of the job that started first, whatever order the records are in', () => {
    // Three jobs POSTed together (same submit ms), kept newest first as the Jobs history keeps them: the service
    // started two on new workers after the 1 s cold start, the third behind one of them (1.5 s execution). The
    // third's 2.5 s is no cold start (the real-editor Tune test read it as one about 1 run in 3).
    const burst = [
      { endpointId: 'a', submittedAt: 5000, delayTime: 2496, executionTime: 1500 },
      { endpointId: 'a', submittedAt: 5000, delayTime: 1000, executionTime: 1500 },
      { endpointId: 'a', submittedAt: 5000, delayTime: 1000, executionTime: 1500 },
    ];
    assert.equal(coldStartOf(burst, 1000), 1000);
    assert.equal(coldStartOf([...burst].reverse(), 1000), 1000);
    // The service queued the second-sent first (its POST overtook): the first-sent waited behind it.
    assert.equal(coldStartOf([
      { endpointId: 'a', submittedAt: 5000, delayTime: 2490, executionTime: 1500 },
      { endpointId: 'a', submittedAt: 5003, delayTime: 1000, executionTime: 1500 },
    ], 1000), 1000);
    // A job sent once the burst's first worker was up is no cold arrival, however short its delay.
    assert.equal(coldStartOf([
      { endpointId: 'a', submittedAt: 0, delayTime: 10_000, executionTime: 500 },
      { endpointId: 'a', submittedAt: 10_200, delayTime: 300, executionTime: 500 },
    ], 5000), 10_000);
  });

  test('settings from the REST endpoint; the change Apply sends is only what differs', () => {
    const s = settingsOf({ workers: { min: 1, max: 4, idleTimeout: 15 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 2 }, timeout: 600_000, flashboot: 'OFF' });
    assert.deepEqual(s, { workersMin: 1, workersMax: 4, idleTimeoutMs: 15_000, scalerType: 'QUEUE_DELAY', scalerValue: 2, executionTimeoutMs: 600_000, flashboot: false });
    assert.deepEqual(changedSettings(s, { ...s, idleTimeoutMs: 60_000 }), { workers: { idleTimeout: 60 } });
    assert.deepEqual(changedSettings(s, { ...s, scalerValue: 4 }), { scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } });
    // To REQUEST_COUNT: never an idle timeout in the change (the service refuses it there).
    assert.deepEqual(changedSettings(s, { ...s, scalerType: 'REQUEST_COUNT', scalerValue: 2, idleTimeoutMs: 5000 }), { scaling: { type: 'REQUEST_COUNT', requestCount: 2 } });
    assert.deepEqual(changedSettings(s, s), {});
  });

  test('REQUEST_COUNT: the idle timeout is no setting; the replay stops idle workers after the platform\'s delay', () => {
    // A response that (wrongly) carried one changes nothing: the platform's 5 s is what the engine uses.
    const s = settingsOf({ workers: { min: 0, max: 3, idleTimeout: 15 }, scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, timeout: 600_000, flashboot: 'OFF' });
    assert.equal(s.idleTimeoutMs, 5000);
    assert.equal(settingsOf({ workers: { min: 0, max: 3 }, scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, timeout: 0, flashboot: 'OFF' }).idleTimeoutMs, 5000);
    const c = tuneCandidates(s);
    const labels = c.map((x) => changeLabel(s, x));
    // No idle candidate on REQUEST_COUNT, and no change Apply would send carries an idle timeout on it.
    assert.ok(c.filter((x) => x.scalerType === 'REQUEST_COUNT').every((x) => x.idleTimeoutMs === 5000), JSON.stringify(c));
    assert.ok(labels.filter((l) => /idle/.test(l)).every((l) => /QUEUE_DELAY/.test(l)), labels.join(' | '));
    for (const x of c) {
      const w = changedSettings(s, x).workers as { idleTimeout?: number } | undefined;
      if (x.scalerType === 'REQUEST_COUNT') assert.equal(w?.idleTimeout, undefined, changeLabel(s, x));
    }
    // Idle timeouts come with a switch to QUEUE_DELAY, which carries one.
    const switched = c.filter((x) => x.scalerType === 'QUEUE_DELAY').map((x) => x.idleTimeoutMs / 1000);
    assert.deepEqual([...new Set(switched)].sort((a, b) => a - b), [1, 5, 15, 60, 300]);
    assert.deepEqual(changedSettings(s, { ...s, scalerType: 'QUEUE_DELAY', scalerValue: 4, idleTimeoutMs: 60_000 }), { workers: { idleTimeout: 60 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } });
    assert.deepEqual(changedSettings(s, { ...s, scalerType: 'QUEUE_DELAY', scalerValue: 4 }), { workers: { idleTimeout: 5 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } });
    // A QUEUE_DELAY endpoint's REQUEST_COUNT candidates replay the platform's delay, not its idle timeout.
    assert.ok(tuneCandidates({ ...current, idleTimeoutMs: 60_000 }).filter((x) => x.scalerType === 'REQUEST_COUNT').every((x) => x.idleTimeoutMs === 5000));
    // The flag does not name the idle timeout as a setting to change there.
    const flags = workerFlags(s, { workers: [{ id: 'w', status: 'IDLE', uptimeSeconds: 600 }], summary: { running: 0 } } as never, 3);
    assert.equal(flags.length, 1);
    assert.doesNotMatch(flags[0]!, /idle timeout/);
  });

  test('candidates: current first, one change each, never outside the platform\'s ranges', () => {
    const c = tuneCandidates(current);
    assert.deepEqual(c[0], current);
    assert.ok(c.every(withinPlatformRanges));
    assert.deepEqual(c.filter((s) => s.scalerType === current.scalerType && s.scalerValue === current.scalerValue && s.workersMax === current.workersMax && s.workersMin === 0).map((s) => s.idleTimeoutMs / 1000), [5, 1, 15, 60, 300]);
    assert.ok(!tuneCandidates({ ...current, workersMax: 1 }).some((s) => s.workersMax < 1), 'no max below 1');
    assert.equal(withinPlatformRanges({ ...current, idleTimeoutMs: 0 }), false);
    assert.equal(withinPlatformRanges({ ...current, scalerType: 'REQUEST_COUNT', scalerValue: 0.5 }), false);
  });

  test('the cheapest within the p95 limit; a synthetic burst', () => {
    assert.equal(cheapestWithin([{ costUsd: 3, waitP95Ms: 1000 }, { costUsd: 1, waitP95Ms: 9000 }, { costUsd: 2, waitP95Ms: 2000 }], 5000), 2);
    assert.equal(cheapestWithin([{ costUsd: 1, waitP95Ms: 9000 }], 5000), undefined);
    assert.deepEqual(syntheticArrivals(3, 30, 5000, 0), [{ submitMs: 0, executionMs: 5000 }, { submitMs: 2000, executionMs: 5000 }, { submitMs: 4000, executionMs: 5000 }]);
  });

  test('flags: workers up with no job past the idle timeout; workers min with no traffic', () => {
    const workers = { workers: [{ id: 'w', status: 'IDLE', uptimeSeconds: 600 }], summary: { running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0, total: 1 } };
    const flags = workerFlags({ ...current, workersMin: 1 }, workers as never, 0);
    assert.equal(flags.length, 2, flags.join(' | '));
    assert.deepEqual(workerFlags(current, undefined, 10), []);
  });
});

describe('batch manifests as traffic', () => {
  test('the last line of each row wins; a job also in the history is counted once', async () => {
    const { manifestSamples, mergeSamples } = await import('../../../src/core/tune/manifestSamples');
    const text = [
      JSON.stringify({ type: 'batch', version: 1, batchId: 'b', endpointId: 'ep', service: 'x', createdAt: 'now', jobs: 2 }),
      JSON.stringify({ type: 'job', index: 0, phase: 'active', jobId: 'j0', submittedAt: 10, at: 1 }),
      JSON.stringify({ type: 'job', index: 0, phase: 'ended', jobId: 'j0', submittedAt: 10, delayTime: 5, executionTime: 100, at: 2 }),
      JSON.stringify({ type: 'job', index: 1, phase: 'ended', jobId: 'j1', submittedAt: 20, executionTime: 200, at: 3 }),
      '{"type":"job","index":2,', // a line cut short by a crash
    ].join('\n');
    const rows = await manifestSamples(text, async () => {});
    assert.deepEqual(rows, [
      { endpointId: 'ep', submittedAt: 10, delayTime: 5, executionTime: 100, jobId: 'j0' },
      { endpointId: 'ep', submittedAt: 20, executionTime: 200, jobId: 'j1' },
    ]);
    const merged = mergeSamples([{ endpointId: 'ep', submittedAt: 10, executionTime: 100, jobId: 'j0' }], rows);
    assert.equal(merged.length, 2);
  });
});

describe('the window Tune replays and bills', () => {
  const now = Date.parse('2026-11-27T09:41:30Z');
  test('whole UTC hours, the current one so far: one window for the replay and the billed amount', () => {
    assert.deepEqual(tuneWindow(now, 86_400_000), { fromMs: Date.parse('2026-11-26T09:00:00Z'), toMs: now });
    assert.deepEqual(tuneWindow(now, 3_600_000), { fromMs: Date.parse('2026-11-27T08:00:00Z'), toMs: now });
  });

  test('the billed amount names its real range, with dates when it spans days', () => {
    const w = tuneWindow(now, 86_400_000);
    // As billedAmount asks the billing route for it: the window's first hour to the end of the current one.
    const billed = { usd: 1.82, startTime: '2026-11-26T09:00:00Z', endTime: '2026-11-27T10:00:00Z', note: '' };
    const text = moneySplit(billed, [{ submitMs: w.fromMs + 1, executionMs: 10_000 }], 0.0003, w.toMs);
    assert.match(text, /^Billed \$1\.82 \(Nov 26 09:00 to Nov 27 09:41 UTC\)\./);
    const hour = tuneWindow(now, 3_600_000);
    assert.match(moneySplit({ ...billed, startTime: '2026-11-27T08:00:00Z' }, [], 0.0003, hour.toMs), /\(Nov 27 08:00 to 09:41 UTC\)/);
    assert.equal(utcRange(Date.parse('2026-11-20T09:00:00Z'), now), 'Nov 20 09:00 to Nov 27 09:41 UTC');
  });
});

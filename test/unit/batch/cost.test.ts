// The batch's cost range before sending, and the guards that pause a batch (a job's own cost: test/unit/cost/).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateBatchCost } from '../../../src/core/batch/costRange';
import { BatchGuards, nextJobUsd } from '../../../src/core/batch/guards';
import { defaultConcurrency } from '../../../src/core/batch/concurrency';

const price = { usdPerSecond: 0.0005, source: 'test price' };

describe('estimateBatchCost', () => {
  const durations = { executionMs: 2000, executionSpreadMs: 500, queueMs: 100, queueSpreadMs: 50, samples: 7 };
  test('a range from the learned durations and their spread; the high end adds worker start, idle and round-up time', () => {
    const r = estimateBatchCost({ jobs: 100, durations, price, workers: 4, coldStartMs: 10_000, idleTimeoutMs: 5000 })!;
    assert.ok(Math.abs(r.lowUsd - 100 * 1.5 * 0.0005) < 1e-9);
    assert.ok(Math.abs(r.highUsd - (100 * 2.5 + 64) * 0.0005) < 1e-9, 'each of 4 worker lives: 10 s start + 5 s idle + up to 1 s of round-up');
    assert.match(r.how, /^estimate: 100 jobs x 1\.5 to 2\.5 s \(the endpoint's last 7 jobs\).*64 s of worker start, idle and round-up time for 4 workers/);
  });
  test('public endpoints: the range of the costs they reported', () => {
    const r = estimateBatchCost({ jobs: 10, reportedCosts: [0.01, 0.03, 0.02] })!;
    assert.deepEqual([r.lowUsd, r.highUsd], [0.1, 0.3]);
  });
  test('nothing to base it on: no range rather than a made-up one', () => {
    assert.equal(estimateBatchCost({ jobs: 10, price }), undefined);
    assert.equal(estimateBatchCost({ jobs: 10, durations }), undefined);
  });
});

describe('BatchGuards', () => {
  test('the batch limit trips before a send whose committed cost (spent + in flight + this job) would pass it', () => {
    const g = new BatchGuards({ maxUsd: 0.01 });
    assert.equal(g.beforeSend(0, 0.006, 0.004), undefined, 'exactly at the limit: sent');
    assert.equal(g.beforeSend(0, 0.006, 0.0041)?.kind, 'spend');
    assert.equal(g.noteEnd(0, 0.02, false, undefined), undefined, 'an end never trips money: the next send does');
  });
  test('the hourly limit counts only the last 60 minutes, every attempt in it', () => {
    const g = new BatchGuards({ maxUsdPerHour: 0.01 });
    g.noteEnd(0, 0.008, false, undefined);
    assert.equal(g.beforeSend(1, 0, 0.003)?.kind, 'spendPerHour');
    assert.equal(g.beforeSend(3_600_001, 0, 0.003), undefined, 'the first one is out of the window');
    g.noteEnd(3_600_002, 0.004, false, undefined);
    g.noteEnd(3_600_003, 0.004, false, undefined);
    assert.equal(g.beforeSend(3_600_004, 0, 0.003)?.kind, 'spendPerHour', 'two attempts of one job both count');
  });
  test('the next job\'s estimate: the mean of the priced jobs, else the price x the learned time, else 0', () => {
    assert.equal(nextJobUsd({ priced: 2, pricedUsd: 0.006 }, undefined, undefined), 0.003);
    assert.equal(nextJobUsd({ priced: 0, pricedUsd: 0 }, { usdPerSecond: 0.001, source: 't' }, { executionMs: 2000 }), 0.002);
    assert.equal(nextJobUsd({ priced: 0, pricedUsd: 0 }, undefined, { executionMs: 2000 }), 0);
  });
  test('N failures in a row trip with their reasons; a success in between starts the count again', () => {
    const g = new BatchGuards({ failureStreak: 3 });
    g.noteEnd(0, 0, true, 'CUDA out of memory');
    g.noteEnd(0, 0, true, 'CUDA out of memory');
    assert.equal(g.noteEnd(0, 0, false, undefined), undefined);
    g.noteEnd(0, 0, true, 'a');
    g.noteEnd(0, 0, true, 'b');
    const trip = g.noteEnd(0, 0, true, 'b');
    assert.equal(trip?.kind, 'failures');
    assert.match(trip!.message, /^3 jobs failed in a row: a; b$/);
    // Resumed by the user: it takes three more in a row, not the next one.
    g.resumed();
    assert.equal(g.noteEnd(0, 0, true, 'c'), undefined);
    assert.equal(g.noteEnd(0, 0, true, 'c'), undefined);
    assert.equal(g.noteEnd(0, 0, true, 'c')?.kind, 'failures');
  });
  test('a limit under a cent is said with its digits, not as $0.00', () => {
    assert.match(new BatchGuards({ maxUsd: 0.00017 }).beforeSend(0, 0.0002, 0)!.message, /spend limit of \$0\.00017\.$/);
    assert.match(new BatchGuards({ maxUsdPerHour: 2.5 }).beforeSend(0, 0, 3)!.message, /limit of \$2\.50 per hour\.$/);
  });
});

describe('defaultConcurrency', () => {
  test('twice the workers that can run, at least 1, at most 64', () => {
    assert.equal(defaultConcurrency(4), 8);
    assert.equal(defaultConcurrency(0), 2);
    assert.equal(defaultConcurrency(undefined), 2);
    assert.equal(defaultConcurrency(100), 64);
    const health = { workers: { idle: 0, initializing: 0, ready: 0, running: 1, throttled: 1, unhealthy: 1 } };
    assert.equal(defaultConcurrency(4, health), 4);
  });
});

// Live health in the Endpoints view: the words (src/endpoints/healthText.ts) and when to look again
// (healthPlan.ts), in plain Node.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HealthResponse } from '../../../src/core/runtime/schemas';
import { endpointsToPoll, HEALTH_POLL_LOW_QUOTA_MS, HEALTH_POLL_MS, nextHealthPollMs } from '../../../src/endpoints/healthPlan';
import { healthSummary, healthTooltip, isBusy, type HealthLook } from '../../../src/endpoints/healthText';

function health(workers: Partial<HealthResponse['workers']> = {}, jobs: Partial<HealthResponse['jobs']> = {}): HealthResponse {
  return HealthResponse.parse({ workers, jobs });
}
const look = (h: HealthResponse): HealthLook => ({ health: h, at: Date.parse('2026-06-15T12:00:03Z') });

describe('endpoint health words', () => {
  test('workers by status and the jobs waiting, only what there is', () => {
    assert.equal(healthSummary(health({ running: 2, initializing: 1 }, { inQueue: 3, inProgress: 2 })), '2 running · 1 starting · 3 in queue');
    assert.equal(healthSummary(health({ idle: 1 })), '1 idle');
    assert.equal(healthSummary(health({ throttled: 1, unhealthy: 2 })), '1 throttled · 2 unhealthy');
    assert.equal(healthSummary(health()), '');
  });

  test('jobs in progress show when no running worker says so', () => {
    assert.equal(healthSummary(health({}, { inProgress: 2 })), '2 in progress');
  });

  test('busy: queued or running jobs, starting or running workers; idle workers alone are not', () => {
    assert.equal(isBusy(health({ idle: 3 })), false);
    assert.equal(isBusy(health({ initializing: 1 })), true);
    assert.equal(isBusy(health({}, { inQueue: 1 })), true);
    assert.equal(isBusy(health({ running: 1 })), true);
  });

  test('the tooltip has every count and the time of the look', () => {
    assert.equal(healthTooltip(look(health({ running: 1, idle: 2 }, { inQueue: 4, inProgress: 1, completed: 7, failed: 1 }))),
      'Workers: 1 running, 2 idle, 0 initializing, 0 throttled, 0 unhealthy\nJobs: 4 in queue, 1 in progress, 7 completed, 1 failed\nHealth as of 12:00:03 UTC');
  });
});

describe('when to look at health again', () => {
  test('only endpoints busy at the last look, or running a job of ours, and only among those watched', () => {
    const looks = new Map([['busy', look(health({}, { inQueue: 1 }))], ['idle', look(health({ idle: 1 }))], ['unwatched', look(health({ running: 1 }))]]);
    assert.deepEqual(endpointsToPoll(['busy', 'idle', 'ours', 'never'], looks, new Set(['ours', 'elsewhere'])), ['busy', 'ours']);
    assert.deepEqual(endpointsToPoll(['idle'], looks, new Set()), []);
  });

  test('a few seconds apart; an exhausted window waits for its reset; a low one slows to the slow beat', () => {
    const now = 1_000_000;
    assert.equal(nextHealthPollMs({}, now), HEALTH_POLL_MS);
    assert.equal(nextHealthPollMs({ minute: { window: 'minute', remaining: 500, quota: 600, resetAt: now + 30_000 } }, now), HEALTH_POLL_MS);
    assert.equal(nextHealthPollMs({ minute: { window: 'minute', remaining: 0, quota: 600, resetAt: now + 42_000 } }, now), 42_000);
    assert.equal(nextHealthPollMs({ hour: { window: 'hour', remaining: 50, quota: 20_000, resetAt: now + 600_000 } }, now), HEALTH_POLL_LOW_QUOTA_MS);
    assert.equal(nextHealthPollMs({ day: { window: 'day', remaining: 5, resetAt: now + 600_000 } }, now), HEALTH_POLL_LOW_QUOTA_MS);
    // A window whose reset has passed says nothing any more.
    assert.equal(nextHealthPollMs({ minute: { window: 'minute', remaining: 0, quota: 600, resetAt: now - 1 } }, now), HEALTH_POLL_MS);
  });
});

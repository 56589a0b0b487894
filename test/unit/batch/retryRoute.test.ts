// Which failed rows Retry Failed sends through /retry (same id) and which it submits anew (src/core/batch/retryRoute.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { retryableOnService } from '../../../src/core/batch/retryRoute';

const now = Date.parse('2026-11-26T01:00:00Z');
const min = 60_000;

describe('Retry Failed: /retry or a new /run', () => {
  test('a failed job ended within the 30 minutes the service keeps it goes through /retry', () => {
    assert.equal(retryableOnService({ jobId: 'j', endedAt: now - 29 * min, status: 'FAILED' }, now), true);
    assert.equal(retryableOnService({ jobId: 'j', endedAt: now - 1000, status: 'TIMED_OUT' }, now), true);
  });

  test('past the retention, without an id or an end, or a REJECTED input: submitted anew', () => {
    assert.equal(retryableOnService({ jobId: 'j', endedAt: now - 30 * min, status: 'FAILED' }, now), false);
    assert.equal(retryableOnService({ endedAt: now - min, status: 'FAILED' }, now), false);
    assert.equal(retryableOnService({ jobId: 'j', status: 'FAILED' }, now), false);
    assert.equal(retryableOnService({ jobId: 'j', endedAt: now - min, status: 'REJECTED' }, now), false);
  });
});

// The engine's waiting line (src/emulator/jobs/waitingLine.ts): first in first out, the hand-off delay, ttl
// expiry in the order the ttls run out (not the queue order), low-priority jobs only with room to spare, and
// entries left behind by a cancel or a retry never coming back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EmulatedJob } from '../../../src/emulator/jobs/job';
import { WaitingLine } from '../../../src/emulator/jobs/waitingLine';

let n = 0;
function aJob(queuedAtMs: number, extra: Partial<EmulatedJob> = {}): EmulatedJob {
  return {
    id: `job-${n++}`, queuedAtMs, expiresAtMs: queuedAtMs + 86_400_000, lowPriority: false, phase: 'queued',
    executionMs: 10, executionTimeoutMs: 0, retentionMs: 0, retries: 0, streamCursor: 0, input: {}, policy: {},
    ...extra,
  } as EmulatedJob;
}

/** Takes like the engine does: the job leaves the line running. */
function take(line: WaitingLine, t: number, freeSlots = 1, accept = (_j: EmulatedJob) => true): EmulatedJob | undefined {
  const job = line.take(t, freeSlots, accept);
  if (job) job.phase = 'running';
  return job;
}

describe('WaitingLine', () => {
  test('jobs come out first in, first out, each once, and only queueMs after they were queued', () => {
    const line = new WaitingLine(1000);
    const jobs = [aJob(0), aJob(10), aJob(20)];
    for (const j of jobs) line.add(j);
    assert.equal(take(line, 999), undefined, 'not visible before the hand-off');
    assert.equal(line.nextEventAfter(999), 1000);
    assert.equal(take(line, 1000), jobs[0]);
    assert.equal(line.nextEventAfter(1000), 1010);
    assert.equal(take(line, 5000), jobs[1]);
    assert.equal(take(line, 5000), jobs[2]);
    assert.equal(take(line, 5000), undefined);
    assert.equal(line.count, 0);
  });

  test('ttls run out in their own order, and a job that left the line never expires from it', () => {
    const line = new WaitingLine(0);
    const long = aJob(0, { expiresAtMs: 30_000 });
    const short = aJob(1, { expiresAtMs: 10_000 });
    const cancelled = aJob(2, { expiresAtMs: 5_000 });
    for (const j of [long, short, cancelled]) line.add(j);
    line.remove(cancelled);
    cancelled.phase = 'ended';
    assert.equal(line.count, 2);
    assert.equal(line.nextEventAfter(2), 10_000, 'every job is visible by 2; the cancelled job\'s ttl (5 s) is no event');
    assert.equal(line.expiredBy(9_999), undefined);
    const first = line.expiredBy(10_000);
    assert.equal(first, short);
    short.phase = 'ended';
    assert.equal(line.expiredBy(10_000), undefined);
    assert.equal(line.count, 1);
    assert.equal(take(line, 10_000), long, 'the expired job is skipped at the head');
  });

  test('a retried job has one live entry: the stale one from its first run is skipped', () => {
    const line = new WaitingLine(0);
    const job = aJob(0);
    line.add(job);
    assert.equal(take(line, 0), job);
    job.phase = 'ended';
    Object.assign(job, { queuedAtMs: 50, expiresAtMs: 50 + 86_400_000 });
    job.phase = 'queued';
    line.add(job);
    const other = aJob(60);
    line.add(other);
    assert.equal(line.count, 2);
    assert.equal(take(line, 100), job);
    assert.equal(take(line, 100), other);
    assert.equal(take(line, 100), undefined);
  });

  test('a low-priority job is taken only when free workers outnumber the normal jobs waiting', () => {
    const line = new WaitingLine(1000);
    const low = aJob(0, { lowPriority: true });
    const normal = aJob(500);
    line.add(low);
    line.add(normal);
    assert.equal(line.normalCount, 1);
    assert.equal(take(line, 1200, 1), undefined, 'one free worker is the one the (not yet visible) normal job waits for');
    assert.equal(take(line, 1200, 2), low, 'with two, one is spare');
    assert.equal(take(line, 1500, 1), normal);
  });

  test('a worker may refuse a job (it still holds its earlier run): the next visible one is taken, the refused one stays', () => {
    const line = new WaitingLine(0);
    const held = aJob(0);
    const next = aJob(1);
    line.add(held);
    line.add(next);
    assert.equal(take(line, 10, 1, (j) => j !== held), next);
    assert.equal(take(line, 10), held);
  });

  test('thousands of jobs: purge drains them in order and the line is empty after', () => {
    const line = new WaitingLine(0);
    const jobs = Array.from({ length: 5000 }, (_, i) => aJob(i));
    for (const j of jobs) line.add(j);
    for (let i = 0; i < 2000; i++) assert.equal(take(line, 10_000), jobs[i]);
    const rest = line.drain();
    assert.deepEqual(rest.map((j) => j.id), jobs.slice(2000).map((j) => j.id));
    assert.equal(line.count, 0);
    assert.equal(line.expiredBy(Number.MAX_SAFE_INTEGER), undefined);
  });
});

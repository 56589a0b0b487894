import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { systemClock, type Clock } from '../../../src/core/http/clock';
import { CancelledError, NotFoundError, ServerError } from '../../../src/core/http/errors';
import { JobDurationModel, durationKey, runJob, waitForJob } from '../../../src/core/jobs';
import type { Job } from '../../../src/core/schemas';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import { hang, json, problem, rejection, scriptedServers, type RawReply, type Reply, type ScriptedServer } from '../support/scriptedServer';

const serve = scriptedServers();
/** These tests follow a service without status-sync (SPEC 4 only); the long poll has its own tests below. */
const polling = new RouteSupport({ statusSync: 'no' });
const clientOf = (s: ScriptedServer) => createServiceClient({ billingBaseUrl: s.url, jobsBaseUrl: s.url, apiKey: 'k-123456789' }, { random: () => 0 });

/** Real timers, but every planned wait is cut to a few ms (the plan itself is tested in pollPlan.test.ts). */
function quickClock(planned: number[] = []): Clock {
  return { now: () => Date.now(), sleep: (ms, signal) => { planned.push(ms); return systemClock.sleep(Math.min(ms, 5), signal); } };
}
const job = (status: string, extra: Record<string, unknown> = {}): Reply => json({ id: 'job-1', status, ...extra });

describe('waitForJob reaches every terminal state', () => {
  const terminals: [string, Record<string, unknown>][] = [
    ['COMPLETED', { output: [{ image_url: 'data:image/png;base64,AA', seed: 1 }], delayTime: 10, executionTime: 20 }],
    ['FAILED', { error: 'CUDA out of memory' }],
    ['CANCELLED', {}],
    ['TIMED_OUT', {}],
  ];
  for (const [status, extra] of terminals) {
    test(`${status}: returns the job and reports each status change once`, async () => {
      const server = await serve([job('IN_QUEUE'), job('IN_QUEUE'), job('IN_PROGRESS', { delayTime: 10 }), job('RUNNING'), job(status, extra)]);
      const updates: string[] = [];
      const result = await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(), durations: new JobDurationModel(), onUpdate: (j) => updates.push(j.status) });
      assert.equal(result.status, status);
      if (status === 'FAILED') assert.equal(result.error, 'CUDA out of memory');
      assert.deepEqual(updates, ['IN_QUEUE', 'IN_PROGRESS', 'RUNNING', status]);
      assert.equal(server.requests.length, 5);
      assert.ok(server.requests.every((r) => r.method === 'GET' && r.url === '/v2/ep/status/job-1'));
    });
  }

  test('an unknown status is shown and waited through', async () => {
    const server = await serve([job('WARMING_UP'), job('COMPLETED')]);
    const updates: string[] = [];
    await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(), onUpdate: (j) => updates.push(j.status) });
    assert.deepEqual(updates, ['WARMING_UP', 'COMPLETED']);
  });

  test('a job just submitted is first asked about one beat later, not at once', async () => {
    const server = await serve([job('COMPLETED')]);
    const planned: number[] = [];
    await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(planned), durations: new JobDurationModel(), submittedAt: Date.now() });
    assert.equal(planned.length, 1);
    assert.ok(planned[0]! > 800, `first poll planned after ${planned[0]} ms`);
  });

  test('a resumed wait for a job submitted long ago asks at once', async () => {
    const server = await serve([job('COMPLETED')]);
    const planned: number[] = [];
    await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(planned), submittedAt: Date.now() - 10 * 60_000 });
    assert.deepEqual(planned, []);
    assert.equal(server.requests.length, 1);
  });

  test('a terminal initial job is returned without any request', async () => {
    const server = await serve([job('COMPLETED')]);
    const initial: Job = { id: 'job-1', status: 'FAILED', error: 'x' };
    assert.equal(await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, initial }), initial);
    assert.equal(server.requests.length, 0);
  });

  test('a cancelled, failed or timed-out job teaches nothing: its times are not how long the endpoint\'s jobs take', async () => {
    const durations = new JobDurationModel();
    for (const status of ['CANCELLED', 'FAILED', 'TIMED_OUT']) {
      const server = await serve([job(status, { delayTime: 100, executionTime: 200 })]);
      await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(), durations });
      assert.equal(durations.estimate(durationKey(server.url, 'ep')), undefined, status);
    }
  });

  test('a finished job teaches the duration model of its endpoint', async () => {
    const server = await serve([job('COMPLETED', { delayTime: 300, executionTime: 1700 })]);
    const durations = new JobDurationModel();
    await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(), durations });
    const e = durations.estimate(durationKey(server.url, 'ep'));
    assert.equal(e?.executionMs, 1700);
    assert.equal(e?.queueMs, 300);
  });

  test('with a learned duration the next job is asked about just after its predicted end', async () => {
    const server = await serve([job('COMPLETED', { delayTime: 0, executionTime: 2000 })]);
    const durations = new JobDurationModel();
    for (let i = 0; i < 5; i++) durations.record(durationKey(server.url, 'ep'), 0, 2000);
    const planned: number[] = [];
    const submittedAt = Date.now();
    await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(planned), durations, initial: { id: 'job-1', status: 'IN_QUEUE' }, submittedAt });
    assert.equal(server.requests.length, 1);
    assert.equal(planned.length, 1);
    assert.ok(planned[0]! >= 1900 && planned[0]! <= 2100, `planned ${planned[0]} ms`);
  });
});

describe('waitForJob: jobs that vanish, fail to answer, or are cancelled', () => {
  test('a 404 for a job last seen running says the service lost it, not that its result expired', async () => {
    const server = await serve([job('IN_PROGRESS'), problem(404, 'job not found')]);
    const e = await rejection(waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock() }));
    assert.ok(e instanceof NotFoundError);
    assert.match(e.message, /was running when last seen/);
    assert.match(e.message, /lost the job/);
    assert.doesNotMatch(e.message, /expired/);
  });

  test('a 404 right after submission (the job was queued) says it was lost from the queue', async () => {
    const server = await serve([problem(404, 'job not found')]);
    const e = await rejection(waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(), initial: { id: 'job-1', status: 'IN_QUEUE' } }));
    assert.match(e.message, /was in its queue when last seen/);
  });

  test('a 404 for an id never seen is the plain not-found error', async () => {
    const server = await serve([problem(404, 'no such job')]);
    const e = await rejection(waitForJob(clientOf(server), 'ep', 'nope', { routeSupport: polling, clock: quickClock() }));
    assert.ok(e instanceof NotFoundError);
    assert.equal(e.message, 'no such job');
  });

  test('a few failed polls in a row are waited through', async () => {
    const drop: RawReply = { raw: (res) => res.socket?.destroy() };
    // Each status call is retried 4 times by the HTTP layer: 5 drops make one failed poll, then it recovers.
    const server = await serve([drop, drop, drop, drop, drop, job('COMPLETED')]);
    const result = await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock() });
    assert.equal(result.status, 'COMPLETED');
    assert.equal(server.requests.length, 6);
  });

  test('failing polls end the wait after the allowed number in a row', async () => {
    const server = await serve([problem(500, 'broken')]);
    const e = await rejection(waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock(), maxConsecutiveFailures: 2 }));
    assert.ok(e instanceof ServerError);
    assert.equal(server.requests.length, 2);
  });

  test('cancelling during the wait between polls ends it at once, with no further request', async () => {
    const server = await serve([job('IN_PROGRESS')]);
    const controller = new AbortController();
    // Real clock, and jobs of this endpoint are known to take a minute: the next poll is planned ~60 s away,
    // so an answer within the test's lifetime proves the wait was cut short rather than run out.
    const durations = new JobDurationModel();
    for (let i = 0; i < 3; i++) durations.record(durationKey(server.url, 'ep'), 0, 60_000);
    const pending = waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, signal: controller.signal, durations, submittedAt: Date.now() });
    await server.waitForRequests(1);
    await new Promise((r) => setTimeout(r, 30));
    const abortedAt = Date.now();
    controller.abort();
    const e = await rejection(pending);
    assert.ok(e instanceof CancelledError);
    assert.ok(Date.now() - abortedAt < 20_000, 'cancellation did not wait for the planned poll');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(server.requests.length, 1);
  });

  test('cancelling while a status request is in flight ends it with CancelledError', async () => {
    const server = await serve([hang]);
    const controller = new AbortController();
    const pending = waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    assert.ok((await rejection(pending)) instanceof CancelledError);
  });

  test('an exhausted rate-limit window holds the next poll until it resets', async () => {
    const server = await serve([job('IN_PROGRESS', {}), job('COMPLETED')].map((r, i) => (i === 0 ? { ...r, headers: { ...(r as Reply).headers, ratelimit: 'minute;r=0;t=1' } } : r)));
    const result = await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport: polling, clock: quickClock() });
    assert.equal(result.status, 'COMPLETED');
    const gap = server.requests[1]!.at - server.repliedAt[0]!;
    assert.ok(gap >= 1000, `polled again after ${gap} ms`);
  });
});

describe('runJob', () => {
  test('async: one /run, then /status until the end; onUpdate hears the submission first', async () => {
    const server = await serve((req) => (req.method === 'POST' ? json({ id: 'job-1', status: 'IN_QUEUE' }) : job(server.requests.length < 3 ? 'IN_PROGRESS' : 'COMPLETED')));
    const updates: string[] = [];
    const submitted: string[] = [];
    const result = await runJob(clientOf(server), 'ep', { prompt: 'x' }, { routeSupport: polling, mode: 'async', clock: quickClock(), onUpdate: (j) => updates.push(j.status), onSubmitted: (j) => submitted.push(j.id) });
    assert.equal(result.status, 'COMPLETED');
    assert.deepEqual(submitted, ['job-1']);
    assert.deepEqual(updates, ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED']);
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['POST /v2/ep/run', 'GET /v2/ep/status/job-1', 'GET /v2/ep/status/job-1']);
  });

  test('sync: a runsync answer that is not terminal continues by polling /status with the same id', async () => {
    const server = await serve((req) => (req.method === 'POST' ? json({ id: 'sync-42', status: 'IN_PROGRESS' }) : json({ id: 'sync-42', status: 'COMPLETED', output: { image_url: 'https://x/y.png' } })));
    const result = await runJob(clientOf(server), 'ep', { prompt: 'x' }, { routeSupport: polling, mode: 'sync', waitMs: 1000, clock: quickClock() });
    assert.equal(result.id, 'sync-42');
    assert.equal(result.status, 'COMPLETED');
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['POST /v2/ep/runsync?wait=1000', 'GET /v2/ep/status/sync-42']);
  });

  test('sync: a terminal runsync answer is returned with no status request', async () => {
    const server = await serve([json({ id: 'sync-1', status: 'COMPLETED', output: [] })]);
    const result = await runJob(clientOf(server), 'ep', {}, { routeSupport: polling, mode: 'sync' });
    assert.equal(result.status, 'COMPLETED');
    assert.equal(server.requests.length, 1);
  });

  test('a failed submission is not repeated', async () => {
    const server = await serve([problem(503, 'busy')]);
    assert.ok((await rejection(runJob(clientOf(server), 'ep', {}, { routeSupport: polling, mode: 'async' }))) instanceof ServerError);
    assert.equal(server.requests.length, 1);
  });
});

describe('waitForJob on a service with status-sync (the long poll)', () => {
  test('asks /status-sync with ?wait= at once and again until the end, with no pause between questions', async () => {
    // The first answer is held as a service does (the whole 1 s asked for), the second comes at the job's end.
    const server = await serve(async (_req, index) => {
      if (index === 0) await new Promise((r) => setTimeout(r, 1000));
      return index === 0 ? job('IN_PROGRESS') : job('COMPLETED', { executionTime: 12_000 });
    });
    const planned: number[] = [];
    const routeSupport = new RouteSupport();
    const result = await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport, clock: quickClock(planned), statusSyncWaitMs: 1000, initial: { id: 'job-1', status: 'IN_QUEUE' } });
    assert.equal(result.status, 'COMPLETED');
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['GET /v2/ep/status-sync/job-1?wait=1000', 'GET /v2/ep/status-sync/job-1?wait=1000']);
    assert.deepEqual(planned, [], 'the service holds each question: nothing is slept on our side');
    assert.equal(routeSupport.get(server.url, 'statusSync'), 'yes');
  });

  test('a job that shows a progress update is asked with a short hold from then on, so its next updates show', async () => {
    // Held as a service does: the whole wait asked for. Answer 1 carries the worker's progress_update.
    const server = await serve(async (req, index) => {
      const wait = Number(new URL(req.url ?? '', 'http://x').searchParams.get('wait'));
      await new Promise((r) => setTimeout(r, Math.min(wait, 2500)));
      if (index === 0) return job('IN_PROGRESS', { output: 'step 1 of 3' });
      if (index === 1) return job('IN_PROGRESS', { output: 'step 2 of 3' });
      return job('COMPLETED', { output: { done: true }, executionTime: 9000 });
    });
    const seen: unknown[] = [];
    const result = await waitForJob(clientOf(server), 'ep', 'job-1', {
      routeSupport: new RouteSupport(), clock: quickClock(), statusSyncWaitMs: 10_000, initial: { id: 'job-1', status: 'IN_QUEUE' },
      onUpdate: (j) => seen.push(j.output),
    });
    assert.equal(result.status, 'COMPLETED');
    assert.deepEqual(seen, ['step 1 of 3', 'step 2 of 3', { done: true }], 'every update reached the caller');
    assert.deepEqual(server.requests.map((r) => r.url), ['/v2/ep/status-sync/job-1?wait=10000', '/v2/ep/status-sync/job-1?wait=2000', '/v2/ep/status-sync/job-1?wait=2000'],
      'the full hold until the job showed progress, then 2 s holds');
  });

  test('a service without status-sync (404 on it, but /status knows the job) is learned once and polled from then on', async () => {
    const server = await serve((req, index) => (req.url.includes('/status-sync/') ? problem(404, 'no such route') : job(index === 1 ? 'IN_PROGRESS' : 'COMPLETED')));
    const routeSupport = new RouteSupport();
    const first = await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport, clock: quickClock() });
    assert.equal(first.status, 'COMPLETED');
    assert.equal(routeSupport.get(server.url, 'statusSync'), 'no');
    const before = server.requests.length;
    await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport, clock: quickClock() });
    assert.ok(server.requests.slice(before).every((r) => r.url === '/v2/ep/status/job-1'), 'the second job never tries status-sync again');
    assert.equal(server.requests.filter((r) => r.url.includes('/status-sync/')).length, 1);
  });

  test('a job unknown to both routes is a NotFoundError, and status-sync is not written off for it', async () => {
    const server = await serve(() => problem(404, 'no job'));
    const routeSupport = new RouteSupport();
    assert.ok((await rejection(waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport, clock: quickClock() }))) instanceof NotFoundError);
    assert.equal(routeSupport.get(server.url, 'statusSync'), 'unknown');
  });
});

describe('waitForJob when status-sync is not held (a proxy or service that ignores ?wait=)', () => {
  test('an unfinished answer that comes back at once is followed by the plan\'s pause, and after three the service is polled', async () => {
    // Every answer at once, unfinished, until the 8th request: without a floor this was >1,000 requests a second.
    const server = await serve((_req, index) => job(index >= 7 ? 'COMPLETED' : 'IN_PROGRESS'));
    const planned: number[] = [];
    const routeSupport = new RouteSupport();
    const result = await waitForJob(clientOf(server), 'ep', 'job-1', { routeSupport, clock: quickClock(planned), initial: { id: 'job-1', status: 'IN_QUEUE' } });
    assert.equal(result.status, 'COMPLETED');
    assert.equal(server.requests.length, 8);
    assert.equal(planned.length, 7, 'every question after an unheld answer waited for the plan');
    assert.ok(planned.every((ms) => ms >= 200), `pauses planned: ${planned.join(', ')} ms`);
    assert.equal(server.requests.filter((r) => r.url.includes('/status-sync/')).length, 3, 'three unheld long polls, then plain /status');
    assert.equal(routeSupport.get(server.url, 'statusSync'), 'no');
  });
});

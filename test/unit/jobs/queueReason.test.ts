// Why a queued job waits: the words for each health picture, and the watcher that asks /health only while
// told to, a few seconds apart, and never again on a service without the route.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { explainQueue, HealthAnswers, watchQueue, type QueueReason } from '../../../src/core/jobs/queueReason';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import { HealthResponse } from '../../../src/core/runtime/schemas';
import { json, problem, scriptedServers, type ScriptedServer } from '../support/scriptedServer';

const serve = scriptedServers();
const clientOf = (s: ScriptedServer) => createServiceClient({ billingBaseUrl: s.url, jobsBaseUrl: s.url, apiKey: 'k-health-1234' }, { random: () => 0 });

function health(workers: Partial<HealthResponse['workers']>, jobs: Partial<HealthResponse['jobs']> = {}): HealthResponse {
  return HealthResponse.parse({ workers, jobs });
}

describe('explainQueue', () => {
  test('a worker initializing is a cold start', () => {
    const r = explainQueue(health({ initializing: 1 }, { inQueue: 1 }));
    assert.equal(r.kind, 'coldStart');
    assert.match(r.text, /cold start/);
    assert.match(r.text, /1 worker initializing/);
  });

  test('every worker running and none idle: all busy, with how many jobs are ahead', () => {
    const r = explainQueue(health({ running: 2 }, { inQueue: 4, inProgress: 2 }));
    assert.equal(r.kind, 'allBusy');
    assert.match(r.text, /All 2 workers busy: 3 jobs ahead in the queue/);
    assert.match(explainQueue(health({ running: 2 }, { inQueue: 2, inProgress: 2 }), 2).text, /\(the endpoint's maximum is 2\): 1 job ahead/);
  });

  test('never "busy" when the read shows an idle worker, or a running one with no job in progress: no worker has taken the job yet', () => {
    // Issue 32: the panel said "All 1 worker busy: 0 jobs ahead in the queue" while the sidebar said "1 idle".
    const idle = explainQueue(health({ idle: 1, running: 1 }, { inQueue: 1, inProgress: 1 }));
    assert.equal(idle.kind, 'starting');
    assert.doesNotMatch(idle.text, /busy/);
    const between = explainQueue(health({ running: 1 }, { inQueue: 1, inProgress: 0 }));
    assert.equal(between.kind, 'notTaken');
    assert.equal(between.text, 'No worker has taken the job yet: 1 worker running, none idle, 0 jobs in progress.');
    assert.equal(explainQueue(health({ running: 3 }, { inQueue: 3, inProgress: 2 })).kind, 'notTaken');
    // Every health picture: "busy" only with no idle worker and a job in progress for each running one.
    for (let idleN = 0; idleN <= 2; idleN++) {
      for (let running = 0; running <= 3; running++) {
        for (let inProgress = 0; inProgress <= 4; inProgress++) {
          const r = explainQueue(health({ idle: idleN, running }, { inQueue: 2, inProgress }));
          const busy = /busy/.test(r.text);
          assert.equal(busy, idleN === 0 && running > 0 && inProgress >= running, `${idleN} idle, ${running} running, ${inProgress} in progress: ${r.text}`);
        }
      }
    }
  });

  test('no worker at all with max workers 0 known: none allowed', () => {
    const r = explainQueue(health({}, { inQueue: 3 }), 0);
    assert.equal(r.kind, 'noneAllowed');
    assert.match(r.text, /max workers is 0/);
  });

  test('no worker at all and the maximum unknown: says what health can tell, and what it cannot', () => {
    const r = explainQueue(health({}, { inQueue: 3 }));
    assert.equal(r.kind, 'noWorkers');
    assert.match(r.text, /No worker is running or starting/);
    assert.match(r.text, /does not say which/);
  });

  test('throttled workers and none running: throttled', () => {
    const r = explainQueue(health({ throttled: 2 }, { inQueue: 1 }));
    assert.equal(r.kind, 'throttled');
    assert.match(r.text, /Throttled: 2 workers waiting for a GPU/);
  });

  test('an idle worker: about to start', () => {
    assert.equal(explainQueue(health({ idle: 1 }, { inQueue: 1 })).kind, 'starting');
  });
});

describe('watchQueue', () => {
  test('asks /health after the first delay and then at the interval, until aborted', async () => {
    const server = await serve([json({ workers: { initializing: 1 }, jobs: { inQueue: 1 } }), json({ workers: { running: 1 }, jobs: { inQueue: 2, inProgress: 1 } })]);
    const reasons: QueueReason[] = [];
    const controller = new AbortController();
    const done = watchQueue(clientOf(server), 'ep', {
      signal: controller.signal, firstAfterMs: 50, intervalMs: 150, routeSupport: new RouteSupport(), answers: new HealthAnswers(),
      onReason: (r) => {
        reasons.push(r);
        if (reasons.length === 2) controller.abort();
      },
    });
    await done;
    assert.deepEqual(reasons.map((r) => r.kind), ['coldStart', 'allBusy']);
    assert.deepEqual(server.requests.map((r) => r.url), ['/v2/ep/health', '/v2/ep/health']);
    const gap = server.requests[1]!.at - server.requests[0]!.at;
    assert.ok(gap >= 140, `a few seconds apart (here 150 ms): ${gap} ms`);
  });

  test('a service without /health is learned once and not asked again', async () => {
    const server = await serve([problem(404, 'no route')]);
    const routes = new RouteSupport();
    const client = clientOf(server);
    const reasons: QueueReason[] = [];
    await watchQueue(client, 'ep', { signal: new AbortController().signal, firstAfterMs: 0, routeSupport: routes, answers: new HealthAnswers(), onReason: (r) => reasons.push(r) });
    assert.equal(routes.get(server.url, 'health'), 'no');
    await watchQueue(client, 'ep', { signal: new AbortController().signal, firstAfterMs: 0, routeSupport: routes, answers: new HealthAnswers(), onReason: (r) => reasons.push(r) });
    assert.equal(server.requests.length, 1);
    assert.deepEqual(reasons, []);
  });

  test('with no worker at all it asks the endpoint for its max workers, once, to say "none allowed"', async () => {
    const server = await serve([json({ workers: {}, jobs: { inQueue: 1 } })]);
    const reasons: QueueReason[] = [];
    const controller = new AbortController();
    let asked = 0;
    await watchQueue(clientOf(server), 'ep', {
      signal: controller.signal, firstAfterMs: 0, intervalMs: 20, routeSupport: new RouteSupport(), answers: new HealthAnswers(),
      maxWorkers: async () => { asked++; return 0; },
      onReason: (r) => { reasons.push(r); if (reasons.length === 3) controller.abort(); },
    });
    assert.equal(asked, 1);
    assert.deepEqual(reasons.map((r) => r.kind), ['noneAllowed', 'noneAllowed', 'noneAllowed']);
  });

  test('a newer read of the endpoint by another reader (the Endpoints view) is told at once: the reason follows the latest read', async () => {
    const busy = { workers: { running: 1 }, jobs: { inQueue: 1, inProgress: 1 } };
    const server = await serve(() => json(busy));
    const client = clientOf(server);
    const answers = new HealthAnswers();
    const controller = new AbortController();
    const reasons: QueueReason[] = [];
    const done = watchQueue(client, 'ep', { signal: controller.signal, firstAfterMs: 0, intervalMs: 60_000, routeSupport: new RouteSupport(), answers, onReason: (r) => reasons.push(r) });
    while (reasons.length === 0) await new Promise((r) => setTimeout(r, 10));
    assert.equal(reasons.at(-1)!.kind, 'allBusy');
    // The sidebar read the same endpoint a moment later: its worker is idle now.
    answers.publish(client, 'ep', health({ idle: 1 }, { inQueue: 1 }), Date.now());
    assert.equal(reasons.at(-1)!.kind, 'starting', 'told in the same turn, not at the next interval');
    // Another endpoint's read, or another service's, changes nothing.
    answers.publish(client, 'other', health({ running: 1 }, { inQueue: 1, inProgress: 1 }), Date.now());
    assert.equal(reasons.at(-1)!.kind, 'starting');
    controller.abort();
    await done;
    const before = reasons.length;
    answers.publish(client, 'ep', health({ running: 1 }, { inQueue: 1, inProgress: 1 }), Date.now());
    assert.equal(reasons.length, before, 'nothing is told once the watch ended');
    assert.equal(server.requests.length, 1);
  });

  test('the queued jobs of one endpoint share its health answers: ten waiting jobs, one request per interval', async () => {
    const server = await serve(() => json({ workers: { running: 3 }, jobs: { inQueue: 10 } }));
    const client = clientOf(server);
    const answers = new HealthAnswers();
    const routes = new RouteSupport();
    const controller = new AbortController();
    const heard: number[] = [];
    const watchers = Array.from({ length: 10 }, (_, i) => watchQueue(client, 'ep', {
      signal: controller.signal, firstAfterMs: 10, intervalMs: 200, routeSupport: routes, answers, onReason: () => heard.push(i),
    }));
    await new Promise((r) => setTimeout(r, 500));
    controller.abort();
    await Promise.all(watchers);
    assert.ok(new Set(heard).size === 10, 'every job heard why it waits');
    assert.ok(server.requests.length <= 4, `${server.requests.length} health requests for ten jobs in 0.5 s`);
  });
});

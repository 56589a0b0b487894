// Cancel and retry against a real local server: what each sends, and how a service without the routes is
// told apart from a job the service does not know (a 404 means either; /status decides, and it is learned).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { NotFoundError, ValidationError } from '../../../src/core/http/errors';
import { cancelJob, retryJob } from '../../../src/core/jobs/jobControl';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import { json, problem, rejection, scriptedServers, type ScriptedServer } from '../support/scriptedServer';

const serve = scriptedServers();
const clientOf = (s: ScriptedServer) => createServiceClient({ billingBaseUrl: s.url, jobsBaseUrl: s.url, apiKey: 'k-control-1234' }, { random: () => 0 });
const calls = (s: ScriptedServer) => s.requests.map((r) => `${r.method} ${r.url}`);

describe('cancelJob', () => {
  test('POSTs /cancel and reports what the service answered; the route is learned as present', async () => {
    const server = await serve([json({ id: 'j1', status: 'CANCELLED', delayTime: 10, executionTime: 1200 })]);
    const routes = new RouteSupport();
    const outcome = await cancelJob(clientOf(server), 'ep', 'j1', { routeSupport: routes });
    assert.deepEqual(outcome, { kind: 'cancelled', response: { id: 'j1', status: 'CANCELLED', delayTime: 10, executionTime: 1200 } });
    assert.deepEqual(calls(server), ['POST /v2/ep/cancel/j1']);
    assert.equal(routes.get(server.url, 'cancel'), 'yes');
  });

  for (const status of [404, 405, 501]) {
    test(`a ${status} on /cancel for a job /status knows means no cancel route: said, learned, and not asked again`, async () => {
      const server = await serve((req) => (req.url.includes('/cancel/') ? problem(status, 'no such route') : json({ id: 'j1', status: 'IN_PROGRESS' })));
      const routes = new RouteSupport();
      const client = clientOf(server);
      const first = await cancelJob(client, 'ep', 'j1', { routeSupport: routes });
      assert.equal(first.kind, 'noRoute');
      assert.deepEqual(calls(server), ['POST /v2/ep/cancel/j1', 'GET /v2/ep/status/j1']);
      assert.equal(routes.get(server.url, 'cancel'), 'no');
      assert.deepEqual(await cancelJob(client, 'ep', 'j2', { routeSupport: routes }), { kind: 'noRoute' });
      assert.equal(server.requests.length, 2, 'nothing sent once the route is known to be missing');
    });
  }

  test('a 404 for a job /status does not know either is the job\'s 404, thrown, and nothing is learned', async () => {
    const server = await serve([problem(404, 'no job j9 here'), problem(404, 'no job j9 here')]);
    const routes = new RouteSupport();
    const e = await rejection(cancelJob(clientOf(server), 'ep', 'j9', { routeSupport: routes }));
    assert.ok(e instanceof NotFoundError);
    assert.equal(routes.get(server.url, 'cancel'), 'unknown');
  });

  test('a 404 for a job that has already ended is not proof of a missing route: it says the job ended', async () => {
    const server = await serve((req) => (req.url.includes('/cancel/') ? problem(404, 'gone') : json({ id: 'j1', status: 'COMPLETED' })));
    const routes = new RouteSupport();
    const outcome = await cancelJob(clientOf(server), 'ep', 'j1', { routeSupport: routes });
    assert.equal(outcome.kind, 'alreadyEnded');
    assert.equal(routes.get(server.url, 'cancel'), 'unknown');
  });

  test('once the route is known to exist, a 404 is the job\'s and is thrown without a /status check', async () => {
    const server = await serve([json({ id: 'j1', status: 'CANCELLED' }), problem(404, 'no job')]);
    const routes = new RouteSupport();
    const client = clientOf(server);
    await cancelJob(client, 'ep', 'j1', { routeSupport: routes });
    assert.ok((await rejection(cancelJob(client, 'ep', 'j2', { routeSupport: routes }))) instanceof NotFoundError);
    assert.equal(server.requests.length, 2);
  });
});

describe('retryJob', () => {
  test('POSTs /retry and reports the job queued again', async () => {
    const server = await serve([json({ id: 'j1', status: 'IN_QUEUE' })]);
    const outcome = await retryJob(clientOf(server), 'ep', 'j1', { routeSupport: new RouteSupport() });
    assert.deepEqual(outcome, { kind: 'retried', response: { id: 'j1', status: 'IN_QUEUE' } });
    assert.deepEqual(calls(server), ['POST /v2/ep/retry/j1']);
  });

  test('a 405 for a job /status knows means no retry route', async () => {
    const server = await serve((req) => (req.url.includes('/retry/') ? problem(405, 'method not allowed') : json({ id: 'j1', status: 'FAILED' })));
    const outcome = await retryJob(clientOf(server), 'ep', 'j1', { routeSupport: new RouteSupport() });
    assert.equal(outcome.kind, 'noRoute');
  });

  test('a 400 (the job is not FAILED or TIMED_OUT) is the service\'s word, thrown as is', async () => {
    const server = await serve([problem(400, 'job j1 is COMPLETED; only FAILED or TIMED_OUT jobs can be retried')]);
    const e = await rejection(retryJob(clientOf(server), 'ep', 'j1', { routeSupport: new RouteSupport() }));
    assert.ok(e instanceof ValidationError);
    assert.match(e.message, /only FAILED or TIMED_OUT/);
  });
});

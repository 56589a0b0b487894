// The job-control and endpoint-list calls of the service client, against a real local server: the route,
// method and body each sends, and what each reads back (leniently: counts the service leaves out read as 0).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { InvalidIdError, SchemaError, ServerError } from '../../../src/core/http/errors';
import { json, problem, rejection, scriptedServers, type ScriptedServer } from '../support/scriptedServer';

const serve = scriptedServers();
const KEY = 'k-runtime-123456';
const clientOf = (s: ScriptedServer) => createServiceClient({ billingBaseUrl: `${s.url}/billing`, jobsBaseUrl: s.url, apiKey: KEY }, { random: () => 0 });

describe('job-control calls', () => {
  test('cancel and retry POST an empty body to their routes and read {id, status}', async () => {
    const server = await serve([json({ id: 'job-1', status: 'CANCELLED' }), json({ id: 'job-1', status: 'IN_QUEUE' })]);
    const client = clientOf(server);
    assert.deepEqual(await client.cancel('ep', 'job-1'), { id: 'job-1', status: 'CANCELLED' });
    assert.deepEqual(await client.retry('ep', 'job-1'), { id: 'job-1', status: 'IN_QUEUE' });
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`), ['POST /v2/ep/cancel/job-1 {}', 'POST /v2/ep/retry/job-1 {}']);
    assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`));
  });

  test('a cancel is never sent twice, even on a 503', async () => {
    const server = await serve([problem(503, 'busy'), json({ id: 'job-1', status: 'CANCELLED' })]);
    assert.ok((await rejection(clientOf(server).cancel('ep', 'job-1'))) instanceof ServerError);
    assert.equal(server.requests.length, 1);
  });

  test('health reads jobs and workers by state; a count the service leaves out reads 0', async () => {
    const server = await serve([json({ jobs: { completed: 3, failed: 1, inProgress: 2, inQueue: 5, retried: 0 }, workers: { idle: 1, running: 2, initializing: 1 } })]);
    const health = await clientOf(server).health('ep');
    assert.equal(server.requests[0]!.url, '/v2/ep/health');
    assert.equal(health.jobs.inQueue, 5);
    assert.equal(health.workers.running, 2);
    assert.equal(health.workers.throttled, 0);
    assert.equal(health.workers.unhealthy, 0);
  });

  test('purge-queue reads how many jobs were removed; an answer without the count is a schema error', async () => {
    const server = await serve([json({ removed: 4, status: 'completed' }), json({ status: 'completed' })]);
    const client = clientOf(server);
    assert.equal((await client.purgeQueue('ep')).removed, 4);
    assert.equal(server.requests[0]!.method, 'POST');
    assert.equal(server.requests[0]!.url, '/v2/ep/purge-queue');
    assert.ok((await rejection(client.purgeQueue('ep'))) instanceof SchemaError);
  });

  test('stream reads the chunks since the last call and the status', async () => {
    const server = await serve([json({ status: 'IN_PROGRESS', stream: [{ output: 'Hel' }, { output: 'lo' }] }), json({ status: 'COMPLETED' })]);
    const client = clientOf(server);
    const first = await client.stream('llama-chat', 'job-9');
    assert.deepEqual(first.stream.map((c) => c.output), ['Hel', 'lo']);
    const last = await client.stream('llama-chat', 'job-9');
    assert.equal(last.status, 'COMPLETED');
    assert.deepEqual(last.stream, []);
    assert.equal(server.requests[0]!.url, '/v2/llama-chat/stream/job-9');
  });

  test('status-sync clamps its wait to the 1-90 s the platform honours', async () => {
    const server = await serve([json({ id: 'j', status: 'COMPLETED' }), json({ id: 'j', status: 'COMPLETED' })]);
    const client = clientOf(server);
    await client.statusSync('ep', 'j', { waitMs: 200 });
    await client.statusSync('ep', 'j', { waitMs: 10 * 60_000 });
    assert.deepEqual(server.requests.map((r) => r.url), ['/v2/ep/status-sync/j?wait=1000', '/v2/ep/status-sync/j?wait=90000']);
  });

  test('run sends the documented request options beside input', async () => {
    const server = await serve([json({ id: 'job-1', status: 'IN_QUEUE' })]);
    await clientOf(server).run('ep', { prompt: 'x' }, { request: { policy: { executionTimeout: 5000, lowPriority: true }, webhook: 'http://127.0.0.1:9/hook' } });
    assert.deepEqual(JSON.parse(server.requests[0]!.body), { policy: { executionTimeout: 5000, lowPriority: true }, webhook: 'http://127.0.0.1:9/hook', input: { prompt: 'x' } });
  });
});

describe('endpoint list calls (billing base URL)', () => {
  test('list, one endpoint and its workers go to /v2/serverless on the billing base', async () => {
    const endpoint = {
      id: 'abc123', name: 'My SDXL', workers: { min: 0, max: 3, idleTimeout: 5 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
      dataCenterIds: [], networkVolumes: [], timeout: 600000, flashboot: 'OFF', createdAt: '2026-01-01T00:00:00Z',
    };
    const server = await serve([
      json({ endpoints: [endpoint] }),
      json(endpoint),
      json({ workers: [{ id: 'w1', status: 'RUNNING', isStale: false, gpuCount: 1 }], summary: { running: 1, idle: 0, initializing: 0, throttled: 0, unhealthy: 0, total: 1 } }),
    ]);
    const client = clientOf(server);
    assert.equal((await client.listEndpoints()).endpoints[0]!.name, 'My SDXL');
    assert.equal((await client.getEndpoint('abc123')).workers.max, 3);
    assert.equal((await client.listEndpointWorkers('abc123')).summary.running, 1);
    assert.deepEqual(server.requests.map((r) => r.url), ['/billing/v2/serverless', '/billing/v2/serverless/abc123', '/billing/v2/serverless/abc123/workers']);
  });
});

describe('ids in the job-control and endpoint-list routes (issue 12)', () => {
  test('a ".." endpoint or job id is refused with the reason, and nothing is sent', async () => {
    const server = await serve([json({ id: 'x', status: 'CANCELLED' })]);
    const client = clientOf(server);
    const calls: Array<() => Promise<unknown>> = [
      () => client.cancel('..', 'job-1'),
      () => client.retry('ep', '..'),
      () => client.health('..'),
      () => client.purgeQueue('a/b'),
      () => client.stream('ep', 'j?x'),
      () => client.statusSync('ep', '..'),
      () => client.getEndpoint('..'),
      () => client.listEndpointWorkers('..'),
    ];
    for (const call of calls) {
      // Rejected, not thrown: a caller that only attaches .catch() still hears of it.
      const e = await call().then(() => undefined, (err: unknown) => err);
      assert.ok(e instanceof InvalidIdError, `refused with InvalidIdError: ${String(e)}`);
    }
    assert.equal(server.requests.length, 0);
  });
});

// Issue 12, finding 4: a wait before a retry is never silent. The transport tells its listeners which route
// waits, why and until when, BEFORE it sleeps, so the tree, the status bar and a job's panel can count down.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { inlineBillingReader } from '../../../src/core/billing/inlineBillingReader';
import type { RetryWait } from '../../../src/core/http/request';
import { json, problem, scriptedServers } from '../support/scriptedServer';

const serve = scriptedServers();
const KEY = 'rpa_TESTKEY_0123456789';

describe('retry waits are announced (issue 12)', () => {
  test('a 429 with Retry-After on a status poll announces the route, the job, the reason and when the retry goes out', async () => {
    const job = { id: 'job-1', status: 'IN_PROGRESS' };
    const server = await serve([problem(429, 'minute limit', { headers: { 'retry-after': '1' } }), json(job)]);
    const client = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: KEY }, { random: () => 0 });
    const heard: { wait: RetryWait; requestsSoFar: number; at: number }[] = [];
    const off = client.onRetryWait((wait) => heard.push({ wait, requestsSoFar: server.requests.length, at: Date.now() }));
    assert.deepEqual(await client.status('sdxl-turbo', 'job-1'), job);
    off();
    assert.equal(heard.length, 1, JSON.stringify(heard));
    const [{ wait, requestsSoFar, at }] = heard as [(typeof heard)[number]];
    assert.deepEqual(wait.route, { kind: 'status', endpointId: 'sdxl-turbo', jobId: 'job-1' });
    assert.equal(wait.reason, 'rateLimited');
    assert.equal(wait.status, 429);
    assert.equal(requestsSoFar, 1, 'announced before the retry was sent');
    assert.ok(wait.until - at >= 900 && wait.until - at <= 1100, `until is about Retry-After from now: ${wait.until - at} ms`);
    assert.ok(server.requests[1]!.at >= wait.until - 5, 'the retry went out when announced');
  });

  test('a request held back because a window is used up is announced too, before anything is sent', async () => {
    const job = { id: 'job-1', status: 'IN_QUEUE' };
    const server = await serve([json(job, { ratelimit: '"minute";r=0;t=1' }), json(job)]);
    const client = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: KEY }, { random: () => 0 });
    const heard: { wait: RetryWait; requestsSoFar: number }[] = [];
    client.onRetryWait((wait) => heard.push({ wait, requestsSoFar: server.requests.length }));
    await client.status('ep', 'job-1');
    await client.run('ep', {});
    assert.deepEqual(heard.map((h) => [h.wait.route.kind, h.wait.reason, h.requestsSoFar]), [['run', 'quota', 1]]);
  });

  test('a 503 on billing is announced as the service being unavailable, on the billing route', async () => {
    const server = await serve([problem(503, 'busy', { headers: { 'retry-after': '0' } }), problem(400, 'stop here')]);
    const client = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: KEY }, { random: () => 0, billingReader: inlineBillingReader });
    const heard: RetryWait[] = [];
    client.onRetryWait((w) => heard.push(w));
    await assert.rejects(client.listBillingTable({ bucketSize: 'day', lastN: 1 }));
    assert.deepEqual(heard.map((w) => [w.route.kind, w.reason, w.status]), [['billing', 'unavailable', 503]]);
  });
});

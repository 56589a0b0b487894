import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { inlineBillingReader } from '../../../src/core/billing/inlineBillingReader';
import { BadQueryError, NetworkError, SchemaError, ServerError } from '../../../src/core/http/errors';
import type { Logger, LogLevel } from '../../../src/core/log';
import type { RateLimitSnapshot } from '../../../src/core/service';
import { aBillingResponse } from '../builders/billingResponse';
import { json, problem, rejection, scriptedServers, type ScriptedServer } from '../support/scriptedServer';

const KEY = 'rpa_CLIENTKEY_abcdefghijkl';
const serve = scriptedServers();
function clientOf(billing: ScriptedServer, jobs: ScriptedServer = billing, logger?: Logger) {
  return createServiceClient({ billingBaseUrl: billing.url, jobsBaseUrl: jobs.url, apiKey: KEY }, { random: () => 0, billingReader: inlineBillingReader, ...(logger ? { logger } : {}) });
}

describe('listBillingTable', () => {
  test('a bad query throws BadQueryError and sends nothing', async () => {
    const server = await serve([json({})]);
    const e = await rejection(clientOf(server).listBillingTable({ lastN: 0, startTime: '2026-01-01T00:00:00Z' }));
    assert.ok(e instanceof BadQueryError);
    assert.equal(e.errors.length, 2);
    assert.equal(server.requests.length, 0);
  });

  test('sends every parameter with the key and returns the records with no warnings', async () => {
    const body = aBillingResponse().withEndpoints(2).daily(3).build();
    const server = await serve([json(body)]);
    const result = await clientOf(server).listBillingTable({ bucketSize: 'day', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-04T00:00:00Z', serverlessId: 'ep' });
    const req = server.requests[0]!;
    assert.equal(req.method, 'GET');
    const url = new URL(req.url, server.url);
    assert.equal(url.pathname, '/v2/billing/serverless');
    assert.deepEqual(Object.fromEntries(url.searchParams), { startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-04T00:00:00Z', bucketSize: 'day', serverlessId: 'ep' });
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.equal(result.table.bucketOffsets[result.table.endpoints.length], 6);
    assert.deepEqual(result.warnings, []);
  });

  test('unknown extra fields of the response are no error', async () => {
    const body = aBillingResponse().withEndpoints(1).daily(1).build() as unknown as { records: Record<string, unknown>[]; metadata: Record<string, unknown> };
    body.records[0]!['region'] = 'EU';
    body.metadata['currency'] = 'USD';
    const server = await serve([json(body)]);
    const { table, warnings } = await clientOf(server).listBillingTable({});
    assert.equal(table.endpoints.length, 1);
    assert.deepEqual(warnings, []);
  });

  test('a client made without a billing reader refuses billing and sends nothing', async () => {
    const server = await serve([json({})]);
    const jobsOnly = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: KEY });
    await assert.rejects(jobsOnly.listBillingTable({ lastN: 1 }), /without a billing reader/);
    assert.equal(server.requests.length, 0);
  });

  test('an inconsistent response is returned with warnings, not an error', async () => {
    const body = aBillingResponse().withEndpoints(2).daily(2).build();
    body.metadata.recordCount = 5;
    const server = await serve([json(body)]);
    const result = await clientOf(server).listBillingTable({ lastN: 2 });
    assert.equal(result.table.bucketOffsets[result.table.endpoints.length], 4);
    assert.deepEqual(result.warnings, ['The service reports 5 records but sent 4.']);
  });

  test('a record with an impossible date is a SchemaError with its zod path', async () => {
    const body = aBillingResponse().withEndpoints(1).daily(3).build();
    body.records[2]!.startTime = '2027-02-29T00:00:00Z';
    const server = await serve([json(body)]);
    const e = await rejection(clientOf(server).listBillingTable({}));
    assert.ok(e instanceof SchemaError);
    assert.equal(e.path, 'records.2.startTime');
  });

  test('broken metadata is a SchemaError with its zod path', async () => {
    const body = aBillingResponse().withEndpoints(1).daily(1).build() as unknown as { metadata: { query: Record<string, unknown> } };
    body.metadata.query['bucketSize'] = 'fortnight';
    const server = await serve([json(body)]);
    const e = await rejection(clientOf(server).listBillingTable({}));
    assert.ok(e instanceof SchemaError);
    assert.equal(e.path, 'metadata.query.bucketSize');
  });
});

describe('jobs routes', () => {
  test('run posts {input} as JSON to the jobs origin and reads id and status', async () => {
    const billing = await serve([json({})]);
    const jobs = await serve([json({ id: 'job-1', status: 'IN_QUEUE' })]);
    const answer = await clientOf(billing, jobs).run('ep:1', { prompt: 'a cat' });
    assert.deepEqual(answer, { id: 'job-1', status: 'IN_QUEUE' });
    const req = jobs.requests[0]!;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/v2/ep%3A1/run', 'each id is one encoded path segment (an id with "/" is refused: test/unit/ids.test.ts)');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(req.body), { input: { prompt: 'a cat' } });
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.equal(billing.requests.length, 0);
  });

  test('run is not retried after a 503 or a dropped connection', async () => {
    const jobs = await serve([problem(503, 'overloaded', { headers: { 'retry-after': '0' } })]);
    assert.ok((await rejection(clientOf(jobs).run('ep', {}))) instanceof ServerError);
    assert.equal(jobs.requests.length, 1);
    const dropping = await serve([{ raw: (res) => res.socket?.destroy() }]);
    assert.ok((await rejection(clientOf(dropping).runSync('ep', {}))) instanceof NetworkError);
    assert.equal(dropping.requests.length, 1);
  });

  test('runSync passes ?wait= only when asked', async () => {
    const jobs = await serve([json({ id: 'sync-1', status: 'COMPLETED', output: [1] })]);
    const client = clientOf(jobs);
    assert.equal((await client.runSync('ep', { a: 1 })).status, 'COMPLETED');
    await client.runSync('ep', { a: 1 }, { waitMs: 5000 });
    assert.equal(jobs.requests[0]!.url, '/v2/ep/runsync');
    assert.equal(jobs.requests[1]!.url, '/v2/ep/runsync?wait=5000');
  });

  test('status reads a job leniently: extra states and fields are kept', async () => {
    const jobs = await serve([json({ id: 'j:1', status: 'TIMED_OUT', error: 'worker lost', extra: true })]);
    const job = await clientOf(jobs).status('ep', 'j:1');
    assert.equal(job.status, 'TIMED_OUT');
    assert.equal(job.error, 'worker lost');
    assert.equal((job as Record<string, unknown>)['extra'], true);
    assert.equal(jobs.requests[0]!.url, '/v2/ep/status/j%3A1');
  });

  test('a job without an id breaks the schema', async () => {
    const jobs = await serve([json({ status: 'COMPLETED' })]);
    const e = await rejection(clientOf(jobs).status('ep', 'x'));
    assert.ok(e instanceof SchemaError);
    assert.equal(e.path, 'id');
  });
});

describe('client-wide behaviour', () => {
  test('rateLimits and onRateLimits report the latest windows of any route', async () => {
    const server = await serve([json({ id: 'j', status: 'IN_QUEUE' }, { ratelimit: 'minute;r=9;t=60', 'ratelimit-policy': 'minute;q=10;w=60' })]);
    const client = clientOf(server);
    const seen: RateLimitSnapshot[] = [];
    client.onRateLimits((s) => seen.push(s));
    await client.run('ep', {});
    assert.equal(seen.length, 1);
    assert.equal(client.rateLimits.minute?.remaining, 9);
    assert.equal(client.rateLimits.minute?.quota, 10);
  });

  test('the key goes to the billing and jobs origins and nowhere else', async () => {
    const outsider = await serve([json({ id: 'j', status: 'COMPLETED' })]);
    const billing = await serve([{ status: 302, headers: { location: `${outsider.url}/stolen` } }]);
    const jobs = await serve([json({ id: 'j', status: 'COMPLETED' })]);
    const client = clientOf(billing, jobs);
    await client.status('ep', 'j');
    await rejection(client.listBillingTable({}));
    assert.equal(jobs.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(billing.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(outsider.requests.length, 1);
    assert.equal(outsider.requests[0]!.headers.authorization, undefined);
  });

  test('the logger never prints the key, even when requests fail', async () => {
    const lines: string[] = [];
    const levels: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];
    const sink = Object.fromEntries(levels.map((l) => [l, (...a: unknown[]) => lines.push(a.map(String).join(' '))])) as unknown as Logger;
    const server = await serve((req) => (req.url.includes('status') ? problem(401, `key ${KEY} rejected`) : problem(503, `echo Authorization: Bearer ${KEY}`)));
    const client = clientOf(server, server, sink);
    await rejection(client.status('ep', KEY));
    await rejection(client.listBillingTable({ serverlessId: KEY }));
    assert.ok(lines.length >= 4, `${lines.length} lines logged`);
    for (const line of lines) assert.ok(!line.includes(KEY), line);
  });

  test('a base URL that is not http(s) is refused when the client is made', () => {
    assert.throws(() => createServiceClient({ billingBaseUrl: 'file:///etc', jobsBaseUrl: 'https://x.test' }), /Not an http\(s\) URL/);
    assert.throws(() => createServiceClient({ billingBaseUrl: 'not a url', jobsBaseUrl: 'https://x.test' }), /Not a valid URL/);
  });

  test('a base URL with a path prefix keeps it', async () => {
    const server = await serve([json({ id: 'j', status: 'IN_QUEUE' })]);
    await createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: `${server.url}/proxy/` }).run('ep', {});
    assert.equal(server.requests[0]!.url, '/proxy/v2/ep/run');
  });
});

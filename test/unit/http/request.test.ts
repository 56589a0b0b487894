import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { createHttpTransport, type HttpRequest, type HttpTransportOptions } from '../../../src/core/http/request';
import { joinUrl } from '../../../src/core/http/url';
import {
  BodyTooLargeError, CancelledError, ForbiddenError, NetworkError, NotFoundError, RateLimitedError, SchemaError, ServerError, TimeoutError,
  UnauthorizedError, ValidationError, type ServiceError,
} from '../../../src/core/http/errors';
import { ListServerlessBillingResponse } from '../../../src/core/schemas';
import { hang, json, problem, rejection, scriptedServers, type ScriptedServer } from '../support/scriptedServer';

const KEY = 'rpa_TESTKEY_0123456789';
const Anything = z.unknown();

const serve = scriptedServers();

// requestViaFetch.test.ts runs this whole file again with the way every remote request goes (the global fetch),
// since the scripted servers are on 127.0.0.1, which otherwise goes through node's client (loopback.ts).
const directLoopback = process.env.SERVERLESS_GPU_TEST_VIA_FETCH !== '1';

function transportFor(server: ScriptedServer, extra: Partial<HttpTransportOptions> = {}) {
  // random 0: backoff waits are 0 ms, so retry tests do not sleep; Retry-After still applies in full.
  return createHttpTransport({ authorizedOrigins: [server.url], apiKey: KEY, random: () => 0, timeoutMs: 10_000, directLoopback, ...extra });
}

function get(server: ScriptedServer, path = '/v2/thing', extra: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url: joinUrl(server.url, path), idempotent: true, ...extra };
}
function post(server: ScriptedServer, path = '/v2/ep/run'): HttpRequest {
  return { method: 'POST', url: joinUrl(server.url, path), idempotent: false, body: { input: { prompt: 'x' } } };
}


describe('HTTP layer: answers become typed errors', () => {
  const cases: [number, new (...a: never[]) => ServiceError][] = [
    [400, ValidationError], [401, UnauthorizedError], [403, ForbiddenError], [404, NotFoundError], [413, ValidationError],
    [422, ValidationError], [429, RateLimitedError], [500, ServerError], [502, ServerError], [503, ServerError],
    [504, ServerError], [418, ServerError],
  ];
  for (const [status, type] of cases) {
    test(`${status} with problem+json gives ${type.name} with the server's detail`, async () => {
      const server = await serve([problem(status, `detail of ${status}`, { errors: ['input.width: must be an integer'] })]);
      // A POST is never retried, so one request shows the mapping of one answer.
      const e = await rejection(transportFor(server).send(post(server), Anything));
      assert.ok(e instanceof type, `${status} gave ${e.constructor.name}`);
      assert.equal(e.status, status);
      assert.equal(e.message, `detail of ${status}`);
      if (e instanceof ValidationError) assert.deepEqual(e.errors, ['input.width: must be an integer']);
      assert.equal(server.requests.length, 1);
    });

    test(`${status} with an HTML body from a proxy still gives ${type.name}`, async () => {
      const server = await serve([{ status, headers: { 'content-type': 'text/html' }, body: '<html><body>Bad gateway</body></html>' }]);
      const e = await rejection(transportFor(server).send(post(server), Anything));
      assert.ok(e instanceof type, `${status} gave ${e.constructor.name}`);
      assert.equal(e.status, status);
      assert.ok(!e.message.includes('<html>'), e.message);
      // The default message of the kind: the status for most, the wait for a 429.
      assert.match(e.message, status === 429 ? /retry in \d+ s/ : new RegExp(String(status)));
    });
  }

  test('a 429 carries the wait of Retry-After', async () => {
    const server = await serve([problem(429, 'minute limit exceeded', { headers: { 'retry-after': '17' } })]);
    const e = await rejection(transportFor(server).send(post(server), Anything));
    assert.ok(e instanceof RateLimitedError);
    assert.equal(e.retryAfterMs, 17_000);
  });

  test('a 429 without Retry-After takes its wait from the exhausted RateLimit window', async () => {
    const server = await serve([problem(429, 'hour limit exceeded', { headers: { ratelimit: 'minute;r=3;t=20, hour;r=0;t=42' } })]);
    const e = await rejection(transportFor(server).send(post(server), Anything));
    assert.ok(e instanceof RateLimitedError);
    assert.ok(e.retryAfterMs > 41_000 && e.retryAfterMs <= 42_000, String(e.retryAfterMs));
  });
});

describe('HTTP layer: bodies that break the schema', () => {
  test('a 2xx body that is not JSON is a SchemaError naming the content type', async () => {
    const server = await serve([{ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>login</html>' }]);
    const e = await rejection(transportFor(server).send(get(server), Anything));
    assert.ok(e instanceof SchemaError);
    assert.equal(e.path, '');
    assert.match(e.message, /not JSON/);
    assert.match(e.message, /text\/html/);
  });

  test('a body over maxBodyBytes is not read: refused by its Content-Length, or cut off as it streams in', async () => {
    const big = { data: 'x'.repeat(5000) };
    // Declared: refused on the headers. Chunked (no length): refused once the bytes read pass the limit.
    const server = await serve([
      json(big),
      { raw: (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"data":"'); res.write('x'.repeat(5000)); res.end('"}'); } },
      json(big),
    ]);
    const transport = transportFor(server);
    for (let i = 0; i < 2; i++) {
      const e = await rejection(transport.send(get(server, '/v2/thing', { maxBodyBytes: 1000, idempotent: false }), Anything));
      assert.ok(e instanceof BodyTooLargeError, `answer ${i}: ${e.name}`);
      assert.equal(e.maxBytes, 1000);
    }
    assert.deepEqual(await transport.send(get(server, '/v2/thing', { maxBodyBytes: 6000 }), Anything), big, 'under the limit it is read');
    assert.equal(server.requests.length, 3, 'not retried');
  });

  test('an empty 2xx body is a SchemaError', async () => {
    const server = await serve([{ status: 200 }]);
    const e = await rejection(transportFor(server).send(get(server), Anything));
    assert.ok(e instanceof SchemaError);
    assert.match(e.message, /empty/);
  });

  test('a field of the wrong type is reported with its zod path', async () => {
    const record = { startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-02T00:00:00Z', serverlessId: 'a', totalAmount: 1, gpuAmount: 1, cpuAmount: 0, diskAmount: 0, feeAmount: 0 };
    const body = {
      records: [record, { ...record, totalAmount: '1.0' }],
      metadata: { query: { startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-03T00:00:00Z', bucketSize: 'day' }, recordCount: 2, uniqueServerlessCount: 1, totals: { totalAmount: 2, gpuAmount: 2, cpuAmount: 0, diskAmount: 0, feeAmount: 0 } },
    };
    const server = await serve([json(body)]);
    const e = await rejection(transportFor(server).send(get(server), ListServerlessBillingResponse));
    assert.ok(e instanceof SchemaError);
    assert.equal(e.path, 'records.1.totalAmount');
    assert.match(e.message, /at records\.1\.totalAmount/);
    // zod's English message, not zod/mini's bare "Invalid input" (src/core/zodMessages.ts).
    assert.match(e.message, /expected number, received string/);
    assert.equal(e.status, 200);
  });
});

describe('HTTP layer: retries', () => {
  test('a GET is retried on 502, 503 and 504 and succeeds', async () => {
    const server = await serve([problem(502, 'a'), problem(503, 'b'), problem(504, 'c'), json({ ok: true })]);
    assert.deepEqual(await transportFor(server).send(get(server), Anything), { ok: true });
    assert.equal(server.requests.length, 4);
  });

  test('retries stop after maxAttempts and the last error is thrown', async () => {
    const server = await serve([problem(503, 'still down')]);
    const e = await rejection(transportFor(server, { retry: { maxAttempts: 3 } }).send(get(server), Anything));
    assert.ok(e instanceof ServerError);
    assert.equal(server.requests.length, 3);
  });

  test('a GET is not retried on 500, 400 or 404', async () => {
    for (const status of [500, 400, 404]) {
      const server = await serve([problem(status, 'no'), json({})]);
      await rejection(transportFor(server).send(get(server), Anything));
      assert.equal(server.requests.length, 1, String(status));
    }
  });

  test('a 429 waits out Retry-After before the next request', async () => {
    const server = await serve([problem(429, 'slow down', { headers: { 'retry-after': '1' } }), json({ ok: true })]);
    assert.deepEqual(await transportFor(server).send(get(server), Anything), { ok: true });
    assert.equal(server.requests.length, 2);
    const gap = server.requests[1]!.at - server.repliedAt[0]!;
    assert.ok(gap >= 1000, `second request came ${gap} ms after the 429 said to wait 1000 ms`);
  });

  test('a 503 with Retry-After is retried no sooner than it says, even though backoff alone would be 0', async () => {
    const server = await serve([problem(503, 'busy', { headers: { 'retry-after': '1' } }), json({ ok: 1 })]);
    await transportFor(server).send(get(server), Anything);
    assert.ok(server.requests[1]!.at - server.repliedAt[0]! >= 1000);
  });

  test('a Retry-After longer than the client will wait goes to the caller at once', async () => {
    const server = await serve([problem(429, 'day limit', { headers: { 'retry-after': '3600' } }), json({})]);
    const e = await rejection(transportFor(server).send(get(server), Anything));
    assert.ok(e instanceof RateLimitedError);
    assert.equal(e.retryAfterMs, 3_600_000);
    assert.equal(server.requests.length, 1);
  });

  test('backoff grows exponentially with full jitter, observed through an injected clock', async () => {
    const sleeps: number[] = [];
    // A clock that stands still: waits are exactly what the client decided, not less the time already spent.
    const clock = { now: () => 1_000_000, sleep: async (ms: number) => { sleeps.push(ms); } };
    const server = await serve([problem(503, 'x')]);
    // random just below 1: each wait is at the top of its range, so the ranges show.
    await rejection(transportFor(server, { clock, random: () => 0.999, retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 500 } }).send(get(server), Anything));
    assert.equal(server.requests.length, 5);
    assert.deepEqual(sleeps, [99, 199, 399, 499]);
  });
});

describe('HTTP layer: job submissions are never sent twice', () => {
  test('POST after a 503 is not retried', async () => {
    const server = await serve([problem(503, 'busy', { headers: { 'retry-after': '0' } }), json({ id: 'j', status: 'IN_QUEUE' })]);
    const e = await rejection(transportFor(server).send(post(server), Anything));
    assert.ok(e instanceof ServerError);
    assert.equal(server.requests.length, 1);
  });

  test('POST whose connection drops mid-response is not retried', async () => {
    const server = await serve([{
      raw: (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
        res.write('{"id":"job-1","sta', () => res.socket?.destroy());
      },
    }, json({ id: 'j2', status: 'IN_QUEUE' })]);
    const e = await rejection(transportFor(server).send(post(server), Anything));
    assert.ok(e instanceof NetworkError, e.constructor.name);
    assert.match(e.message, /127\.0\.0\.1/);
    assert.equal(server.requests.length, 1);
  });

  test('POST after a 429 is not retried', async () => {
    const server = await serve([problem(429, 'x', { headers: { 'retry-after': '0' } }), json({})]);
    await rejection(transportFor(server).send(post(server), Anything));
    assert.equal(server.requests.length, 1);
  });
});

describe('HTTP layer: dropped connections, timeouts, cancellation', () => {
  test('a GET whose connection drops mid-response is retried', async () => {
    const server = await serve([{
      raw: (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"ok":', () => res.socket?.destroy());
      },
    }, json({ ok: true })]);
    assert.deepEqual(await transportFor(server).send(get(server), Anything), { ok: true });
    assert.equal(server.requests.length, 2);
  });

  test('a refused connection is a NetworkError naming the host', async () => {
    const server = await serve([json({})]);
    const transport = transportFor(server, { retry: { maxAttempts: 2 } });
    await server.close();
    const e = await rejection(transport.send(get(server), Anything));
    assert.ok(e instanceof NetworkError);
    assert.equal(e.host, new URL(server.url).host);
    assert.match(e.message, /ECONNREFUSED/);
  });

  test('no answer within the timeout is a TimeoutError, not a cancellation', async () => {
    const server = await serve([hang]);
    const e = await rejection(transportFor(server, { timeoutMs: 300 }).send(post(server), Anything));
    assert.ok(e instanceof TimeoutError, e.constructor.name);
    assert.equal(server.requests.length, 1);
  });

  test('a GET that times out is not retried, and the error names the host', async () => {
    const server = await serve([hang, json({})]);
    const e = await rejection(transportFor(server, { timeoutMs: 200 }).send(get(server), Anything));
    assert.ok(e instanceof TimeoutError);
    assert.equal(e.host, new URL(server.url).host);
    assert.equal(server.requests.length, 1);
  });

  test('a per-call timeout overrides the default', async () => {
    const server = await serve([hang]);
    const e = await rejection(transportFor(server, { timeoutMs: 60_000 }).send({ ...post(server), timeoutMs: 200 }, Anything));
    assert.ok(e instanceof TimeoutError);
  });

  test("the caller's signal cancels a request in flight, and the log says so without a warning", async () => {
    const server = await serve([hang]);
    const controller = new AbortController();
    const lines: string[] = [];
    const note = (level: string) => (m: unknown) => lines.push(`${level} ${String(m)}`);
    const logger = { trace: note('trace'), debug: note('debug'), info: note('info'), warn: note('warn'), error: note('error') };
    const pending = transportFor(server, { logger }).send(get(server, '/v2/x', { signal: controller.signal }), Anything);
    await server.waitForRequests(1);
    controller.abort();
    const e = await rejection(pending);
    assert.ok(e instanceof CancelledError, e.constructor.name);
    // A refresh superseded or a view closed is ours, not the service's fault: no warning (the walkthrough's log
    // opened with two "GET .../v2/serverless failed: Cancelled." warnings on a clean start).
    assert.deepEqual(lines.filter((l) => l.startsWith('warn') || l.startsWith('error')), []);
    assert.ok(lines.some((l) => /^debug GET .*\/v2\/x cancelled by us$/.test(l)), lines.join('\n'));
  });

  test('an already aborted signal sends nothing', async () => {
    const server = await serve([json({})]);
    const e = await rejection(transportFor(server).send(get(server, '/v2/x', { signal: AbortSignal.abort() }), Anything));
    assert.ok(e instanceof CancelledError);
    assert.equal(server.requests.length, 0);
  });

  test('cancelling during a Retry-After wait ends at once and sends nothing more', async () => {
    const server = await serve([problem(429, 'x', { headers: { 'retry-after': '30' } }), json({})]);
    const controller = new AbortController();
    const pending = transportFor(server).send(get(server, '/v2/x', { signal: controller.signal }), Anything);
    await server.waitForRequests(1);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    const e = await rejection(pending);
    assert.ok(e instanceof CancelledError);
    assert.equal(server.requests.length, 1);
  });
});

describe('HTTP layer: rate-limit windows', () => {
  test('the snapshot follows the headers and listeners hear of it', async () => {
    const server = await serve([json({}, { ratelimit: 'minute;r=7;t=30, hour;r=70;t=300', 'ratelimit-policy': 'minute;q=10;w=60, hour;q=100;w=3600' })]);
    const transport = transportFor(server);
    const heard: number[] = [];
    const off = transport.onRateLimits((s) => heard.push(s.minute?.remaining ?? -1));
    await transport.send(get(server), Anything);
    off();
    await transport.send(get(server), Anything);
    assert.deepEqual(heard, [7]);
    assert.equal(transport.rateLimits.hour?.quota, 100);
    assert.equal(transport.rateLimits.minute?.windowSeconds, 60);
  });

  test('a 429 also updates the rate-limit state', async () => {
    const server = await serve([problem(429, 'x', { headers: { ratelimit: 'minute;r=0;t=40' } })]);
    const transport = transportFor(server);
    const heard: number[] = [];
    transport.onRateLimits((s) => heard.push(s.minute?.remaining ?? -1));
    await rejection(transport.send(post(server), Anything));
    assert.deepEqual(heard, [0]);
  });

  test('a Retry-After given as an HTTP date is honoured', async () => {
    // Two seconds ahead, at whole-second precision: the wait is between 1 and 2 s.
    const server = await serve((_req, i) => (i === 0 ? problem(503, 'x', { headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } }) : json({ ok: 1 })));
    await transportFor(server).send(get(server), Anything);
    const gap = server.requests[1]!.at - server.repliedAt[0]!;
    assert.ok(gap >= 900, `retried after ${gap} ms`);
  });

  test('a malformed RateLimit header does not fail the response', async () => {
    const server = await serve([json({ ok: 1 }, { ratelimit: 'minute;r=;;t=((' })]);
    const transport = transportFor(server);
    assert.deepEqual(await transport.send(get(server), Anything), { ok: 1 });
    assert.deepEqual(transport.rateLimits, {});
  });

  test('when a window has 0 remaining, the next request waits for its reset', async () => {
    const server = await serve([json({}, { ratelimit: 'minute;r=0;t=1, hour;r=50;t=3000' }), json({}, { ratelimit: 'minute;r=59;t=60' })]);
    const transport = transportFor(server);
    await transport.send(get(server), Anything);
    await transport.send(get(server), Anything);
    const gap = server.requests[1]!.at - server.repliedAt[0]!;
    assert.ok(gap >= 1000, `second request came ${gap} ms after the window said 1 s`);
  });

  test('a job submission also waits out an exhausted window, and is still sent exactly once', async () => {
    const server = await serve([json({}, { ratelimit: 'minute;r=0;t=1' }), json({ id: 'j', status: 'IN_QUEUE' })]);
    const transport = transportFor(server);
    await transport.send(get(server), Anything);
    assert.deepEqual(await transport.send(post(server), Anything), { id: 'j', status: 'IN_QUEUE' });
    assert.equal(server.requests.length, 2);
    assert.ok(server.requests[1]!.at - server.repliedAt[0]! >= 1000);
  });

  test('an exhausted window longer than the client will wait fails at once, with no request', async () => {
    const server = await serve([json({}, { ratelimit: 'day;r=0;t=50000' }), json({})]);
    const transport = transportFor(server);
    await transport.send(get(server), Anything);
    const e = await rejection(transport.send(get(server), Anything));
    assert.ok(e instanceof RateLimitedError);
    assert.match(e.message, /day request quota/);
    assert.equal(server.requests.length, 1);
  });
});

describe('HTTP layer: the key goes only to the configured origins', () => {
  test('the configured origin gets the bearer key', async () => {
    const server = await serve([json({})]);
    await transportFor(server).send(get(server), Anything);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`);
  });

  test('a redirect to another origin is followed without the key', async () => {
    const elsewhere = await serve([json({ moved: true })]);
    const server = await serve([{ status: 302, headers: { location: `${elsewhere.url}/landing` } }]);
    assert.deepEqual(await transportFor(server).send(get(server), Anything), { moved: true });
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(elsewhere.requests.length, 1);
    assert.equal(elsewhere.requests[0]!.headers.authorization, undefined);
  });

  test('a URL outside the configured origins never gets the key', async () => {
    const configured = await serve([json({})]);
    const other = await serve([json({})]);
    await transportFor(configured).send(get(other), Anything);
    assert.equal(other.requests[0]!.headers.authorization, undefined);
  });

  test('a redirect within the configured origin keeps the key', async () => {
    const server = await serve((req) => (req.url === '/v2/thing' ? { status: 301, headers: { location: '/v2/moved' } } : json({ at: req.url })));
    assert.deepEqual(await transportFor(server).send(get(server), Anything), { at: '/v2/moved' });
    assert.equal(server.requests[1]!.headers.authorization, `Bearer ${KEY}`);
  });

  test('a job submission does not follow redirects', async () => {
    const elsewhere = await serve([json({ id: 'x', status: 'IN_QUEUE' })]);
    const server = await serve([{ status: 307, headers: { location: `${elsewhere.url}/v2/ep/run` } }]);
    const e = await rejection(transportFor(server).send(post(server), Anything));
    assert.ok(e instanceof ServerError);
    assert.equal(elsewhere.requests.length, 0);
  });

  test('without a key no Authorization header is sent', async () => {
    const server = await serve([json({})]);
    await createHttpTransport({ authorizedOrigins: [server.url] }).send(get(server), Anything);
    assert.equal(server.requests[0]!.headers.authorization, undefined);
  });
});

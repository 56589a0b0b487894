// SPEC 5 and 7, issue #3 "Auth": who gets 401 (not authenticated) and who gets 403 (authenticated, not allowed),
// on the billing route and on each job route, with RFC 6750's challenge and a problem+json body.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, startEmulator, moveClock, type Emulator } from './harness';
import { assertProblem, assertUnauthorized } from './assertions';
import { config, ENDPOINTS, KEYS } from './fixtures';

const BILLING = '/v2/billing/serverless';
const RUN = `/v2/${ENDPOINTS.echo}/run`;
const RUNSYNC = `/v2/${ENDPOINTS.echo}/runsync`;
const STATUS = `/v2/${ENDPOINTS.echo}/status/some-job`;
const routes: Array<[string, string]> = [['GET', BILLING], ['POST', RUN], ['POST', RUNSYNC], ['GET', STATUS]];
const body = { input: { prompt: 'hi' } };

let emu: Emulator;
before(async () => { emu = await startEmulator(config()); });
after(async () => { await emu?.stop(); });

function call(method: string, path: string, authorization?: string) {
  return request(emu.url, path, {
    method,
    headers: authorization === undefined ? {} : { authorization },
    body: method === 'POST' ? body : undefined,
  });
}

describe('401: the request is not authenticated (SPEC 5 rule 3)', () => {
  for (const [method, path] of routes) {
    test(`${method} ${path} without an Authorization header is 401 with a Bearer challenge`, async () => {
      assertUnauthorized(await call(method, path));
    });
    test(`${method} ${path} with the Basic scheme is 401`, async () => {
      assertUnauthorized(await call(method, path, `Basic ${Buffer.from(`${KEYS.full}:`).toString('base64')}`));
    });
    test(`${method} ${path} with an empty bearer token is 401`, async () => {
      assertUnauthorized(await call(method, path, 'Bearer '));
    });
    test(`${method} ${path} with an unknown key is 401`, async () => {
      assertUnauthorized(await call(method, path, 'Bearer k-nobody-has-this'));
    });
  }

  test('a key whose expiresAt has passed is 401', async () => {
    assertUnauthorized(await call('GET', BILLING, `Bearer ${KEYS.expired}`));
  });

  test('a bare token without a scheme is 401, and the answer never quotes the key back', async () => {
    const r = await call('GET', BILLING, KEYS.full);
    assertUnauthorized(r);
    assert.ok(!r.text.includes(KEYS.full), `the body quotes the key: ${r.text}`);
    assert.ok(!JSON.stringify(r.headers).includes(KEYS.full), 'a header quotes the key');
  });

  test('a key of another user is not confused with a valid one when it merely shares a prefix', async () => {
    assertUnauthorized(await call('GET', BILLING, `Bearer ${KEYS.full}x`));
  });
});

describe('403: authenticated, but the key may not do this (SPEC 5 rule 2)', () => {
  test('a billing-only key may read billing', async () => {
    const r = await call('GET', BILLING, `Bearer ${KEYS.billing}`);
    assert.equal(r.status, 200, r.text);
  });

  test('a key without billing:read gets 403 on the billing route', async () => {
    assertProblem(await call('GET', BILLING, `Bearer ${KEYS.ep1Only}`), 403);
    assertProblem(await call('GET', BILLING, `Bearer ${KEYS.runOnly}`), 403);
  });

  test('a key without jobs:run gets 403 on /run and /runsync', async () => {
    assertProblem(await call('POST', RUN, `Bearer ${KEYS.billing}`), 403);
    assertProblem(await call('POST', RUNSYNC, `Bearer ${KEYS.billing}`), 403);
    assertProblem(await call('POST', RUN, `Bearer ${KEYS.readOnly}`), 403);
  });

  test('a key without jobs:read gets 403 on /status, even for its own job', async () => {
    const run = await call('POST', RUN, `Bearer ${KEYS.runOnly}`);
    assert.equal(run.status, 200, run.text);
    assertProblem(await call('GET', `/v2/${ENDPOINTS.echo}/status/${run.json.id}`, `Bearer ${KEYS.runOnly}`), 403);
    const read = await call('GET', `/v2/${ENDPOINTS.echo}/status/${run.json.id}`, `Bearer ${KEYS.readOnly}`);
    assert.equal(read.status, 200, read.text);
  });

  test('a key restricted to one endpoint may run jobs there and nowhere else', async () => {
    const ok = await call('POST', `/v2/${ENDPOINTS.image}/run`, `Bearer ${KEYS.ep1Only}`);
    assert.equal(ok.status, 200, ok.text);
    assertProblem(await call('POST', RUN, `Bearer ${KEYS.ep1Only}`), 403);
    assertProblem(await call('POST', `/v2/${ENDPOINTS.failing}/runsync`, `Bearer ${KEYS.ep1Only}`), 403);
    assertProblem(await call('GET', STATUS, `Bearer ${KEYS.ep1Only}`), 403);
  });

  test("a job route on another user's endpoint is 403", async () => {
    assertProblem(await call('POST', `/v2/${ENDPOINTS.bobs}/run`, `Bearer ${KEYS.full}`), 403);
    assertProblem(await call('POST', `/v2/${ENDPOINTS.bobs}/runsync`, `Bearer ${KEYS.full}`), 403);
    assertProblem(await call('GET', `/v2/${ENDPOINTS.bobs}/status/x`, `Bearer ${KEYS.full}`), 403);
    // ...and the owner may use it.
    const own = await call('POST', `/v2/${ENDPOINTS.bobs}/run`, `Bearer ${KEYS.bob}`);
    assert.equal(own.status, 200, own.text);
  });

  test('a job route on an endpoint nobody owns is 403 (the user does not own it)', async () => {
    assertProblem(await call('POST', '/v2/no-such-endpoint/run', `Bearer ${KEYS.full}`), 403);
  });

  test("another user's job cannot be read through its own endpoint's status route", async () => {
    const bobs = await call('POST', `/v2/${ENDPOINTS.bobs}/run`, `Bearer ${KEYS.bob}`);
    assert.equal(bobs.status, 200, bobs.text);
    // Through alice's echo endpoint the id is simply not one of hers.
    const r = await call('GET', `/v2/${ENDPOINTS.echo}/status/${bobs.json.id}`, `Bearer ${KEYS.full}`);
    assert.equal(r.status, 404, r.text);
  });
});

describe('key expiry follows the emulator clock', () => {
  test('a key valid until 13:00 works at noon and is 401 once the clock passes 13:00', async () => {
    await moveClock(emu.url, { now: '2026-06-15T12:00:00Z' });
    assert.equal((await call('GET', BILLING, `Bearer ${KEYS.expiresAt1pm}`)).status, 200);
    await moveClock(emu.url, { now: '2026-06-15T13:00:01Z' });
    assertUnauthorized(await call('GET', BILLING, `Bearer ${KEYS.expiresAt1pm}`));
    await moveClock(emu.url, { now: '2026-06-15T12:00:00Z' });
  });
});

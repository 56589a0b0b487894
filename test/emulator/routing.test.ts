// Issue #3 "Auth" (last sentence) and SPEC 9: the route table. An unknown path is 404, a known path with the
// wrong method is 405 naming the allowed ones in Allow, and every such answer is problem+json.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, startEmulator, type Emulator } from './harness';
import { assertProblem } from './assertions';
import { config, ENDPOINTS, KEYS } from './fixtures';

let emu: Emulator;
before(async () => { emu = await startEmulator(config()); });
after(async () => { await emu?.stop(); });

function allowed(header: unknown): string[] {
  return String(header ?? '').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
}

for (const path of ['/', '/v1/billing/serverless', '/v2/billing', '/v2/billing/pods', `/v2/${ENDPOINTS.echo}`, `/v2/${ENDPOINTS.echo}/bogus/x`, `/v2/${ENDPOINTS.echo}/status`, '/v3/echo/run']) {
  test(`GET ${path} is 404 problem+json`, async () => {
    assertProblem(await request(emu.url, path, { key: KEYS.full }), 404);
  });
}

test('an unknown route is 404 even without a key (routing comes first, nothing to authenticate for)', async () => {
  const r = await request(emu.url, '/no/such/thing');
  assert.equal(r.status, 404, r.text);
});

test('POST on the billing route is 405 with Allow: GET', async () => {
  const r = await request(emu.url, '/v2/billing/serverless', { method: 'POST', key: KEYS.full, body: {} });
  assertProblem(r, 405);
  assert.ok(allowed(r.headers.allow).includes('GET'), `Allow: ${r.headers.allow}`);
  assert.ok(!allowed(r.headers.allow).includes('POST'));
});

for (const [method, path, allow] of [
  ['GET', `/v2/${ENDPOINTS.echo}/run`, 'POST'],
  ['PUT', `/v2/${ENDPOINTS.echo}/runsync`, 'POST'],
  ['DELETE', `/v2/${ENDPOINTS.echo}/status/abc`, 'GET'],
  ['POST', `/v2/${ENDPOINTS.echo}/status/abc`, 'GET'],
] as const) {
  test(`${method} ${path} is 405 with Allow: ${allow}`, async () => {
    const r = await request(emu.url, path, { method, key: KEYS.full, body: method === 'GET' || method === 'DELETE' ? undefined : { input: {} } });
    assertProblem(r, 405);
    assert.ok(allowed(r.headers.allow).includes(allow), `Allow: ${r.headers.allow}`);
    assert.ok(!allowed(r.headers.allow).includes(method), `Allow: ${r.headers.allow} lists ${method}`);
  });
}

test('a query string does not change routing: /v2/billing/serverless?x is still the billing route', async () => {
  const r = await request(emu.url, '/v2/billing/serverless?bucketSize=day', { key: KEYS.full });
  assert.equal(r.status, 200, r.text);
});

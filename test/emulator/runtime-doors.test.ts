// Issue 9: the new job routes have the same door as the old ones: 405 with Allow, 401, the scope (cancel,
// retry and purge-queue change jobs: jobs:run; health, stream and status-sync read: jobs:read), 403 for an
// endpoint the key may not use, 404 for another user's job, the per-user RateLimit headers, the docs'
// per-operation limits (purge-queue 2 and cancel 100 per 10 s; a refusal uses nothing), and injected faults.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from './harness';
import { assertProblem, assertUnauthorized } from './assertions';
import { ENDPOINTS, KEYS } from './fixtures';
import { jobApi, RT, useRuntimeEmulator } from './runtimeFixtures';

let job: string;
const rt = useRuntimeEmulator(async (api) => { job = await api.submit(RT.echo); });
const api = rt.api;
afterEach(async () => { await request(rt.url(), '/__admin/faults', { method: 'DELETE' }); });

type Route = { method: 'GET' | 'POST'; path: (ep: string, id: string) => string; scope: 'jobs:run' | 'jobs:read' };
const ROUTES: Record<string, Route> = {
  cancel: { method: 'POST', path: (ep, id) => `/v2/${ep}/cancel/${id}`, scope: 'jobs:run' },
  retry: { method: 'POST', path: (ep, id) => `/v2/${ep}/retry/${id}`, scope: 'jobs:run' },
  'purge-queue': { method: 'POST', path: (ep) => `/v2/${ep}/purge-queue`, scope: 'jobs:run' },
  health: { method: 'GET', path: (ep) => `/v2/${ep}/health`, scope: 'jobs:read' },
  stream: { method: 'GET', path: (ep, id) => `/v2/${ep}/stream/${id}`, scope: 'jobs:read' },
  'status-sync': { method: 'GET', path: (ep, id) => `/v2/${ep}/status-sync/${id}?wait=1000`, scope: 'jobs:read' },
};

for (const [name, r] of Object.entries(ROUTES)) {
  describe(`/${name}`, () => {
    test('the other method is 405 with Allow', async () => {
      const other = r.method === 'GET' ? 'POST' : 'GET';
      const res = await request(rt.url(), r.path(RT.echo, job), { method: other, key: KEYS.full, body: other === 'POST' ? {} : undefined });
      assertProblem(res, 405);
      assert.equal(res.headers.allow, r.method);
    });

    test('no key is 401 with a Bearer challenge; a bad key is 401 invalid_token', async () => {
      assertUnauthorized(await request(rt.url(), r.path(RT.echo, job), { method: r.method }));
      const bad = await request(rt.url(), r.path(RT.echo, job), { method: r.method, key: 'nope' });
      assertUnauthorized(bad);
      assert.match(String(bad.headers['www-authenticate']), /invalid_token/);
    });

    test(`a key without ${r.scope} is 403; another user's endpoint and an endpoint outside the key's list are 403`, async () => {
      const without = r.scope === 'jobs:run' ? KEYS.readOnly : KEYS.runOnly;
      assertProblem(await request(rt.url(), r.path(RT.echo, job), { method: r.method, key: without }), 403);
      assertProblem(await request(rt.url(), r.path(ENDPOINTS.bobs, job), { method: r.method, key: KEYS.full }), 403);
      assertProblem(await request(rt.url(), r.path(RT.echo, job), { method: r.method, key: KEYS.ep1Only }), 403);
    });

    test('an answer carries the per-user RateLimit headers', async () => {
      await rt.advance(10_000); // a fresh per-operation window (purge-queue allows 2)
      const res = await request(rt.url(), r.path(RT.echo, job), { method: r.method, key: KEYS.full });
      assert.ok(res.headers.ratelimit, `no RateLimit on ${res.status}`);
      assert.ok(res.headers['ratelimit-policy']);
    });

    test('an injected fault on its path answers instead of the route', async () => {
      await request(rt.url(), '/__admin/faults', { method: 'POST', body: { kind: 'status', status: 503, retryAfter: 2, path: `/v2/${RT.echo}/${name}` } });
      const res = await request(rt.url(), r.path(RT.echo, job), { method: r.method, key: KEYS.full });
      assertProblem(res, 503);
      assert.equal(res.headers['retry-after'], '2');
    });
  });
}

describe('jobs of another user', () => {
  test("bob's job read through alice's endpoint id is 404 on the job routes", async () => {
    const bobs = jobApi(rt.url(), KEYS.bob);
    const bobJob = await bobs.submit(ENDPOINTS.bobs);
    assertProblem(await api.cancel(RT.echo, bobJob), 404);
    assertProblem(await api.stream(RT.echo, bobJob), 404);
    assertProblem(await api.statusSync(RT.echo, bobJob, 1000), 404);
    assertProblem(await api.retry(RT.echo, bobJob), 404);
  });
});

describe('per-operation rate limits (docs: per endpoint and operation, per 10 seconds)', () => {
  test('purge-queue: 2 per 10 s; the third is 429 with Retry-After and the detail names the operation; the window resets', async () => {
    await rt.advance(10_000 - (Date.parse((await request(rt.url(), '/__admin/clock')).json.now) % 10_000) + 100);
    assert.equal((await api.purge(RT.limits)).status, 200);
    assert.equal((await api.purge(RT.limits)).status, 200);
    const refused = await api.purge(RT.limits);
    const p = assertProblem(refused, 429);
    assert.match(p.detail, /purge-queue/);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);
    assert.equal((await api.purge(RT.echo)).status, 200, 'another endpoint has its own budget');
    await rt.advance(retryAfter * 1000);
    assert.equal((await api.purge(RT.limits)).status, 200);
  });

  test('a per-operation 429 uses no unit of the user windows', async () => {
    await rt.advance(10_000 - (Date.parse((await request(rt.url(), '/__admin/clock')).json.now) % 10_000) + 100);
    await api.purge(RT.limits);
    await api.purge(RT.limits);
    const before0 = await api.health(RT.limits);
    const remaining = (r: { headers: Record<string, unknown> }) => Number(/"minute";r=(\d+)/.exec(String(r.headers.ratelimit))![1]);
    for (let i = 0; i < 3; i++) assertProblem(await api.purge(RT.limits), 429);
    const after0 = await api.health(RT.limits);
    assert.equal(remaining(after0), remaining(before0) - 1, 'only the health request itself was counted');
  });

  test('cancel: 100 per 10 s', async () => {
    await rt.advance(10_000 - (Date.parse((await request(rt.url(), '/__admin/clock')).json.now) % 10_000) + 100);
    for (let i = 0; i < 100; i++) assert.equal((await api.cancel(RT.limits, job)).status, 404);
    assertProblem(await api.cancel(RT.limits, job), 429);
  });
});

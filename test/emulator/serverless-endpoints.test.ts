// Issue 9, item 5: the REST v2 endpoint list on the billing base URL. GET /v2/serverless,
// GET /v2/serverless/<id> and GET /v2/serverless/<id>/workers, shaped as the reference's listEndpoints,
// getEndpoint and listEndpointWorkers (the core's schemas), behind the same door as billing: 401, the
// endpoints:read scope (403), 404 for what is not the caller's, 400 for a query, 405, rate limits, faults.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ListEndpointsResponse, ListEndpointWorkersResponse, ServerlessEndpoint } from '../../src/core/serverless/schemas';
import { client, moveClock, request, runCli, startEmulator, writeConfig, type Emulator } from './harness';
import { assertBadParams, assertProblem, assertUnauthorized } from './assertions';
import { config, ENDPOINTS, KEYS, usage } from './fixtures';

const LIST = {
  full: 'k-list-full',
  /** endpoints:read, restricted to the image endpoint. */
  ep1: 'k-list-ep1',
  bob: 'k-list-bob',
} as const;

/** The standard suite config, plus keys with the endpoints:read scope and a named endpoint with its own pools. */
export function listConfig(o: Parameters<typeof config>[0] = {}) {
  const c = config({
    aliceUsage: [usage(ENDPOINTS.echo, '2026-03-02T10:15:00Z', 1)],
    ...o,
    aliceEndpoints: [
      { id: 'named', name: 'My named endpoint', kind: 'echo', queueMs: 20, executionMs: 30, gpuPools: ['AMPERE_80', 'ADA_80_PRO'],
        workersMin: 1, workersMax: 4, idleTimeoutMs: 30_000, executionTimeoutMs: 120_000 },
      // Two warm workers, hour-long jobs: only the admin clock moves them.
      { id: 'pool', kind: 'echo', queueMs: 0, executionMs: 3_600_000, executionTimeoutMs: 7_200_000, workersMin: 2, workersMax: 2 },
      // No warm worker, a visible cold start.
      { id: 'cold', kind: 'echo', queueMs: 0, executionMs: 3_600_000, executionTimeoutMs: 7_200_000, coldStartMs: 60_000, workersMax: 1 },
      ...(o.aliceEndpoints ?? []),
    ],
  });
  const [alice, bob] = c.users as [(typeof c.users)[0], (typeof c.users)[1]];
  const listKeys: Array<Record<string, unknown>> = [
    { key: LIST.full, scopes: ['endpoints:read', 'jobs:run', 'jobs:read'] },
    { key: LIST.ep1, scopes: ['endpoints:read'], endpoints: [ENDPOINTS.image] },
  ];
  return {
    ...c,
    users: [
      { ...alice, keys: [...alice.keys, ...listKeys] },
      { ...bob, keys: [...bob.keys, { key: LIST.bob, scopes: ['endpoints:read'] }] },
    ],
  };
}

/** Alice's own (non-public) endpoints, in config order. */
const ALICE_LISTED = [ENDPOINTS.image, ENDPOINTS.failing, ENDPOINTS.echo, ENDPOINTS.slow, 'named', 'pool', 'cold'];

let emu: Emulator;
before(async () => { emu = await startEmulator(listConfig()); });
after(async () => { await emu?.stop(); });

describe('GET /v2/serverless', () => {
  test('lists the user\'s own endpoints in config order, in the shape of the reference (ListEndpointsResponse)', async () => {
    const r = await client(emu.url, LIST.full).get('/v2/serverless');
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json\b/);
    const body = ListEndpointsResponse.parse(r.json);
    assert.deepEqual(body.endpoints.map((e) => e.id), ALICE_LISTED);
  });

  test('public model endpoints are not listed: they are the platform\'s, not the user\'s', async () => {
    const r = await client(emu.url, LIST.full).get('/v2/serverless');
    const ids = (r.json.endpoints as Array<{ id: string }>).map((e) => e.id);
    for (const id of [ENDPOINTS.publicImage, ENDPOINTS.video, ENDPOINTS.audio]) assert.ok(!ids.includes(id), `${id} listed`);
  });

  test('another user sees only their own endpoints', async () => {
    const r = await client(emu.url, LIST.bob).get('/v2/serverless');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((r.json.endpoints as Array<{ id: string }>).map((e) => e.id), [ENDPOINTS.bobs]);
  });

  test('a key restricted to some endpoints lists only those', async () => {
    const r = await client(emu.url, LIST.ep1).get('/v2/serverless');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((r.json.endpoints as Array<{ id: string }>).map((e) => e.id), [ENDPOINTS.image]);
  });

  test('name is the configured human name, or the id when the config gives none', async () => {
    const r = await client(emu.url, LIST.full).get('/v2/serverless');
    const byId = new Map((r.json.endpoints as ServerlessEndpoint[]).map((e) => [e.id, e]));
    assert.equal(byId.get('named')!.name, 'My named endpoint');
    assert.equal(byId.get(ENDPOINTS.image)!.name, ENDPOINTS.image);
  });

  test('the settings the reference shows: a QUEUE endpoint, gpu pools from the config (default ADA_24), workers, scaling, timeout, flashboot', async () => {
    const r = await client(emu.url, LIST.full).get('/v2/serverless');
    const byId = new Map((r.json.endpoints as ServerlessEndpoint[]).map((e) => [e.id, e]));
    const named = byId.get('named')!;
    assert.equal(named.type, 'QUEUE');
    assert.deepEqual(named.gpu, { pools: ['AMPERE_80', 'ADA_80_PRO'], count: 1, allowedCudaVersions: [], minCudaVersion: null });
    assert.deepEqual(byId.get(ENDPOINTS.image)!.gpu!.pools, ['ADA_24']);
    // workersMin, workersMax and executionTimeoutMs from the config; no idleTimeout: a config endpoint scales on
    // REQUEST_COUNT by default, for which the reference omits it.
    assert.deepEqual(named.workers, { min: 1, max: 4 });
    assert.equal(named.timeout, 120_000);
    // The queue model's defaults for an endpoint that sets none: 0, 3, 600 s.
    const image = byId.get(ENDPOINTS.image)!;
    assert.deepEqual([image.workers, image.timeout], [{ min: 0, max: 3 }, 600_000]);
    assert.deepEqual(named.scaling, { type: 'REQUEST_COUNT', requestCount: 1 }, 'the engine scaler: the config default (issue 29)');
    assert.equal(named.flashboot, 'OFF');
    assert.deepEqual([named.dataCenterIds, named.networkVolumes], [[], []]);
  });

  test('requestUrls are this emulator\'s own job routes, and the run URL takes a job', async () => {
    const r = await client(emu.url, LIST.full).get('/v2/serverless');
    const echo = (r.json.endpoints as ServerlessEndpoint[]).find((e) => e.id === ENDPOINTS.echo)!;
    const base = `${emu.url}/v2/${ENDPOINTS.echo}`;
    assert.deepEqual(echo.requestUrls, {
      run: `${base}/run`, runSync: `${base}/runsync`, status: `${base}/status/{job_id}`, stream: `${base}/stream/{job_id}`,
      cancel: `${base}/cancel/{job_id}`, retry: `${base}/retry/{job_id}`, purgeQueue: `${base}/purge-queue`, health: `${base}/health`,
    });
    const run = await request(emu.url, new URL(echo.requestUrls!.run!).pathname, { method: 'POST', key: LIST.full, body: { input: { a: 1 } } });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.json.status, 'IN_QUEUE');
  });

  test('createdAt is the hour of the endpoint\'s first usage when it has any', async () => {
    const r = await client(emu.url, LIST.full).get('/v2/serverless');
    const echo = (r.json.endpoints as ServerlessEndpoint[]).find((e) => e.id === ENDPOINTS.echo)!;
    assert.equal(echo.createdAt, '2026-03-02T10:00:00Z');
  });

  test('createdAt of an endpoint without usage is a fixed instant no later than the first listing', async () => {
    const first = await client(emu.url, LIST.full).get('/v2/serverless');
    const named1 = (first.json.endpoints as ServerlessEndpoint[]).find((e) => e.id === 'named')!;
    assert.ok(Date.parse(named1.createdAt) <= Date.parse('2026-06-15T12:05:00Z'), named1.createdAt);
    const second = await client(emu.url, LIST.full).get('/v2/serverless');
    assert.equal((second.json.endpoints as ServerlessEndpoint[]).find((e) => e.id === 'named')!.createdAt, named1.createdAt);
  });
});

describe('GET /v2/serverless/<id>', () => {
  test('answers the same object as the list entry (getEndpoint)', async () => {
    const list = await client(emu.url, LIST.full).get('/v2/serverless');
    const one = await client(emu.url, LIST.full).get('/v2/serverless/named');
    assert.equal(one.status, 200, one.text);
    ServerlessEndpoint.parse(one.json);
    assert.deepEqual(one.json, (list.json.endpoints as ServerlessEndpoint[]).find((e) => e.id === 'named'));
  });

  test('a percent-encoded id is decoded', async () => {
    const r = await client(emu.url, LIST.full).get(`/v2/serverless/${encodeURIComponent(ENDPOINTS.echo).replace('e', '%65')}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.id, ENDPOINTS.echo);
  });

  for (const [what, id] of [['no one\'s', 'nope'], ['another user\'s', ENDPOINTS.bobs], ['a public model\'s', ENDPOINTS.publicImage]] as const) {
    test(`${what} id is 404 problem+json, like the reference's "not found or not accessible"`, async () => {
      for (const path of [`/v2/serverless/${id}`, `/v2/serverless/${id}/workers`]) {
        const r = await client(emu.url, LIST.full).get(path);
        const p = assertProblem(r, 404);
        assert.ok(p.detail.includes(id), p.detail);
        assert.ok(r.headers.ratelimit, '404 of an authenticated request carries RateLimit');
      }
    });
  }

  test('an endpoint outside a restricted key\'s endpoints is 403', async () => {
    assertProblem(await client(emu.url, LIST.ep1).get(`/v2/serverless/${ENDPOINTS.echo}`), 403);
    assertProblem(await client(emu.url, LIST.ep1).get(`/v2/serverless/${ENDPOINTS.echo}/workers`), 403);
    assert.equal((await client(emu.url, LIST.ep1).get(`/v2/serverless/${ENDPOINTS.image}`)).status, 200);
  });
});

describe('GET /v2/serverless/<id>/workers', () => {
  test('the shape of the reference (ListEndpointWorkersResponse), and the summary is a roll-up of the workers array', async () => {
    const r = await client(emu.url, LIST.full).get(`/v2/serverless/${ENDPOINTS.echo}/workers`);
    assert.equal(r.status, 200, r.text);
    const body = ListEndpointWorkersResponse.parse(r.json);
    const s = body.summary;
    assert.equal(s.running + s.idle + s.initializing + s.throttled + s.unhealthy, s.total);
    assert.equal(s.total, body.workers.length);
    for (const status of ['RUNNING', 'IDLE', 'INITIALIZING'] as const) {
      assert.equal(body.workers.filter((w) => w.status === status).length, s[status.toLowerCase() as 'running' | 'idle' | 'initializing']);
    }
    assert.equal(body.endpointVersion, 1);
  });
});

describe('GET /v2/serverless/<id>/workers follows the queue model', () => {
  type Listed = { workers: Array<Record<string, unknown>>; summary: Record<string, number> };
  const workersOf = async (id: string): Promise<Listed> => {
    const r = await client(emu.url, LIST.full).get(`/v2/serverless/${id}/workers`);
    assert.equal(r.status, 200, r.text);
    return ListEndpointWorkersResponse.parse(r.json) as unknown as Listed;
  };
  const statuses = (l: Listed): string[] => l.workers.map((w) => String(w.status)).sort();

  test('active (min) workers are listed IDLE before any job, with the endpoint\'s GPU, image and data center', async () => {
    const l = await workersOf('named');
    assert.deepEqual(statuses(l), ['IDLE']);
    const w = l.workers[0]!;
    assert.deepEqual([w.gpuTypeId, w.gpuCount, w.image, w.dataCenterId, w.isStale, w.version],
      ['NVIDIA A100 80GB PCIe', 1, 'serverless-emulator/echo-worker:1', 'EU-RO-1', false, 1]);
    assert.equal(typeof w.startedAt, 'string');
    assert.ok(Number.isInteger(w.uptimeSeconds) && (w.uptimeSeconds as number) >= 0, String(w.uptimeSeconds));
  });

  test('an endpoint without min workers lists none until a job comes (scaled-down workers are not listed)', async () => {
    const l = await workersOf(ENDPOINTS.failing);
    assert.deepEqual([l.workers, l.summary.total], [[], 0]);
  });

  test('a job makes one of two workers RUNNING; the summary counts it; uptime follows the clock', async () => {
    const before = await workersOf('pool');
    assert.deepEqual(statuses(before), ['IDLE', 'IDLE']);
    const run = await request(emu.url, '/v2/pool/run', { method: 'POST', key: LIST.full, body: { input: {} } });
    assert.equal(run.status, 200, run.text);
    const l = await workersOf('pool');
    assert.deepEqual(statuses(l), ['IDLE', 'RUNNING']);
    assert.deepEqual([l.summary.running, l.summary.idle, l.summary.total], [1, 1, 2]);
    assert.deepEqual(l.workers.map((w) => w.id).sort(), before.workers.map((w) => w.id).sort(), 'the same two workers');
    const up = l.workers[0]!.uptimeSeconds as number;
    await moveClock(emu.url, { advanceMs: 120_000 });
    const later = await workersOf('pool');
    assert.ok((later.workers[0]!.uptimeSeconds as number) >= up + 120, `${later.workers[0]!.uptimeSeconds} < ${up} + 120`);
  });

  test('a cold start is INITIALIZING (not started: startedAt and uptimeSeconds null), then RUNNING the job', async () => {
    assert.deepEqual((await workersOf('cold')).workers, []);
    const run = await request(emu.url, '/v2/cold/run', { method: 'POST', key: LIST.full, body: { input: {} } });
    assert.equal(run.status, 200, run.text);
    const booting = await workersOf('cold');
    assert.deepEqual(statuses(booting), ['INITIALIZING']);
    assert.deepEqual([booting.workers[0]!.startedAt, booting.workers[0]!.uptimeSeconds, booting.summary.initializing], [null, null, 1]);
    await moveClock(emu.url, { advanceMs: 61_000 });
    const running = await workersOf('cold');
    assert.deepEqual(statuses(running), ['RUNNING']);
    assert.equal(running.workers[0]!.id, booting.workers[0]!.id);
    assert.equal(typeof running.workers[0]!.startedAt, 'string');
  });
});

describe('the door: authentication, scope, query, methods', () => {
  for (const path of ['/v2/serverless', `/v2/serverless/${ENDPOINTS.echo}`, `/v2/serverless/${ENDPOINTS.echo}/workers`]) {
    test(`${path}: no key or a bad key is 401 with a Bearer challenge; an expired one too`, async () => {
      assertUnauthorized(await request(emu.url, path));
      assertUnauthorized(await request(emu.url, path, { key: 'not-a-key' }));
      assertUnauthorized(await request(emu.url, path, { key: KEYS.expired }));
    });

    test(`${path}: a key without endpoints:read is 403 naming the scope, even with every other scope`, async () => {
      const p = assertProblem(await request(emu.url, path, { key: KEYS.full }), 403);
      assert.match(p.detail, /endpoints:read/);
      assertProblem(await request(emu.url, path, { key: KEYS.billing }), 403);
    });

    test(`${path}: a query parameter is 400 naming it (the reference takes none)`, async () => {
      assertBadParams(await request(emu.url, `${path}?limit=10&cursor=x`, { key: LIST.full }), 'limit', 'cursor');
    });

    test(`${path}: PUT is 405 with the route's methods in Allow, before any key is needed`, async () => {
      const r = await request(emu.url, path, { method: 'PUT', body: {} });
      assertProblem(r, 405);
      assert.equal(r.headers.allow, path === '/v2/serverless' ? 'GET, POST' : path.endsWith('/workers') ? 'GET' : 'GET, PATCH, DELETE');
    });
  }

  for (const path of ['/v2/serverless/', `/v2/serverless/${ENDPOINTS.echo}/workers/extra`, `/v2/serverless/${ENDPOINTS.echo}/releases/1`, '/v2/serverless/%E0%A4%A']) {
    test(`GET ${path} is 404`, async () => {
      assertProblem(await request(emu.url, path, { key: LIST.full }), 404);
    });
  }

  test('a 200 carries RateLimit headers and uses one unit', async () => {
    const a = await client(emu.url, LIST.full).get('/v2/serverless');
    const b = await client(emu.url, LIST.full).get('/v2/serverless');
    const remaining = (h: unknown): number => Number(/"minute";r=(\d+)/.exec(String(h))![1]);
    assert.ok(a.headers['ratelimit-policy'], 'no RateLimit-Policy');
    assert.equal(remaining(b.headers.ratelimit), remaining(a.headers.ratelimit) - 1);
  });
});

describe('rate limits and faults on the endpoint routes', () => {
  test('the user\'s quota is shared with the other routes: when it is spent, the list is 429 with Retry-After', async () => {
    const small = await startEmulator(listConfig({ rateLimits: { minute: 2, hour: 1000, day: 10000 } }));
    try {
      assert.equal((await request(small.url, '/v2/billing/serverless', { key: KEYS.full })).status, 200);
      assert.equal((await request(small.url, '/v2/serverless', { key: LIST.full })).status, 200);
      const r = await request(small.url, '/v2/serverless', { key: LIST.full });
      const p = assertProblem(r, 429);
      assert.match(p.detail, /minute/);
      assert.ok(Number(r.headers['retry-after']) >= 1, `Retry-After: ${r.headers['retry-after']}`);
    } finally {
      await small.stop();
    }
  });

  test('an admin fault on /v2/serverless hits the list (and is not taken by other routes)', async () => {
    const f = await request(emu.url, '/__admin/faults', { method: 'POST', body: { kind: 'status', status: 503, retryAfter: 7, path: '/v2/serverless' } });
    assert.equal(f.status, 200, f.text);
    assert.equal((await request(emu.url, '/v2/billing/serverless', { key: KEYS.full })).status, 200);
    const r = await request(emu.url, `/v2/serverless/${ENDPOINTS.echo}`, { key: LIST.full });
    assertProblem(r, 503);
    assert.equal(r.headers['retry-after'], '7');
    assert.equal((await request(emu.url, `/v2/serverless/${ENDPOINTS.echo}`, { key: LIST.full })).status, 200);
  });
});

describe('config', () => {
  test('an endpoint id "serverless" is refused (exit 2, named by path): it would shadow the REST list on the shared origin', async () => {
    const c = listConfig({ aliceEndpoints: [{ id: 'serverless', kind: 'echo' }] });
    const { file, cleanup } = writeConfig(c);
    try {
      const { code, output } = await runCli(['--port', '0', '--config', file]);
      assert.equal(code, 2, output);
      assert.match(output, /users\.0\.endpoints\.\d+\.id: .*reserved/);
    } finally {
      cleanup();
    }
  });

  test('an empty name or an empty gpuPools is refused', async () => {
    for (const extra of [{ id: 'x', kind: 'echo', name: '' }, { id: 'x', kind: 'echo', gpuPools: [] }]) {
      const { file, cleanup } = writeConfig(listConfig({ aliceEndpoints: [extra] }));
      try {
        const { code, output } = await runCli(['--port', '0', '--config', file]);
        assert.equal(code, 2, output);
        assert.match(output, /users\.0\.endpoints\.\d+\.(name|gpuPools)/);
      } finally {
        cleanup();
      }
    }
  });
});

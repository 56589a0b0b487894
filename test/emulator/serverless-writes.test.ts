// Issue 28, the emulator: POST /v2/serverless, GET/PATCH/DELETE /v2/serverless/<id>, /v2/templates and
// /v2/catalog/gpus. Every answer is checked against the platform's REST v2 document (test/emulator/openapi.ts,
// the project's copy of it): status, content type, body schema, documented headers. Plus the rules: a PATCH
// changes only what it sends, a key without endpoints:write changes nothing, a bad body lists every problem.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem } from './assertions';
import { assertDocumented } from './openapi';
import { createBody, useWriteEmulator, WK } from './serverlessWriteFixtures';

const emu = useWriteEmulator();
const { call } = emu;

async function create(name: string, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await call('POST', '/v2/serverless', createBody(name, extra));
  assert.equal(r.status, 201, r.text);
  return assertDocumented(r, 'POST', '/v2/serverless');
}

async function get(id: string): Promise<any> {
  return assertDocumented(await call('GET', `/v2/serverless/${id}`), 'GET', '/v2/serverless/{id}');
}

describe('GET /v2/catalog/gpus', () => {
  test('lists GPU types with their pool, memory and serverless price per hour, in the document\'s shape', async () => {
    const body = assertDocumented(await call('GET', '/v2/catalog/gpus'), 'GET', '/v2/catalog/gpus');
    const rtx4090 = body.gpus.find((g: any) => g.id === 'NVIDIA GeForce RTX 4090');
    assert.deepEqual([rtx4090.pool, rtx4090.memory, rtx4090.price.serverless], ['ADA_24', 24, 1.116]);
    assert.ok(body.gpus.filter((g: any) => g.pool === 'ADA_48_PRO').length >= 2);
  });
});

describe('POST /v2/serverless', () => {
  test('creates an endpoint (201) with the defaults of the reference, and it runs a job like the others', async () => {
    const ep = await create('made-by-api', { workers: { max: 2 } });
    assert.match(ep.id, /^[a-z0-9]{8}$/);
    assert.deepEqual([ep.name, ep.image, ep.type, ep.flashboot, ep.timeout], ['made-by-api', 'my-org/worker:1', 'QUEUE', 'OFF', 300_000]);
    assert.deepEqual(ep.workers, { min: 0, max: 2, idleTimeout: 10 });
    assert.deepEqual(ep.gpu, { pools: ['ADA_24'], count: 1, allowedCudaVersions: [], minCudaVersion: null });
    assert.equal(ep.requestUrls.run, `${emu.url()}/v2/${ep.id}/run`);
    assert.deepEqual(await get(ep.id), ep);
    // An image the emulator does not know runs as an echo worker (docs/emulator.md).
    const run = await call('POST', `/v2/${ep.id}/runsync?wait=30000`, { input: { hello: 'world' } });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.json.status, 'COMPLETED', run.text);
    assert.deepEqual(run.json.output, { hello: 'world' });
  });

  test('a CPU endpoint carries cpu and no gpu', async () => {
    const body = createBody('cpu-one', { cpu: [{ id: 'cpu5c', vcpuCount: 4 }] });
    delete body.gpu;
    const r = await call('POST', '/v2/serverless', body);
    const ep = assertDocumented(r, 'POST', '/v2/serverless');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual([ep.gpu, ep.cpu], [undefined, [{ id: 'cpu5c', vcpuCount: 4, memory: 16 }]]);
  });
});

describe('idle timeout on a queue endpoint scaling on REQUEST_COUNT (reference: EndpointWorkers.idleTimeout)', () => {
  test('refused on create and update with a 400 naming the field, omitted from responses; allowed with a switch to QUEUE_DELAY', async () => {
    const refused = await call('POST', '/v2/serverless', createBody('rc-idle', { scaling: { type: 'REQUEST_COUNT', requestCount: 2 } }));
    assertDocumented(refused, 'POST', '/v2/serverless');
    assert.match(assertProblem(refused, 400).errors!.join(), /workers\.idleTimeout/);
    const ep = await create('rc-ok', { scaling: { type: 'REQUEST_COUNT', requestCount: 2 }, workers: { min: 0, max: 2 } });
    assert.deepEqual(ep.workers, { min: 0, max: 2 }, 'no idleTimeout in the response');
    assert.deepEqual((await get(ep.id)).workers, { min: 0, max: 2 });
    // A PATCH sending the idle timeout alone is judged against the endpoint's scaler: refused, nothing changed.
    const before = await get(ep.id);
    const alone = await call('PATCH', `/v2/serverless/${ep.id}`, { workers: { idleTimeout: 60 } });
    assertDocumented(alone, 'PATCH', '/v2/serverless/{id}');
    assert.match(assertProblem(alone, 400).errors!.join(), /workers\.idleTimeout/);
    assert.deepEqual(await get(ep.id), before);
    assertProblem(await call('PATCH', `/v2/serverless/${ep.id}`, { workers: { idleTimeout: 60 }, scaling: { type: 'REQUEST_COUNT', requestCount: 1 } }), 400);
    const switched = await call('PATCH', `/v2/serverless/${ep.id}`, { workers: { idleTimeout: 60 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } });
    assert.equal(switched.status, 200, switched.text);
    assert.deepEqual(assertDocumented(switched, 'PATCH', '/v2/serverless/{id}').workers, { min: 0, max: 2, idleTimeout: 60 });
    // And back: the idle timeout is dropped from the response again (the platform's own scale-down applies).
    const back = await call('PATCH', `/v2/serverless/${ep.id}`, { scaling: { type: 'REQUEST_COUNT', requestCount: 1 } });
    assert.deepEqual(assertDocumented(back, 'PATCH', '/v2/serverless/{id}').workers, { min: 0, max: 2 });
  });
});

describe('templates', () => {
  test('create, list, get, update and delete a template; an endpoint made from it takes its container and its kind', async () => {
    const made = await call('POST', '/v2/templates', { name: 'chat', image: 'serverless-emulator/vllm-worker:2', serverless: true, env: { A: '1', B: '2' } });
    assert.equal(made.status, 201, made.text);
    const t = assertDocumented(made, 'POST', '/v2/templates');
    assert.deepEqual([t.category, t.startSsh, t.public, t.disk], ['NVIDIA', true, false, 20]);
    const list = assertDocumented(await call('GET', '/v2/templates'), 'GET', '/v2/templates');
    assert.ok(list.templates.some((x: any) => x.id === t.id));
    const renamed = assertDocumented(await call('PATCH', `/v2/templates/${t.id}`, { name: 'chat 2' }), 'PATCH', '/v2/templates/{id}');
    assert.deepEqual({ ...renamed, name: t.name }, t);
    const body = createBody('from-template', { templateId: t.id, env: { B: 'mine' } });
    delete body.image;
    const ep = assertDocumented(await call('POST', '/v2/serverless', body), 'POST', '/v2/serverless');
    assert.deepEqual([ep.image, ep.env], ['serverless-emulator/vllm-worker:2', { A: '1', B: 'mine' }]);
    const run = await call('POST', `/v2/${ep.id}/runsync?wait=60000`, { input: { prompt: 'Say hi', max_tokens: 4 } });
    assert.equal(run.json.status, 'COMPLETED', run.text);
    assert.ok(JSON.stringify(run.json.output).includes('choices') || JSON.stringify(run.json.output).length > 2, `an llm worker's output: ${run.text}`);
    // Bound to an endpoint: 400; once the endpoint is gone: 204.
    const refused = await call('DELETE', `/v2/templates/${t.id}`);
    assertDocumented(refused, 'DELETE', '/v2/templates/{id}');
    assertProblem(refused, 400);
    assertDocumented(await call('DELETE', `/v2/serverless/${ep.id}`), 'DELETE', '/v2/serverless/{id}');
    const gone = await call('DELETE', `/v2/templates/${t.id}`);
    assert.equal(gone.status, 204);
    assertDocumented(gone, 'DELETE', '/v2/templates/{id}');
    assertProblem(assertGet404(await call('GET', `/v2/templates/${t.id}`)), 404);
  });

  test('a pod template cannot make an endpoint (422); an unknown template id is 404', async () => {
    const t = (await call('POST', '/v2/templates', { name: 'pod', image: 'x:1' })).json;
    const body = createBody('nope', { templateId: t.id });
    const pod = await call('POST', '/v2/serverless', body);
    assertDocumented(pod, 'POST', '/v2/serverless');
    assert.match(assertProblem(pod, 422).errors!.join(), /templateId/);
    const unknown = await call('POST', '/v2/serverless', createBody('nope', { templateId: 'nosuchtpl' }));
    assertDocumented(unknown, 'POST', '/v2/serverless');
    assertProblem(unknown, 404);
  });
});

function assertGet404(r: any): any {
  assertDocumented(r, 'GET', '/v2/templates/{id}');
  return r;
}

describe('PATCH /v2/serverless/<id>', () => {
  test('changes only the fields sent: each setting in turn, read back', async () => {
    let before = await get('sw-edit');
    const changes: Array<[Record<string, unknown>, (e: any) => void]> = [
      [{ workers: { max: 5 } }, (e) => { e.workers.max = 5; }],
      [{ workers: { min: 1 } }, (e) => { e.workers.min = 1; }],
      // sw-edit scales on REQUEST_COUNT (the config default): no idle timeout is shown until it scales on QUEUE_DELAY.
      [{ scaling: { type: 'QUEUE_DELAY', queueDelay: 2.5 } }, (e) => { e.scaling = { type: 'QUEUE_DELAY', queueDelay: 2.5 }; e.workers.idleTimeout = 60; }],
      [{ workers: { idleTimeout: 30 } }, (e) => { e.workers.idleTimeout = 30; }],
      [{ timeout: 90_000 }, (e) => { e.timeout = 90_000; }],
      [{ flashboot: 'FLASHBOOT' }, (e) => { e.flashboot = 'FLASHBOOT'; }],
      [{ gpu: { count: 2 } }, (e) => { e.gpu.count = 2; }],
      [{ gpu: { pools: ['ADA_48_PRO'], excludedTypes: ['NVIDIA L40'] } }, (e) => { e.gpu.pools = ['ADA_48_PRO']; e.gpu.excludedTypes = ['NVIDIA L40']; }],
      // pools alone replace the selection: the exclusions go (the reference's "DESTRUCTIVE GOTCHA").
      [{ gpu: { pools: ['ADA_48_PRO', 'AMPERE_48'] } }, (e) => { e.gpu.pools = ['ADA_48_PRO', 'AMPERE_48']; delete e.gpu.excludedTypes; }],
      [{ name: 'renamed' }, (e) => { e.name = 'renamed'; }],
      [{ scaling: { type: 'REQUEST_COUNT', requestCount: 3 } }, (e) => { e.scaling = { type: 'REQUEST_COUNT', requestCount: 3 }; delete e.workers.idleTimeout; }],
    ];
    for (const [patch, expect] of changes) {
      const after = assertDocumented(await call('PATCH', '/v2/serverless/sw-edit', patch), 'PATCH', '/v2/serverless/{id}');
      const expected = structuredClone(before);
      expect(expected);
      assert.deepEqual(after, expected, `after ${JSON.stringify(patch)}`);
      assert.deepEqual(await get('sw-edit'), after);
      before = after;
    }
  });

  test('the compute family is immutable: gpu on a CPU endpoint, cpu on a GPU one, or both, is 400', async () => {
    const body = createBody('cpu-two', { cpu: [{ id: 'cpu5c', vcpuCount: 2 }] });
    delete body.gpu;
    const cpu = (await call('POST', '/v2/serverless', body)).json;
    for (const [id, patch] of [[cpu.id, { gpu: { count: 1 } }], ['sw-edit', { cpu: [{ id: 'cpu5c', vcpuCount: 2 }] }], ['sw-edit', { gpu: { count: 1 }, cpu: [{ id: 'cpu5c', vcpuCount: 2 }] }]] as const) {
      const before = await get(id);
      const r = await call('PATCH', `/v2/serverless/${id}`, patch);
      assertDocumented(r, 'PATCH', '/v2/serverless/{id}');
      assert.match(assertProblem(r, 400).detail, /compute family|not both/);
      assert.deepEqual(await get(id), before);
    }
  });

  test('a bad body lists every problem at once (422 with the schema\'s, 400 for the rules alone) and changes nothing', async () => {
    const before = await get('sw-edit');
    const r = await call('PATCH', '/v2/serverless/sw-edit', {
      bogus: 1, workers: { min: 9, max: 2, idleTimeout: 0 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 0.4 }, gpu: { pools: ['NOT_A_POOL'] },
    });
    assertDocumented(r, 'PATCH', '/v2/serverless/{id}');
    const p = assertProblem(r, 422);
    for (const word of ['bogus', 'workers.idleTimeout', 'scaling.queueDelay', 'workers.min', 'NOT_A_POOL']) {
      assert.ok(p.errors!.some((e) => e.includes(word)), `errors do not name ${word}: ${JSON.stringify(p.errors)}`);
    }
    const tooLong = assertProblem(await call('PATCH', '/v2/serverless/sw-edit', { workers: { idleTimeout: 3601 } }), 422);
    assert.match(tooLong.errors!.join(), /workers\.idleTimeout/);
    assert.match(assertProblem(await call('PATCH', '/v2/serverless/sw-edit', { scaling: { type: 'REQUEST_COUNT', requestCount: 0 } }), 422).errors!.join(), /scaling\.requestCount/);
    assert.match(assertProblem(await call('PATCH', '/v2/serverless/sw-edit', { gpu: { excludedTypes: ['NVIDIA L40'] } }), 422).errors!.join(), /requires gpu\.pools/);
    const rules = await call('PATCH', '/v2/serverless/sw-edit', { workers: { min: 4, max: 3 }, gpu: { pools: ['ADA_24', 'NOPE_80'] } });
    assert.deepEqual(assertProblem(rules, 400).errors!.length, 2, rules.text);
    assertProblem(await call('POST', '/v2/serverless', { ...createBody('bad'), workers: { min: 3, max: 1 } }), 400);
    assertProblem(await call('POST', '/v2/serverless', '{"name": '), 400);
    assert.deepEqual(await get('sw-edit'), before);
  });
});

describe('scopes: a key without endpoints:write', () => {
  test('gets 403 on every write, and nothing changes', async () => {
    const t = (await call('POST', '/v2/templates', { name: 'kept', image: 'x:1', serverless: true })).json;
    const snapshot = async () => [await get('sw-edit'), (await call('GET', '/v2/serverless')).json, (await call('GET', '/v2/templates')).json];
    const before = await snapshot();
    const writes: Array<[string, string, string, unknown]> = [
      ['POST', '/v2/serverless', '/v2/serverless', createBody('never')],
      ['PATCH', '/v2/serverless/sw-edit', '/v2/serverless/{id}', { workers: { max: 1 } }],
      ['DELETE', '/v2/serverless/sw-edit', '/v2/serverless/{id}', undefined],
      ['POST', '/v2/templates', '/v2/templates', { name: 'never', image: 'x:1' }],
      ['PATCH', `/v2/templates/${t.id}`, '/v2/templates/{id}', { name: 'never' }],
      ['DELETE', `/v2/templates/${t.id}`, '/v2/templates/{id}', undefined],
    ];
    for (const key of [WK.read, WK.jobs]) {
      for (const [method, path, doc, body] of writes) {
        const r = await call(method, path, body, { key });
        assertDocumented(r, method, doc);
        assert.match(assertProblem(r, 403).detail, key === WK.read ? /endpoints:write/ : /endpoints:(read|write)/, `${method} ${path}`);
      }
    }
    assert.deepEqual(await snapshot(), before);
    // A key restricted to some endpoints may not create one.
    assertProblem(await call('POST', '/v2/serverless', createBody('never'), { key: WK.restricted }), 403);
  });
});

describe('the door of the new routes', () => {
  test('no key is 401 with a Bearer challenge on every route, as documented', async () => {
    const routes: Array<[string, string, string]> = [
      ['POST', '/v2/serverless', '/v2/serverless'], ['PATCH', '/v2/serverless/sw-edit', '/v2/serverless/{id}'],
      ['DELETE', '/v2/serverless/sw-edit', '/v2/serverless/{id}'], ['GET', '/v2/serverless/sw-edit/releases', '/v2/serverless/{id}/releases'],
      ['GET', '/v2/serverless/sw-edit/workers/w/logs', '/v2/serverless/{id}/workers/{workerId}/logs'], ['GET', '/v2/templates', '/v2/templates'],
      ['POST', '/v2/templates', '/v2/templates'], ['GET', '/v2/templates/x', '/v2/templates/{id}'], ['GET', '/v2/catalog/gpus', '/v2/catalog/gpus'],
    ];
    for (const [method, path, doc] of routes) {
      const r = await call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, { key: undefined });
      assertDocumented(r, method, doc);
      assertProblem(r, 401);
      assert.match(String(r.headers['www-authenticate']), /^Bearer/);
    }
  });

  test('a method a route does not have is 405 naming the ones it has', async () => {
    for (const [path, allow] of [['/v2/templates', 'GET, POST'], ['/v2/templates/x', 'GET, PATCH, DELETE'], ['/v2/catalog/gpus', 'GET'], ['/v2/serverless/x/releases', 'GET']]) {
      const r = await call('PUT', path!, {});
      assertProblem(r, 405);
      assert.equal(r.headers.allow, allow);
    }
  });
});

describe('DELETE /v2/serverless/<id>', () => {
  test('204 with no body; it is gone from the list and its job routes', async () => {
    const ep = await create('short-lived', { workers: { min: 0, max: 0 } });
    const job = (await call('POST', `/v2/${ep.id}/run`, { input: {} })).json;
    const r = await call('DELETE', `/v2/serverless/${ep.id}`);
    assert.equal(r.status, 204);
    assertDocumented(r, 'DELETE', '/v2/serverless/{id}');
    const missing = await call('GET', `/v2/serverless/${ep.id}`);
    assertDocumented(missing, 'GET', '/v2/serverless/{id}');
    assertProblem(missing, 404);
    assert.ok(!(await call('GET', '/v2/serverless')).json.endpoints.some((e: any) => e.id === ep.id));
    assertProblem(await call('GET', `/v2/${ep.id}/status/${job.id}`), 403);
  });
});

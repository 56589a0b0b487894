// SPEC 4.2/4.3 and issue #3 "Jobs" (request bodies): a body must be a JSON object with exactly one property,
// `input`, itself an object. Anything else is 400 with the reason in `errors`; more than 10 MiB is 413. The
// same rules hold for /run and /runsync, and a refused body starts no job.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { request, startEmulator, type Emulator, type Reply } from './harness';
import { assertProblem } from './assertions';
import { config, ENDPOINTS, KEYS } from './fixtures';

let emu: Emulator;
before(async () => { emu = await startEmulator(config()); });
after(async () => { await emu?.stop(); });

const MiB = 1024 * 1024;

function post(route: 'run' | 'runsync', body: string | Buffer, headers: Record<string, string> = {}) {
  return request(emu.url, `/v2/${ENDPOINTS.echo}/${route}`, { method: 'POST', key: KEYS.full, body, headers });
}

/** A JSON body of exactly `size` bytes: {"input":{"p":"xxxx…"}}. */
function bodyOfSize(size: number): Buffer {
  const frame = '{"input":{"p":""}}';
  return Buffer.from(`{"input":{"p":"${'x'.repeat(size - frame.length)}"}}`);
}

/**
 * Sends a large body and reads the answer even if the server answers before reading it all and then closes:
 * a client cannot rely on more, and the status code is what must be right.
 */
function postLarge(route: string, body: Buffer, chunked = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(new URL(route, emu.url), {
      method: 'POST', agent: false,
      headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(body.length) }) },
    }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const b = Buffer.concat(chunks);
        let json: unknown;
        try { json = JSON.parse(b.toString()); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b, text: b.toString(), json });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // EPIPE/ECONNRESET while still writing are fine after an early answer (the response handler has it);
      // before one, the server reset the connection and the client never learns why: that is a failure.
      if (!answered || (err.code !== 'EPIPE' && err.code !== 'ECONNRESET')) reject(new Error(`connection failed before any answer: ${err.code ?? err.message}`));
    });
    req.setTimeout(120_000, () => req.destroy(new Error('no answer to the large body')));
    if (!chunked) return void req.end(body);
    // No Content-Length: the server only learns the size while reading.
    for (let i = 0; i < body.length; i += MiB) req.write(body.subarray(i, i + MiB));
    req.end();
  });
}

for (const route of ['run', 'runsync'] as const) {
  describe(`/${route} request bodies`, () => {
    test('a body that is not JSON is 400', async () => {
      assertProblem(await post(route, '{"input": {'), 400);
      assertProblem(await post(route, 'input=1'), 400);
    });

    test('an empty body is 400', async () => {
      assertProblem(await post(route, ''), 400);
    });

    test(`an extra property is 400 with "$: additional properties 'bogus' not allowed"`, async () => {
      const p = assertProblem(await post(route, JSON.stringify({ input: {}, bogus: 1 })), 400);
      assert.ok(p.errors?.includes("$: additional properties 'bogus' not allowed"), JSON.stringify(p.errors));
    });

    test('a body without input is 400 naming input', async () => {
      const p = assertProblem(await post(route, '{}'), 400);
      assert.ok(p.errors?.some((e) => e.includes('input')), JSON.stringify(p.errors));
    });

    for (const [what, input] of [['a string', '"a cat"'], ['an array', '[1,2]'], ['null', 'null'], ['a number', '7']] as const) {
      test(`input that is ${what} is 400 naming input`, async () => {
        const p = assertProblem(await post(route, `{"input": ${input}}`), 400);
        assert.ok(p.errors?.some((e) => e.includes('input')), JSON.stringify(p.errors));
      });
    }

    for (const [what, body] of [['an array', '[{"input":{}}]'], ['a string', '"input"'], ['null', 'null']] as const) {
      test(`a body that is ${what} rather than an object is 400`, async () => {
        const p = assertProblem(await post(route, body), 400);
        assert.ok(p.errors && p.errors.length > 0, JSON.stringify(p));
      });
    }
  });
}

describe('body size', () => {
  test('a body over 10 MiB is 413 problem+json', async () => {
    assertProblem(await postLarge(`/v2/${ENDPOINTS.echo}/run`, bodyOfSize(10 * MiB + 1)), 413);
  });

  test('a much larger body (24 MiB) is 413 too, and the emulator still serves afterwards', async () => {
    assertProblem(await postLarge(`/v2/${ENDPOINTS.echo}/run`, bodyOfSize(24 * MiB)), 413);
    const r = await post('run', '{"input":{}}');
    assert.equal(r.status, 200, r.text);
  });

  test('a chunked body (no Content-Length) that grows past 10 MiB is 413', async () => {
    assertProblem(await postLarge(`/v2/${ENDPOINTS.echo}/run`, bodyOfSize(12 * MiB), true), 413);
  });

  test('a body of exactly 10 MiB is accepted', async () => {
    const r = await postLarge(`/v2/${ENDPOINTS.echo}/run`, bodyOfSize(10 * MiB));
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.equal(r.json.status, 'IN_QUEUE');
  });
});

describe('/run answers at once with only {id, status: "IN_QUEUE"} (SPEC 2.7, 4.2)', () => {
  test('the answer has exactly two fields', async () => {
    const r = await post('run', JSON.stringify({ input: { prompt: 'a cat' } }));
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json\b/);
    assert.deepEqual(Object.keys(r.json).sort(), ['id', 'status']);
    assert.equal(r.json.status, 'IN_QUEUE');
    assert.equal(typeof r.json.id, 'string');
    assert.ok(r.json.id.length > 0);
    assert.ok(!r.json.id.startsWith('sync-'), 'an async job must not carry the sync- prefix');
  });

  test('every job gets its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await post('run', '{"input":{}}')).json.id);
    assert.equal(ids.size, 20);
  });

  test('an input with nested objects and unicode is accepted as is', async () => {
    const r = await post('run', JSON.stringify({ input: { prompt: 'chat noir 🐈 «ciel»', nested: { a: [1, { b: null }] } } }));
    assert.equal(r.status, 200, r.text);
  });
});

// Issue 12, finding 2: an endpoint or job id is one path segment of a request that carries the API key. An id
// of `..` made the URL parser send `POST /v2/../run` as `POST /run`; now such an id is refused with a reason
// before anything is sent, and every id that is accepted is encoded so it stays one segment.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../src/core/http/client';
import { InvalidIdError } from '../../src/core/http/errors';
import { joinUrl } from '../../src/core/http/url';
import { checkId } from '../../src/core/ids';
import { json, rejection, scriptedServers } from './support/scriptedServer';

const serve = scriptedServers();
const REFUSED = ['..', '.', '', 'a/b', '../run', 'a\\b', '..\\..', 'a?x=1', 'a#b', '%2e%2e', '.%2e', 'a b', 'a\u0000b', 'a\nb', 'x'.repeat(201)];

async function clientAndServer() {
  const server = await serve(() => json({ id: 'job-1', status: 'IN_QUEUE' }));
  const client = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: 'rpa_TESTKEY_0123456789' });
  return { server, client };
}

describe('endpoint and job ids in routes (issue 12)', () => {
  test('an endpoint id of ".." (or any id that is not one path segment) is refused with a reason, and nothing is sent', async () => {
    const { server, client } = await clientAndServer();
    for (const id of REFUSED) {
      for (const call of [() => client.run(id, {}), () => client.runSync(id, {}), () => client.status(id, 'job-1')]) {
        // The client's calls may refuse before returning a promise: either way nothing is sent.
        const e = await rejection(Promise.resolve().then(call));
        assert.ok(e instanceof InvalidIdError, `${JSON.stringify(id)}: ${e.constructor.name} ${e.message}`);
        assert.equal(e.idKind, 'endpoint');
        assert.match(e.message, /Refused endpoint id .*: An endpoint id .*Nothing was sent/);
      }
    }
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), [], 'the server received nothing');
  });

  test('a job id of ".." cannot turn a status poll into another route', async () => {
    const { server, client } = await clientAndServer();
    for (const id of REFUSED) {
      const e = await rejection(Promise.resolve().then(() => client.status('echo', id)));
      assert.ok(e instanceof InvalidIdError && e.idKind === 'job', `${JSON.stringify(id)}: ${e.message}`);
    }
    assert.equal(server.requests.length, 0);
  });

  test('an accepted id is sent as exactly one encoded path segment', async () => {
    const { server, client } = await clientAndServer();
    await client.run('black-forest-labs-flux-1-schnell', {});
    await client.run('model:v1@x', {});
    await client.status('sdxl-turbo', 'sync-1f2e...u1');
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), [
      'POST /v2/black-forest-labs-flux-1-schnell/run',
      `POST /v2/${encodeURIComponent('model:v1@x')}/run`,
      'GET /v2/sdxl-turbo/status/sync-1f2e...u1',
    ]);
  });

  test('the reasons say what is wrong', () => {
    assert.match(checkId('..', 'endpoint') ?? '', /cannot be "\.\.": the URL parser would turn it into a different route/);
    assert.match(checkId('a/b', 'job') ?? '', /A job id has no spaces, slashes/);
    assert.match(checkId('', 'job') ?? '', /cannot be empty/);
    assert.equal(checkId('2f1e7c9a-3b4d-4e5f-8a9b-0c1d2e3f4a5b-u1', 'job'), undefined);
  });

  test('joinUrl refuses a route the URL parser would rewrite, whoever built it', () => {
    assert.throws(() => joinUrl('http://127.0.0.1:1', '/v2/../run'), /Refused to send a request to "\/v2\/\.\.\/run": the URL parser reads it as "\/run"/);
    assert.throws(() => joinUrl('https://api.example.com/prefix/', '/v2/x/./status'));
    assert.throws(() => joinUrl('http://127.0.0.1:1', '/v2/a?b/run'));
    assert.equal(joinUrl('https://api.example.com/prefix/', '/v2/x/run').pathname, '/prefix/v2/x/run');
  });
});

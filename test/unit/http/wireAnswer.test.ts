// The answer both transports hand the HTTP layer (src/core/http/wireAnswer.ts): node's answer read as it is (no
// Response around it), fetch's Response read the same way, against a real server on 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readText } from '../../../src/core/http/bodyText';
import { fromNode, fromResponse, type WireAnswer } from '../../../src/core/http/wireAnswer';

const BIG = 'x'.repeat(300_000);

describe('wireAnswer', () => {
  let server: http.Server;
  let base: string;
  const closed: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      req.socket.once('close', () => closed.push(req.url ?? ''));
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/plain', 'x-two': ['a', 'b'] }).end(BIG);
      // /endless: a body that never ends unless the client goes away.
      res.writeHead(200);
      const timer = setInterval(() => res.write('y'.repeat(1000)), 5);
      res.once('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const viaNode = (path: string): Promise<WireAnswer> =>
    new Promise((resolve, reject) => http.get(`${base}${path}`, { agent: false }, (res) => resolve(fromNode(res))).once('error', reject));
  const viaFetch = async (path: string): Promise<WireAnswer> => fromResponse(await fetch(`${base}${path}`));

  for (const [name, open] of [['node', viaNode], ['fetch', viaFetch]] as const) {
    test(`${name}: the status, the headers (a repeated one joined) and the whole body, chunk by chunk`, async () => {
      const answer = await open('/big');
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('x-two'), 'a, b');
      let chunks = 0;
      let text = '';
      for await (const chunk of answer.chunks) {
        chunks++;
        text += Buffer.from(chunk).toString('utf8');
      }
      assert.equal(text, BIG);
      assert.ok(chunks > 1, `${chunks} chunk(s): the body arrives in pieces`);
    });

    test(`${name}: a 204 has no body to read`, async () => {
      const answer = await open('/empty');
      assert.equal(answer.status, 204);
      assert.equal(await readText(answer), '');
    });

    test(`${name}: a body dropped unread closes its connection, and one left mid-way too`, async () => {
      const dropped = await open('/endless');
      await dropped.discard();
      const left = await open('/endless');
      for await (const chunk of left.chunks) if (chunk.byteLength) break;
      const deadline = Date.now() + 5000;
      while (closed.filter((u) => u === '/endless').length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(closed.filter((u) => u === '/endless').length, 2, 'the server saw both connections close');
      closed.length = 0;
    });
  }
});

// A request that writes something down at its last moment (connectedFetch.ts, docs/batches.md "What is safe to
// resend"): all of it but its body's last byte leaves once connected, the line is written with that last byte,
// and a request held back or answered before then never becomes whole. A real server on 127.0.0.1 counts the
// bytes each request's body brought.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchAfterConnect, type OnSending } from '../../../src/core/http/connectedFetch';
import { readText } from '../../../src/core/http/bodyText';
import { until } from '../support/until';

describe('a /run made whole only with its line', () => {
  let server: http.Server;
  let base = '';
  /** Per request: the body bytes the server has read so far, and whether the body came whole. */
  const seen: Array<{ bytes: number; whole: boolean }> = [];
  /** While set, a new request's body is not read (held) until the test resumes it. */
  let holdReading = false;
  let held: http.IncomingMessage | undefined;
  before(async () => {
    server = http.createServer((req, res) => {
      const s = { bytes: 0, whole: false };
      seen.push(s);
      // /refuse answers from the headers alone, as a service refusing a key or a rate does; its answer's body ends
      // a little later, so the connection is still open when the request's last moment comes.
      if (req.url === '/refuse') {
        res.writeHead(401, { 'content-type': 'application/json' }).write('{"title":"Unauthorized"');
        setTimeout(() => res.end('}'), 300);
        return;
      }
      if (holdReading) {
        req.pause();
        held = req;
      }
      req.on('data', (c: Buffer) => (s.bytes += c.length));
      req.on('end', () => {
        s.whole = true;
        res.setHeader('content-type', 'application/json');
        res.end('{"id":"job-1","status":"IN_QUEUE"}');
      });
      req.on('error', () => undefined); // a request cut short
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const body = JSON.stringify({ input: { prompt: 'a cat', seed: 7 } });
  const send = (path: string, onSending: OnSending) => fetchAfterConnect(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: new AbortController().signal }, onSending, true);

  test('all but the last byte has reached the server before the line is asked for; the last goes with it', async () => {
    seen.length = 0;
    let committedAt: number | undefined;
    const response = await send('/run', async () => {
      // Waits for the server to have read everything but the last byte: it never would, were nothing sent yet.
      await until('the body but its last byte at the server', () => seen[0]?.bytes === Buffer.byteLength(body) - 1);
      await sleep(50); // and nothing more comes before the line
      assert.equal(seen[0]!.whole, false);
      return () => {
        committedAt = seen[0]!.bytes;
        return true;
      };
    });
    assert.equal(response.status, 200);
    assert.equal(committedAt, Buffer.byteLength(body) - 1, 'the line was written with the body one byte short at the server');
    assert.deepEqual(seen, [{ bytes: Buffer.byteLength(body), whole: true }]);
  });

  test('a big body is handed to the OS, all but its last byte, before the line is asked for', async () => {
    seen.length = 0;
    let asked = false;
    const big = JSON.stringify({ input: { image: 'A'.repeat(8 * 1024 * 1024) } });
    // The server reads nothing for a while: 8 MiB cannot all be handed over (the sockets' buffers are far smaller).
    holdReading = true;
    const response = fetchAfterConnect(new URL('/run', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: big, signal: new AbortController().signal }, async () => {
      asked = true;
      return () => true;
    }, true);
    await sleep(300);
    assert.equal(asked, false, 'the line was asked for while most of the body had not left');
    holdReading = false;
    held?.resume();
    assert.equal((await response).status, 200);
    assert.equal(asked, true);
    assert.deepEqual(seen, [{ bytes: Buffer.byteLength(big), whole: true }]);
  });

  test('a request held back at its last moment never becomes whole at the server, and fails', async () => {
    seen.length = 0;
    await assert.rejects(send('/run', async () => {
      await until('the body but its last byte at the server', () => seen[0]?.bytes === Buffer.byteLength(body) - 1);
      return () => {
        throw new Error('Not sent: the batch was cancelled or paused.');
      };
    }));
    await sleep(100);
    assert.deepEqual(seen, [{ bytes: Buffer.byteLength(body) - 1, whole: false }]);
  });

  test('an answer that comes before the body is whole decides the request: no line is written', async () => {
    seen.length = 0;
    let commits = 0;
    let answered = false;
    const response = send('/refuse', async () => {
      await until('the answer', () => answered);
      return () => {
        commits++;
        return true;
      };
    });
    void response.then(() => (answered = true));
    const answer = await response;
    assert.equal(answer.status, 401);
    assert.deepEqual(JSON.parse(await readText(answer)), { title: 'Unauthorized' });
    assert.equal(commits, 0);
    assert.equal(seen[0]!.whole, false);
  });
});

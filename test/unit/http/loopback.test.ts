// Requests to this machine go around the editor's proxy support (src/core/http/loopback.ts). The support is
// VS Code's wrapping of fetch and http.request; here the same two entry points are wrapped to count their calls
// (and pass each on unchanged), so a test can tell which way a request went. The server is real, on 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import * as z from 'zod/mini';
import { createHttpTransport, type HttpRequest } from '../../../src/core/http/request';
import { isLoopbackHttp } from '../../../src/core/http/loopback';

test('loopback is plain http to localhost, 127.0.0.1 or [::1] (the editor resolves those DIRECT); anything else is not', () => {
  for (const u of ['http://127.0.0.1:8080/v2', 'http://localhost/x', 'http://[::1]:9/']) assert.equal(isLoopbackHttp(new URL(u)), true, u);
  for (const u of ['https://127.0.0.1/', 'https://localhost/', 'http://api.runpod.ai/v2', 'http://10.0.0.1/', 'http://127.0.0.1.example.com/', 'http://127.0.0.2/', 'http://[::2]/']) {
    assert.equal(isLoopbackHttp(new URL(u)), false, u);
  }
});

// The module object itself (an import's namespace is read-only), as the editor's support patches it.
const httpModule = createRequire(`${process.cwd()}/`)('node:http') as { request: typeof http.request };

describe('a loopback request does not pass through the patched fetch and http.request', () => {
  let server: http.Server;
  let base = '';
  let connections = 0;
  const calls = { fetch: 0, request: 0 };
  const original = { fetch: globalThis.fetch, request: httpModule.request };

  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        const body = JSON.stringify({ method: req.method, path: req.url });
        // /gz: compressed though nobody asked (as some servers do); fetch decodes it, so must node's client here.
        if (req.url?.startsWith('/gz')) res.setHeader('content-encoding', 'gzip').end(gzipSync(body));
        else res.end(body);
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // What the editor's proxy support does to every extension: both entry points replaced by wrappers.
    globalThis.fetch = ((...a: Parameters<typeof fetch>) => { calls.fetch++; return original.fetch(...a); }) as typeof fetch;
    httpModule.request = ((...a: unknown[]) => {
      calls.request++;
      return (original.request as (...x: unknown[]) => http.ClientRequest)(...a);
    }) as typeof http.request;
  });
  after(async () => {
    globalThis.fetch = original.fetch;
    httpModule.request = original.request;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const Echo = z.object({ method: z.string(), path: z.string() });
  const get = (path: string): HttpRequest => ({ method: 'GET', url: new URL(path, base), idempotent: true });
  const post = (path: string, onSending?: HttpRequest['onSending']): HttpRequest => ({
    method: 'POST', url: new URL(path, base), idempotent: false, body: { input: {} }, ...(onSending ? { onSending } : {}),
  });

  test('GETs share one kept-alive connection; each POST, with or without its last-moment step, has its own', async () => {
    const transport = createHttpTransport({ authorizedOrigins: [base], apiKey: 'k' });
    calls.fetch = calls.request = 0;
    connections = 0;
    for (let i = 0; i < 3; i++) assert.deepEqual(await transport.send(get(`/v2/e/status/${i}`), Echo), { method: 'GET', path: `/v2/e/status/${i}` });
    assert.equal(connections, 1, 'three GETs in a row opened more than one connection');
    let committed = 0;
    const onSending = async () => () => { committed++; return true; };
    assert.deepEqual(await transport.send(post('/v2/e/run', onSending), Echo), { method: 'POST', path: '/v2/e/run' });
    assert.deepEqual(await transport.send(post('/v2/e/run'), Echo), { method: 'POST', path: '/v2/e/run' });
    assert.equal(committed, 1);
    assert.equal(connections, 3, 'a POST reused a connection');
    assert.deepEqual(calls, { fetch: 0, request: 0 });
  });

  test('a gzip answer nobody asked for is decoded, for a GET and for a POST', async () => {
    const transport = createHttpTransport({ authorizedOrigins: [base], apiKey: 'k' });
    assert.deepEqual(await transport.send(get('/gz/status'), Echo), { method: 'GET', path: '/gz/status' });
    assert.deepEqual(await transport.send(post('/gz/run', async () => () => true), Echo), { method: 'POST', path: '/gz/run' });
  });

  test('with directLoopback off (as for any remote service) the same requests go through them', async () => {
    const transport = createHttpTransport({ authorizedOrigins: [base], apiKey: 'k', directLoopback: false });
    calls.fetch = calls.request = 0;
    await transport.send(get('/v2/e/status/1'), Echo);
    await transport.send(post('/v2/e/run', async () => () => true), Echo);
    assert.deepEqual(calls, { fetch: 1, request: 1 });
  });
});

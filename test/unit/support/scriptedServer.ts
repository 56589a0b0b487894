// A tiny real HTTP server on 127.0.0.1 for unit tests: it answers from a script (a list of replies, or a
// function of the request) and records every request with the time it arrived, so a test can prove what
// the client sent, to whom, and when. No mocked fetch anywhere (RULES.md).
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { ServiceError } from '../../../src/core/http/errors';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request (headers and body) had arrived. */
  at: number;
}

/** A normal answer. `body` objects are sent as JSON. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | object;
}
/** Full control: write what you like, destroy the socket, or never answer. */
export interface RawReply {
  raw: (res: ServerResponse, req: IncomingMessage) => void;
}
export type Script = (Reply | RawReply)[] | ((req: RecordedRequest, index: number) => Reply | RawReply | Promise<Reply | RawReply>);

export interface ScriptedServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Date.now() just before each scripted reply was written (raw replies excluded), by request index. */
  readonly repliedAt: number[];
  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number): Promise<void>;
  close(): Promise<void>;
}

export function problem(status: number, detail: string, extra: { errors?: string[]; headers?: Record<string, string> } = {}): Reply {
  const body: Record<string, unknown> = { title: `Error ${status}`, status, detail };
  if (extra.errors) body['errors'] = extra.errors;
  return { status, headers: { 'content-type': 'application/problem+json', ...extra.headers }, body: JSON.stringify(body) };
}

export function json(body: unknown, headers: Record<string, string> = {}, status = 200): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** Never answers (the client's timeout or cancellation has to end the exchange). */
export const hang: RawReply = { raw: () => undefined };

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const repliedAt: number[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(),
      };
      const index = requests.push(recorded) - 1;
      for (const w of waiters.filter((w) => requests.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      void (async () => {
        let reply: Reply | RawReply | undefined;
        if (typeof script === 'function') reply = await script(recorded, index);
        else reply = script[Math.min(index, script.length - 1)];
        if (!reply) {
          res.writeHead(500).end('no scripted reply');
          return;
        }
        if ('raw' in reply) {
          reply.raw(res, req);
          return;
        }
        const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        // Noted BEFORE writing: the client cannot have the answer earlier, so waits measured from here are
        // never overstated.
        repliedAt[index] = Date.now();
        res.writeHead(reply.status, reply.headers);
        res.end(body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    repliedAt,
    waitForRequests: (n) => new Promise<void>((resolve) => {
      if (requests.length >= n) resolve();
      else waiters.push({ n, resolve });
    }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A `serve(script)` for one test file: each server it starts is closed once the file's tests are done. */
export function scriptedServers(): (script: Script) => Promise<ScriptedServer> {
  const servers: ScriptedServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  return async (script) => {
    const s = await startScriptedServer(script);
    servers.push(s);
    return s;
  };
}

/** The typed error `p` rejects with; the test fails if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    return e as ServiceError;
  }
  assert.fail('expected a rejection');
}

// A fetch for a request that must write something down at the last moment before it leaves
// (HttpRequest.onSending): node's http/https client, which tells when the connection is open (the socket's
// `connect`, or `secureConnect` for TLS; at once for a kept-alive socket). The headers and all of the body but its
// last byte go then: no service acts on a body it has not received whole. Once those are handed to the OS,
// `before` is awaited, and its `commit` and the write of the last byte run in one synchronous step, so that no
// other code (another row's line, a listener) runs between what was written down and the request becoming whole
// on the wire. A connection that fails never calls it.
//
// The global fetch cannot say when its connection is open. A streamed body that waits for `before` was tried
// first: fetch (undici) reads a streamed body ahead, one chunk per layer that wraps it (its clone of the request,
// and the editor's own fetch patch adds another), so `before` ran before the connection existed and a window killed
// then left rows `submitting` whose request never left (test/editor-host/resume-kill.mjs --resume-kills: 2 in 10).
// The editor's proxy support patches node's http and https agents as it patches fetch, so a proxy still applies
// (except on loopback, where no proxy does: loopback.ts).
import * as http from 'node:http';
import * as https from 'node:https';
import { openLoopback } from './loopback';
import { fromNode, type WireAnswer } from './wireAnswer';

/**
 * What a request that writes down that it is leaving does at the last moment (connectedFetch.ts): a batch writes
 * its `submitting` line, so that a row is `submitting` only while its request can really be on its way
 * (docs/batches.md "What is safe to resend"). Awaited once the connection is open and all of the request but its
 * body's last byte is written; it resolves to `commit`, which the transport calls in the same synchronous run as
 * its write of that last byte, nothing between the two (not a microtask: other rows' lines and listeners ran
 * there, and a kill then left lines whose request had not left). `commit` returns false when it cannot write now
 * (it is awaited again), throws to hold the request back (the last byte is never sent, the connection is closed
 * and the request fails with a NetworkError). Not called when the service answered before the body was whole.
 * Needs a `body`; a transport made with its own `fetch` (tests) does not call it.
 */
export type OnSending = () => Promise<() => boolean>;

export interface ConnectedRequest {
  method: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/**
 * Sends `init` to `url`, calling `before` once the connection is open and its commit just before its bytes are
 * written. `aroundProxy`: the caller's decision that `url` is on this machine and goes around the editor's proxy
 * support (loopback.ts); made by the caller, once, for this transport and the plain one alike.
 */
export function fetchAfterConnect(url: URL, init: ConnectedRequest, before: OnSending, aroundProxy: boolean): Promise<WireAnswer> {
  return new Promise<WireAnswer>((resolve, reject) => {
    const bytes = Buffer.from(init.body, 'utf8');
    const options = { method: init.method, headers: { ...init.headers, 'content-length': String(bytes.byteLength) }, signal: init.signal };
    const req = aroundProxy
      ? openLoopback(url, options)
      : (url.protocol === 'https:' ? https : http).request(url, options);
    // An answer before the body is whole (a 401 or a 429 read from the headers alone) decides the request: no
    // line is written for it.
    let answered = false;
    req.once('error', reject);
    req.once('response', (res) => {
      answered = true;
      resolve(fromNode(res));
    });
    req.once('socket', (socket) => {
      const send = async (): Promise<void> => {
        // Everything but the body's last byte leaves first, and is handed to the OS before the line is asked for:
        // a service makes nothing of a body it has not received whole (its content-length), so a request cut
        // before the line is no job, and its row stays `pending`. After the line only that byte goes: a big input
        // (an image as base64, megabytes) uploads while the row is still `pending`, not `submitting`.
        const last = bytes.byteLength - 1;
        if (last > 0) await new Promise<void>((resolve, reject) => req.write(bytes.subarray(0, last), (e) => (e ? reject(e) : resolve())));
        for (;;) {
          const commit = await before();
          // Closed while `before` waited (a timeout, the server hung up): nothing is written down, nothing sent.
          if (socket.destroyed || !socket.writable) throw new Error('The connection closed before the request was sent.');
          if (answered || commit()) break;
        }
        // The same synchronous step as `commit`: the body's last byte is written to the connected socket here.
        req.end(bytes.subarray(Math.max(last, 0)));
      };
      const start = (): void => {
        // Once answered, the answer decides (its body is still being read): the request is not torn down.
        send().catch((e: unknown) => answered || req.destroy(e instanceof Error ? e : new Error(String(e))));
      };
      if (!socket.connecting) start();
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', start);
    });
  });
}

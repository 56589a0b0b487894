// Requests to a service on this machine (the emulator, a local worker), plain http to a loopback address, go
// through node's http client directly, around the editor's proxy support.
//
// Why: that support wraps fetch and http.request for every extension (@vscode/proxy-agent). On each request it
// reads the proxy settings (five whole-configuration reads per fetch, three per http.request, in code-server
// 4.100.3) and makes a new agent with no keep-alive, so each request also opens a new connection. During the
// bench's 10,000-job batch against the emulator that was 74% of all the extension host allocated, and its
// collections are the host's longest stalls (docs/decisions.md, issue 30). For these hosts the support itself
// never uses a proxy (its resolver answers DIRECT for them whatever the settings say) and it adds no
// certificates to plain http, so it adds nothing there but that cost.
//
// How: `new http.ClientRequest(...)` is what node's `http.request` does; the support replaces `request` and
// `get` on the module, not the class. Anything remote (the real service, https anywhere) keeps going through
// the patched fetch, so a user's proxy and certificates still apply.
import * as http from 'node:http';
import { urlToHttpOptions } from 'node:url';
import { fromNode, type WireAnswer } from './wireAnswer';

/**
 * GETs share kept-alive connections: a dropped one is retried like any GET (request.ts). Anything else gets a
 * connection of its own: a job submission is never sent twice, so it must not meet a kept-alive connection the
 * server closes as it is reused.
 */
const keptAlive = new http.Agent({ keepAlive: true });
/**
 * The rest: one agent that keeps nothing (no request is ever queued on it, so none ever takes another's
 * connection). `agent: false` gave the same, with a new Agent made for every request (issue 30's allocations).
 */
const connectionEach = new http.Agent({ keepAlive: false });

/**
 * True for plain http to localhost, 127.0.0.1 or [::1]: the hosts the editor's proxy resolver answers DIRECT
 * for whatever the proxy settings say (@vscode/proxy-agent's `resolveProxy`), so no proxy could apply to them.
 */
export function isLoopbackHttp(url: URL): boolean {
  const host = url.hostname;
  return url.protocol === 'http:' && (host === 'localhost' || host === '127.0.0.1' || host === '[::1]');
}

/** Opens a request to a loopback `url` (isLoopbackHttp) with node's own client; the caller writes and ends it. */
export function openLoopback(url: URL, options: http.RequestOptions): http.ClientRequest {
  const method = (options.method ?? 'GET').toUpperCase();
  return new http.ClientRequest({ ...urlToHttpOptions(url), ...options, agent: method === 'GET' ? keptAlive : connectionEach });
}

export interface LoopbackInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** fetch for a loopback `url`, with node's answer as it is; redirects are the caller's (as fetch's `manual`). */
export function loopbackFetch(url: URL, init: LoopbackInit): Promise<WireAnswer> {
  return new Promise<WireAnswer>((resolve, reject) => {
    const bytes = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
    const headers = bytes ? { ...init.headers, 'content-length': String(bytes.byteLength) } : init.headers;
    const req = openLoopback(url, { method: init.method, headers, signal: init.signal });
    req.once('error', reject);
    req.once('response', (res) => resolve(fromNode(res)));
    req.end(bytes);
  });
}

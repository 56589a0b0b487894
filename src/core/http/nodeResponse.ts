// node's http answer as a fetch Response, so the one HTTP layer (request.ts) reads every transport's answers alike.
import type * as http from 'node:http';
import { Readable } from 'node:stream';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** `res` as a Response, its body streamed (not read here). */
export function toResponse(res: http.IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = res.statusCode ?? 0;
  const body = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
  if (!body) res.resume();
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

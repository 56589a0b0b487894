// node's http answer as a fetch Response, so the one HTTP layer (request.ts) reads every transport's answers alike.
import type * as http from 'node:http';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The decoders fetch applies to a body by its content-encoding; fetch's headers keep saying it (and so do ours). */
const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** `res` as a Response, its body streamed (not read here) and decoded as fetch would (a server may gzip unasked). */
export function toResponse(res: http.IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = res.statusCode ?? 0;
  if (NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage ?? '', headers });
  }
  const decoder = DECODERS[(res.headers['content-encoding'] ?? '').trim().toLowerCase()]?.();
  // A decoding error ends the body with that error, as a broken socket would.
  if (decoder) res.once('error', (e) => decoder.destroy(e));
  const body = Readable.toWeb(decoder ? res.pipe(decoder) : res) as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

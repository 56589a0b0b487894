// An answer as the one HTTP layer (request.ts) reads it, from either transport: fetch's Response (the service out
// there, through the editor's proxy support) or node's own client (this machine, and requests that write down that
// they are leaving). Its status, its headers, and its body as chunks as they arrive.
//
// Why not a Response for both: node's answers were wrapped in one (Readable.toWeb, a ReadableStream, undici's
// Response and Headers) only to be read chunk by chunk again. In the 10,000-job bench that wrapping was a tenth of
// all the extension host allocated, the most of any one place of ours (docs/decisions.md, issue 30).
import type * as http from 'node:http';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

/** An answer's headers, by name in any case; several of one name come joined by ", " (as fetch's Headers do). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

export interface WireAnswer {
  readonly status: number;
  readonly headers: AnswerHeaders;
  /** The body, decoded as fetch decodes it (content-encoding), a chunk at a time (`for await`); [] for a null body. */
  readonly chunks: AsyncIterable<Uint8Array> | readonly Uint8Array[];
  /** Drops the body unread (a redirect, a body over its limit): its connection is closed, not drained. */
  discard(): Promise<void>;
}

/** fetch's `response` as an answer. */
export function fromResponse(response: Response): WireAnswer {
  const body = response.body;
  return {
    status: response.status,
    headers: response.headers,
    // node's ReadableStream is async-iterable, and leaving its loop early cancels it: the rest is not downloaded.
    chunks: body ? (body as unknown as AsyncIterable<Uint8Array>) : [],
    discard: async () => {
      await body?.cancel().catch(() => undefined);
    },
  };
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The decoders fetch applies to a body by its content-encoding; fetch's headers keep saying it (and so do ours). */
const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** node's `res` as an answer, its headers read from it, its body streamed (not read here) and decoded as fetch would (a server may gzip unasked). */
export function fromNode(res: http.IncomingMessage): WireAnswer {
  // node's own object, read where asked (its names are lower case): no copy into a Headers of undici's.
  const headers: AnswerHeaders = {
    get: (name) => {
      const value = res.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
  const status = res.statusCode ?? 0;
  if (NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return { status, headers, chunks: [], discard: () => Promise.resolve() };
  }
  const decoder = DECODERS[(res.headers['content-encoding'] ?? '').trim().toLowerCase()]?.();
  // A decoding error ends the body with that error, as a broken socket would.
  if (decoder) res.once('error', (e) => decoder.destroy(e));
  const body: Readable = decoder ? res.pipe(decoder) : res;
  return {
    status,
    headers,
    // A Readable is async-iterable; leaving its loop early destroys it, and so closes the connection.
    chunks: body,
    discard: () => {
      res.destroy();
      decoder?.destroy();
      return Promise.resolve();
    },
  };
}

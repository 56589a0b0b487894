// The billing worker thread's entry (bundled to dist/billingWorker.js): collects a billing body's chunks as the
// extension host receives them, then reads it with readBillingBody, so a year of hourly billing (80 MB of JSON)
// is joined, decoded, parsed, validated and aggregated here instead of on the extension host's thread, which
// every extension of the window shares. Chunks come in by transfer and the table's columns go back by
// transfer: nothing big is copied or held on that thread. No `vscode` import.
import { parentPort } from 'node:worker_threads';
import { SchemaError } from '../http/errors';
import { tableBuffers } from './billingTable';
import { readBillingBody, type BillingBodyMeta } from './readBillingBody';
import type { BillingWorkerReply, BillingWorkerRequest } from './billingReader';

// The batches are joined and decoded once at the end: TextDecoder's streaming mode (decoding each batch as it
// came) made the whole read about 15% slower, as it misses the one-shot decoder's fast path. A body whose
// length is known is copied into one buffer of that size as its batches come, while the rest is still on its
// way, rather than joined after the last (1-2 ms of a year of days' 3.5 MB, on the refresh's path); a body that
// turns out longer than it said goes on as a list of batches.
interface Body {
  meta: BillingBodyMeta;
  chunks: Uint8Array[];
  whole?: Uint8Array;
  filled: number;
}
const bodies = new Map<number, Body>();
/** A length said beyond this is not taken on trust for one allocation (a year by the hour is about 80 MB). */
const MAX_PRESIZED = 512 * 1024 * 1024;

function append(body: Body, chunk: Uint8Array): void {
  if (body.whole && body.filled + chunk.length <= body.whole.length) {
    body.whole.set(chunk, body.filled);
    body.filled += chunk.length;
    return;
  }
  if (body.whole) body.chunks.push(body.whole.subarray(0, body.filled));
  body.whole = undefined;
  body.chunks.push(chunk);
}

function bytesOf(body: Body): Uint8Array {
  if (body.whole) return body.whole.subarray(0, body.filled);
  return Buffer.concat(body.chunks);
}

function finish(id: number): void {
  const body = bodies.get(id);
  bodies.delete(id);
  if (!body) return;
  let reply: BillingWorkerReply;
  try {
    const result = readBillingBody(bytesOf(body), body.meta);
    body.chunks.length = 0;
    reply = { id, ok: true, result };
    parentPort!.postMessage(reply, tableBuffers(result.table));
    return;
  } catch (e) {
    reply = e instanceof SchemaError
      ? { id, ok: false, error: { kind: 'schema', path: e.path, reason: e.reason, ...(e.status !== undefined ? { status: e.status } : {}) } }
      : { id, ok: false, error: { kind: 'other', message: e instanceof Error ? e.message : String(e) } };
  }
  parentPort!.postMessage(reply);
}

parentPort?.on('message', (request: BillingWorkerRequest) => {
  switch (request.type) {
    case 'open': {
      const hint = request.meta.sizeHint;
      bodies.set(request.id, { meta: request.meta, chunks: [], filled: 0, ...(hint !== undefined && hint <= MAX_PRESIZED ? { whole: new Uint8Array(hint) } : {}) });
      break;
    }
    case 'chunk': {
      const body = bodies.get(request.id);
      if (body) append(body, request.chunk);
      break;
    }
    case 'end': finish(request.id); break;
    case 'abort': bodies.delete(request.id); break;
  }
});

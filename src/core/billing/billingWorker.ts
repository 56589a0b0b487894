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
// came) made the whole read about 15% slower, as it misses the one-shot decoder's fast path.
const bodies = new Map<number, { meta: BillingBodyMeta; chunks: Uint8Array[] }>();

function finish(id: number): void {
  const body = bodies.get(id);
  bodies.delete(id);
  if (!body) return;
  let reply: BillingWorkerReply;
  try {
    const result = readBillingBody(Buffer.concat(body.chunks), body.meta);
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
    case 'open': bodies.set(request.id, { meta: request.meta, chunks: [] }); break;
    case 'chunk': bodies.get(request.id)?.chunks.push(request.chunk); break;
    case 'end': finish(request.id); break;
    case 'abort': bodies.delete(request.id); break;
  }
});

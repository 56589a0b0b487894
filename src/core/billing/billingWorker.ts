// The billing worker thread's entry (bundled to dist/billingWorker.js): decodes a billing body's batches as the
// extension host receives them, then reads it with readBillingText, so a year of hourly billing (80 MB of JSON)
// is decoded, parsed, validated and aggregated here instead of on the extension host's thread, which
// every extension of the window shares. Chunks come in by transfer and the table's columns go back by
// transfer: nothing big is copied or held on that thread. No `vscode` import.
import { parentPort } from 'node:worker_threads';
import { SchemaError } from '../http/errors';
import { tableBuffers } from './billingTable';
import { readBillingText, type BillingBodyMeta } from './readBillingBody';
import type { BillingWorkerReply, BillingWorkerRequest } from './billingReader';

/** Each body is decoded as its batches arrive (while the rest is still on the wire), into pieces joined at the end. */
const bodies = new Map<number, { meta: BillingBodyMeta; decoder: TextDecoder; pieces: string[] }>();

function finish(id: number): void {
  const body = bodies.get(id);
  bodies.delete(id);
  if (!body) return;
  let reply: BillingWorkerReply;
  try {
    body.pieces.push(body.decoder.decode());
    const result = readBillingText(body.pieces.join(''), body.meta);
    body.pieces.length = 0;
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
    case 'open': bodies.set(request.id, { meta: request.meta, decoder: new TextDecoder(), pieces: [] }); break;
    case 'chunk': {
      const body = bodies.get(request.id);
      body?.pieces.push(body.decoder.decode(request.chunk, { stream: true }));
      break;
    }
    case 'end': finish(request.id); break;
    case 'abort': bodies.delete(request.id); break;
  }
});

// The billing worker thread's entry (bundled to dist/billingWorker.js): reads billing bodies with
// readBillingBody, so a year of hourly billing (80 MB of JSON) is decoded, parsed, validated and aggregated
// here instead of on the extension host's thread, which every extension of the window shares. The body comes in
// by transfer and the table's columns go back by transfer: nothing big is copied on that thread. No `vscode`.
import { parentPort } from 'node:worker_threads';
import { SchemaError } from '../http/errors';
import { tableBuffers } from './billingTable';
import { readBillingBody } from './readBillingBody';
import type { BillingWorkerReply, BillingWorkerRequest } from './billingReader';

parentPort?.on('message', (request: BillingWorkerRequest) => {
  let reply: BillingWorkerReply;
  try {
    const result = readBillingBody(request.body, request);
    reply = { id: request.id, ok: true, result };
    parentPort!.postMessage(reply, tableBuffers(result.table));
    return;
  } catch (e) {
    reply = e instanceof SchemaError
      ? { id: request.id, ok: false, error: { kind: 'schema', path: e.path, reason: e.reason, ...(e.status !== undefined ? { status: e.status } : {}) } }
      : { id: request.id, ok: false, error: { kind: 'other', message: e instanceof Error ? e.message : String(e) } };
  }
  parentPort!.postMessage(reply);
});

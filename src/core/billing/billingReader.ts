// Who reads a billing body: the billing worker thread (the extension's choice, see billingWorker.ts), or the
// caller's own thread (tests, the emulator's tools, and the fallback when the worker's file is missing).
// The worker starts on the first billing body, not at activation; it is held (ref'd) only while it has work,
// and ends after a minute with none, so an idle window keeps no second V8 heap. No `vscode` import.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { BytesBodyReader } from '../http/request';
import { SchemaError } from '../http/errors';
import { readBillingBody, type BillingBodyMeta, type BillingTableResult } from './readBillingBody';

export type BillingReader = BytesBodyReader<BillingTableResult>;

export interface BillingWorkerRequest extends BillingBodyMeta {
  id: number;
  body: ArrayBuffer;
}

export type BillingWorkerReply =
  | { id: number; ok: true; result: BillingTableResult }
  | { id: number; ok: false; error: { kind: 'schema'; path: string; reason: string; status?: number } | { kind: 'other'; message: string } };

/** Reads on the calling thread. */
export const inlineBillingReader: BillingReader = {
  readBytes: async (body, meta) => readBillingBody(body, meta),
};

export interface WorkerBillingReader extends BillingReader {
  /** Ends the worker (pending reads fail); a later read starts a new one. */
  dispose(): void;
}

const IDLE_MS = 60_000;

/**
 * Reads in a worker thread running `workerFile` (dist/billingWorker.js). When that file does not exist, reads
 * inline and says so once through `warn`. A worker that dies fails the reads it had; the next read starts another.
 */
export function createWorkerBillingReader(workerFile: string, warn: (message: string) => void = () => undefined): WorkerBillingReader {
  let worker: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  let warnedMissing = false;
  const pending = new Map<number, { resolve: (r: BillingTableResult) => void; reject: (e: Error) => void }>();

  function failAll(error: Error): void {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  }

  function stop(): void {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    const w = worker;
    worker = undefined;
    void w?.terminate();
  }

  function settled(): void {
    if (pending.size > 0 || !worker) return;
    worker.unref(); // an idle worker never keeps a process (a test run, a bench) alive
    clearTimeout(idleTimer);
    idleTimer = setTimeout(stop, IDLE_MS);
    idleTimer.unref();
  }

  function onReply(reply: BillingWorkerReply): void {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.result);
    else if (reply.error.kind === 'schema') p.reject(new SchemaError(reply.error.path, reply.error.reason, reply.error.status));
    else p.reject(new Error(`Reading the billing response failed: ${reply.error.message}`));
    settled();
  }

  function started(): Worker {
    if (worker) return worker;
    const w = new Worker(workerFile);
    w.on('message', onReply);
    w.on('error', (e) => {
      if (worker === w) worker = undefined;
      failAll(new Error(`The billing worker failed: ${e.message}`));
    });
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      if (pending.size > 0) failAll(new Error(`The billing worker stopped (exit code ${code}) before it answered.`));
    });
    worker = w;
    return w;
  }

  return {
    readBytes(body, meta) {
      if (!existsSync(workerFile)) {
        if (!warnedMissing) warn(`billing worker ${workerFile} is missing; reading billing on this thread`);
        warnedMissing = true;
        return inlineBillingReader.readBytes(body, meta);
      }
      return new Promise<BillingTableResult>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        clearTimeout(idleTimer);
        const w = started();
        w.ref();
        const request: BillingWorkerRequest = { id, body, status: meta.status, contentType: meta.contentType, secrets: meta.secrets };
        w.postMessage(request, [body]);
      });
    },
    dispose() {
      failAll(new Error('The billing worker was stopped.'));
      stop();
    },
  };
}

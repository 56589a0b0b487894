// Who reads a billing body: the billing worker thread (the extension's, see billingWorker.ts), or the caller's
// own thread (inlineBillingReader.ts: tests, and the fallback a caller may give for a missing worker file). The
// extension bundle has no inline reader at all: parsing, validation and aggregation live in the worker's bundle.
// The worker starts on the first billing body, not at activation; it is held (ref'd) only while it has work,
// and ends after a minute with none, so an idle window keeps no second V8 heap. No `vscode` import.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { BodySink, BytesBodyReader } from '../http/request';
import { SchemaError } from '../http/errors';
import type { BillingBodyMeta, BillingTableResult } from './readBillingBody';

export type BillingReader = BytesBodyReader<BillingTableResult>;

/** One body's messages, in order: open, a chunk per piece received, then end (or abort). */
export type BillingWorkerRequest =
  | { type: 'open'; id: number; meta: BillingBodyMeta }
  | { type: 'chunk'; id: number; chunk: Uint8Array }
  | { type: 'end'; id: number }
  | { type: 'abort'; id: number };

export type BillingWorkerReply =
  | { id: number; ok: true; result: BillingTableResult }
  | { id: number; ok: false; error: { kind: 'schema'; path: string; reason: string; status?: number } | { kind: 'other'; message: string } };

export interface WorkerBillingReader extends BillingReader {
  /** Ends the worker (pending reads fail); a later read starts a new one. */
  dispose(): void;
}

const IDLE_MS = 60_000;
/**
 * The worker's young generation, in MB (a worker's default here is 48). A read's parsed body is all alive until
 * its table is built, so with the default it outgrows the young generation in the middle of the parse: it is
 * copied into the old generation, and collected there by a mark-compact in the middle of some later read. With
 * more room it dies young, in the collection after the read. Measured here, 40 reads in a row of a year of days
 * (median): 50 endpoints (3.5 MB of JSON) 26 -> 23 ms, 100 endpoints 62 -> 46 ms, 200 endpoints 111 -> 88 ms;
 * the worker's own collections in 100 reads of the first fell from 9.7 to 1.7 ms per read
 * (tree.refreshToItems, issue 30). The space is only taken as the worker uses it, and the worker ends after a
 * minute with no read.
 */
const YOUNG_GENERATION_MB = 128;
const BATCH_BYTES = 1 << 20;

export interface WorkerBillingReaderOptions {
  /** Told once when the worker file is missing. */
  warn?: (message: string) => void;
  /** Reads instead when the worker file is missing; without it such a read fails, saying so. */
  fallback?: BillingReader;
  /** Bytes per message to the worker (default 1 MiB; tests make it tiny to split characters across batches). */
  batchBytes?: number;
}

/**
 * Reads in a worker thread running `workerFile` (dist/billingWorker.js). A worker that dies fails the reads it
 * had; the next read starts another.
 */
export function createWorkerBillingReader(workerFile: string, options: WorkerBillingReaderOptions = {}): WorkerBillingReader {
  const warn = options.warn ?? (() => undefined);
  const batchBytes = options.batchBytes ?? BATCH_BYTES;
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
    const w = new Worker(workerFile, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
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
    open(meta): BodySink<BillingTableResult> {
      if (!existsSync(workerFile)) {
        if (!warnedMissing) warn(`billing worker ${workerFile} is missing${options.fallback ? '; reading billing on this thread' : ''}`);
        warnedMissing = true;
        if (options.fallback) return options.fallback.open(meta);
        const missing = Promise.reject(new Error(`The billing worker (${workerFile}) is missing: reinstall the extension.`));
        missing.catch(() => undefined);
        return { write: () => undefined, finish: () => missing, abort: () => undefined };
      }
      const id = nextId++;
      clearTimeout(idleTimer);
      const w = started();
      w.ref();
      const result = new Promise<BillingTableResult>((resolve, reject) => pending.set(id, { resolve, reject }));
      result.catch(() => undefined); // read by finish(); an aborted body's failure is nobody's to see
      const post = (request: BillingWorkerRequest, transfer: ArrayBuffer[] = []): void => w.postMessage(request, transfer);
      post({ type: 'open', id, meta });
      // Chunks are gathered into one batch buffer per body (a chunk may be a view of a pooled buffer, so it cannot
      // be transferred itself): a few dozen messages for 80 MB instead of over a thousand. The batch is posted by
      // copy and reused, not transferred and allocated again: a fresh 1 MiB ArrayBuffer per batch doubled what
      // the host allocated outside its heap for a year of billing (80 MB of socket buffers, 80 MB of batches),
      // and that much external memory makes V8 stop the thread for full collections (issue 30: the longest
      // stall of the billing refresh was one, 140 ms). The copy is the serializer's own buffer, freed as the
      // worker reads it.
      let batch: Uint8Array | undefined;
      let filled = 0;
      const flush = (): void => {
        if (!batch || filled === 0) return;
        post({ type: 'chunk', id, chunk: filled === batch.length ? batch : batch.subarray(0, filled) });
        filled = 0;
      };
      return {
        write(chunk) {
          for (let at = 0; at < chunk.length;) {
            batch ??= new Uint8Array(batchBytes);
            const n = Math.min(chunk.length - at, batch.length - filled);
            batch.set(chunk.subarray(at, at + n), filled);
            filled += n;
            at += n;
            if (filled === batch.length) flush();
          }
        },
        finish() {
          flush();
          batch = undefined;
          post({ type: 'end', id });
          return result;
        },
        abort() {
          post({ type: 'abort', id });
          pending.delete(id);
          settled();
        },
      };
    },
    dispose() {
      failAll(new Error('The billing worker was stopped.'));
      stop();
    },
  };
}

// Billing read off the caller's thread (src/core/billing/billingReader.ts, billingWorker.ts): the worker's
// table is the one the inline reader makes, its errors are the same SchemaErrors, the key is scrubbed there
// too, the body may arrive in any pieces, and a missing or dying worker fails clearly, never silently.
// Real HTTP servers on 127.0.0.1 and a real worker thread, the entry bundled by esbuild as the build does.
import { before, describe, test } from 'node:test';
import * as esbuild from 'esbuild';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createServiceClient } from '../../../src/core/http/client';
import { CancelledError, SchemaError } from '../../../src/core/http/errors';
import { createWorkerBillingReader, type BillingReader } from '../../../src/core/billing/billingReader';
import { inlineBillingReader } from '../../../src/core/billing/inlineBillingReader';
import { buildBillingTable, isoFromMs, type BillingTable } from '../../../src/core/billing/billingTable';
import { aBillingResponse } from '../builders/billingResponse';
import { json, rejection, scriptedServers } from '../support/scriptedServer';

const KEY = 'rpa_READERKEY_abcdefghijkl';
const serve = scriptedServers();
let WORKER_FILE = '';

before(async () => {
  // A worker thread does not load TypeScript through tsx: bundle the entry as scripts/build.mjs does.
  WORKER_FILE = join(mkdtempSync(join(tmpdir(), 'billing-worker-build-')), 'billingWorker.js');
  await esbuild.build({ entryPoints: [resolve(__dirname, '../../../src/core/billing/billingWorker.ts')], outfile: WORKER_FILE, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
});

function clientWith(url: string, billingReader: BillingReader) {
  return createServiceClient({ billingBaseUrl: url, jobsBaseUrl: url, apiKey: KEY }, { random: () => 0, retry: { maxAttempts: 1 }, billingReader });
}

/** Writes `bytes` to a new body of `reader` in pieces of `size` bytes, and finishes it. */
function readInPieces(reader: BillingReader, bytes: Uint8Array, size: number, sizeHint?: number) {
  const sink = reader.open({ status: 200, contentType: 'application/json', secrets: [], ...(sizeHint !== undefined ? { sizeHint } : {}) });
  for (let i = 0; i < bytes.length; i += size) sink.write(bytes.subarray(i, i + size));
  return sink.finish();
}

/** A table as plain values, so deepEqual compares the numbers (typed arrays as arrays). */
function plain(t: BillingTable): unknown {
  return JSON.parse(JSON.stringify(t, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v)));
}

describe('billing reader', () => {
  test('the worker\'s table and warnings are the inline reader\'s, and the bucket columns hold what the records said', async () => {
    const body = aBillingResponse().withEndpoints(3).daily(4).startingAt('2026-01-01T00:00:00Z').build();
    body.metadata.recordCount = 99; // a warning to carry back
    const server = await serve([json(body), json(body)]);
    const worker = createWorkerBillingReader(WORKER_FILE);
    try {
      const fromWorker = await clientWith(server.url, worker).listBillingTable({ lastN: 4, bucketSize: 'day' });
      const inline = await clientWith(server.url, inlineBillingReader).listBillingTable({ lastN: 4, bucketSize: 'day' });
      assert.deepEqual(plain(fromWorker.table), plain(inline.table));
      assert.deepEqual(fromWorker.warnings, inline.warnings);
      assert.match(fromWorker.warnings.join(' '), /99 records but sent 12/);
      const t = fromWorker.table;
      assert.equal(t.endpoints.length, 3);
      assert.equal(t.bucketOffsets[3], 12);
      // Newest first within an endpoint, and every record's numbers where they belong.
      const first = t.endpoints[0]!.id;
      const records = body.records.filter((r) => r.serverlessId === first).sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime));
      assert.deepEqual(Array.from(t.bucketStartMs.subarray(0, 4), isoFromMs), records.map((r) => r.startTime));
      assert.deepEqual(Array.from(t.bucketAmounts.subarray(0, 5)), [records[0]!.totalAmount, records[0]!.gpuAmount, records[0]!.cpuAmount, records[0]!.diskAmount, records[0]!.feeAmount]);
      assert.deepEqual(plain(t), plain(buildBillingTable(body)));
    } finally {
      worker.dispose();
    }
  });

  test('a body that is not a billing response is the same SchemaError from the worker as on this thread', async () => {
    const body = aBillingResponse().withEndpoints(1).daily(2).build() as unknown as { records: Record<string, unknown>[] };
    body.records[1]!['totalAmount'] = 'lots';
    const server = await serve([json(body), json(body), { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>' }]);
    const worker = createWorkerBillingReader(WORKER_FILE);
    try {
      const client = clientWith(server.url, worker);
      const fromWorker = await rejection(client.listBillingTable({ lastN: 2, bucketSize: 'day' }));
      const fromThread = await rejection(clientWith(server.url, inlineBillingReader).listBillingTable({ lastN: 2, bucketSize: 'day' }));
      assert.ok(fromWorker instanceof SchemaError);
      assert.equal(fromWorker.message, fromThread.message);
      assert.equal(fromWorker.path, 'records.1.totalAmount');
      assert.equal(fromWorker.status, 200);
      const notJson = await rejection(client.listBillingTable({ lastN: 2, bucketSize: 'day' }));
      assert.ok(notJson instanceof SchemaError);
      assert.match(notJson.message, /not JSON.*content-type text\/html/);
    } finally {
      worker.dispose();
    }
  });

  test('the key is scrubbed in the worker before the body is parsed, as for every other answer', async () => {
    const body = aBillingResponse().withEndpoints([`echo-${KEY}`]).daily(1).build();
    const server = await serve([json(body)]);
    const worker = createWorkerBillingReader(WORKER_FILE);
    try {
      const { table } = await clientWith(server.url, worker).listBillingTable({ lastN: 1, bucketSize: 'day' });
      assert.equal(table.endpoints[0]!.id, 'echo-[REDACTED]');
    } finally {
      worker.dispose();
    }
  });

  test('a body written in pieces (batches split inside UTF-8 characters too) reads as a whole; an aborted one is dropped', async () => {
    const worker = createWorkerBillingReader(WORKER_FILE, { batchBytes: 5 });
    try {
      const response = aBillingResponse().withEndpoints(['caf\u00e9-\u{1F600}', 'plain']).daily(3).build();
      const bytes = new TextEncoder().encode(JSON.stringify(response));
      const aborted = worker.open({ status: 200, contentType: 'application/json', secrets: [] });
      aborted.write(bytes.subarray(0, 10));
      aborted.abort();
      const result = await readInPieces(worker, bytes, 7);
      assert.deepEqual(result.table.endpoints.map((e) => e.id).sort(), ['caf\u00e9-\u{1F600}', 'plain']);
      assert.deepEqual(plain(result.table), plain(buildBillingTable(response)));
    } finally {
      worker.dispose();
    }
  });

  test('an ASCII body and one with other bytes read alike: a UTF-8 BOM is dropped, a name keeps its accents', async () => {
    const worker = createWorkerBillingReader(WORKER_FILE);
    try {
      const response = aBillingResponse().withEndpoints(['caf\u00e9', 'plain']).daily(2).build();
      const utf8 = new TextEncoder().encode(JSON.stringify(response));
      const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
      const ascii = aBillingResponse().withEndpoints(['plain', 'other']).daily(2).build();
      assert.deepEqual(plain((await readInPieces(worker, withBom, 1 << 20)).table), plain(buildBillingTable(response)));
      assert.deepEqual(plain((await readInPieces(worker, new TextEncoder().encode(JSON.stringify(ascii)), 1 << 20)).table), plain(buildBillingTable(ascii)));
    } finally {
      worker.dispose();
    }
  });

  test('a body whose length was said reads the same when the length was right, too short or too long', async () => {
    const worker = createWorkerBillingReader(WORKER_FILE, { batchBytes: 64 });
    try {
      const response = aBillingResponse().withEndpoints(['caf\u00e9', 'plain']).daily(5).build();
      const bytes = new TextEncoder().encode(JSON.stringify(response));
      for (const hint of [bytes.length, bytes.length - 100, 1, bytes.length + 1000]) {
        const result = await readInPieces(worker, bytes, 50, hint);
        assert.deepEqual(plain(result.table), plain(buildBillingTable(response)), `said ${hint} of ${bytes.length} bytes`);
      }
    } finally {
      worker.dispose();
    }
  });

  test('the client tells the reader the length of an unencoded body, and no length for a gzip one', async () => {
    const seen: Array<number | undefined> = [];
    const spy: BillingReader = { open: (meta) => { seen.push(meta.sizeHint); return inlineBillingReader.open(meta); } };
    const response = aBillingResponse().withEndpoints(['a']).daily(2).build();
    const body = JSON.stringify(response);
    const zipped = gzipSync(body);
    const server = await serve([
      { raw: (res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body); } },
      { raw: (res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': zipped.length }).end(zipped); } },
    ]);
    const client = clientWith(server.url, spy);
    await client.listBillingTable({ lastN: 2, bucketSize: 'day' });
    await client.listBillingTable({ lastN: 2, bucketSize: 'day' });
    assert.deepEqual(seen, [Buffer.byteLength(body), undefined]);
  });

  test('a refresh cancelled while its body arrives drops that body in the worker, which then reads the next', async () => {
    let firstBytesSent!: () => void;
    const firstBytes = new Promise<void>((r) => (firstBytesSent = r));
    const body = JSON.stringify(aBillingResponse().withEndpoints(2).daily(2).build());
    const server = await serve([
      { raw: (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.write(body.slice(0, 40)); firstBytesSent(); } },
      json(JSON.parse(body)),
    ]);
    const worker = createWorkerBillingReader(WORKER_FILE);
    let aborted = 0;
    const watched: BillingReader = {
      open(meta) {
        const sink = worker.open(meta);
        return { write: (c) => sink.write(c), finish: () => sink.finish(), abort: () => { aborted++; sink.abort(); } };
      },
    };
    try {
      const client = clientWith(server.url, watched);
      const controller = new AbortController();
      const cancelled = rejection(client.listBillingTable({ lastN: 2, bucketSize: 'day' }, { signal: controller.signal }));
      await firstBytes;
      await new Promise((r) => setTimeout(r, 50));
      controller.abort();
      assert.ok((await cancelled) instanceof CancelledError);
      assert.equal(aborted, 1);
      const next = await client.listBillingTable({ lastN: 2, bucketSize: 'day' });
      assert.equal(next.table.endpoints.length, 2);
    } finally {
      worker.dispose();
    }
  });

  test('a worker that dies fails its read with the reason, and the next read starts a new worker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-worker-'));
    const dying = join(dir, 'dying.js');
    writeFileSync(dying, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
    const reader = createWorkerBillingReader(dying);
    try {
      const body = new TextEncoder().encode('{}');
      await assert.rejects(readInPieces(reader, body, 1), /billing worker stopped \(exit code 3\)/);
      await assert.rejects(readInPieces(reader, body, 1), /exit code 3/);
    } finally {
      reader.dispose();
    }
  });

  test('without its worker file a read fails saying so; with a fallback it reads on this thread, said once', async () => {
    const missing = join(tmpdir(), 'no-such-billing-worker.js');
    const body = new TextEncoder().encode(JSON.stringify(aBillingResponse().withEndpoints(1).daily(1).build()));
    await assert.rejects(readInPieces(createWorkerBillingReader(missing), body, 100), /billing worker \(.*no-such-billing-worker\.js\) is missing: reinstall the extension/);
    const warnings: string[] = [];
    const reader = createWorkerBillingReader(missing, { warn: (m) => warnings.push(m), fallback: inlineBillingReader });
    const read = () => readInPieces(reader, new TextEncoder().encode(JSON.stringify(aBillingResponse().withEndpoints(1).daily(1).build())), 100);
    assert.equal((await read()).table.endpoints.length, 1);
    assert.equal((await read()).table.endpoints.length, 1);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /missing; reading billing on this thread/);
  });
});

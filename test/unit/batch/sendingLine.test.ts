// A row is `submitting` only while its request can really be on its way (issue 27 item 12): the line is written
// after every gate and once the connection is open, before the request's first byte. Over real HTTP: a recording
// proxy in front of the emulator reads the manifest as each /run arrives; a refused connection never writes it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchConfig, inputs, KEY, refusingService, startRig } from './batchHarness';
import { readManifestText, ManifestWriter } from '../../../src/core/batch/manifestFile';
import { digestOf } from '../../../src/core/batch/batchInputs';
import { createServiceClient } from '../../../src/core/http/client';
import { BatchRunner } from '../../../src/core/batch/batchRunner';
import { JobDurationModel } from '../../../src/core/jobs/durationModel';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';

/** Every `submitting` line of the manifest text, by index. */
function submittingLines(text: string): number[] {
  return text.split('\n').filter((l) => l.includes('"phase":"submitting"')).map((l) => (JSON.parse(l) as { index: number }).index);
}

describe('a row is submitting only while its request can be on its way', async () => {
  const rig = await startRig(batchConfig());

  test('each /run reaches the service after its row\'s submitting line is on disk', async () => {
    let manifestPath = '';
    const seen: Array<{ i: number; phase: string | undefined }> = [];
    const target = new URL(rig.emulator.url);
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.method === 'POST' && req.url?.endsWith('/run')) {
          const i = (JSON.parse(body.toString('utf8')) as { input: { i: number } }).input.i;
          seen.push({ i, phase: readManifestText(readFileSync(manifestPath, 'utf8')).rows.get(i)?.phase });
        }
        const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (a) => {
          res.writeHead(a.statusCode ?? 502, a.headers);
          a.pipe(res);
        });
        up.end(body);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      const client = createServiceClient({ billingBaseUrl: url, jobsBaseUrl: url, apiKey: KEY }, { retry: { baseDelayMs: 50, maxDelayMs: 200 } });
      const { runner, manifestPath: p } = await rig.runner('img', inputs(8, (i) => ({ i })), { client, concurrency: 4 });
      manifestPath = p;
      await runner.start();
      assert.equal(seen.length, 8);
      assert.deepEqual(seen.filter((s) => s.phase !== 'submitting'), [], 'every /run arrived with its row written as submitting');
      assert.deepEqual(runner.rowList().map((r) => r.status), Array(8).fill('COMPLETED'));
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });

  // A kill lands anywhere: were any code (another row's line, a listener, a microtask) to run between a row's line
  // reaching the file and its /run's bytes reaching the socket, a kill there would leave the row `submitting` with
  // nothing sent, and the resume would call it `unknown` and never send it (resume-kill.mjs --resume-kills met it:
  // rows 36 and 37 lost; the lines of 4 rows were written in one burst, each request written ~3-7 ms later).
  // Every socket write of a /run and every row event looks at the file: no row may be written submitting whose
  // bytes have not left, except the one whose bytes are being written.
  test('a row\'s submitting line and its /run\'s bytes are written in one synchronous step: nothing runs between', async () => {
    let manifestPath = '';
    const written = new Set<number>(); // rows whose /run bytes were handed to their socket
    const violations: string[] = [];
    const lineWithoutBytes = (except?: number): number[] => manifestPath
      ? [...readManifestText(readFileSync(manifestPath, 'utf8')).rows.values()].filter((r) => r.phase === 'submitting' && !written.has(r.index) && r.index !== except).map((r) => r.index)
      : [];
    const original = net.Socket.prototype.write;
    // A /run's body goes out in two writes (connectedFetch.ts): all but its last byte once connected, then that
    // byte with the line. The request counts as sent when a write makes its body whole (it parses).
    const bodies = new WeakMap<net.Socket, { i: number; text: string }>();
    const early: number[] = []; // rows whose line was on file before any byte of their body left
    // Observed, not replaced: every write goes on to the real socket.
    net.Socket.prototype.write = function (this: net.Socket, ...args: Parameters<net.Socket['write']>) {
      const chunk = args[0];
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('latin1') : '';
      const m = /^\{"input":\{"i":(\d+)/.exec(text);
      if (m) {
        bodies.set(this, { i: Number(m[1]), text: '' });
        if (lineWithoutBytes().includes(Number(m[1]))) early.push(Number(m[1]));
      }
      const body = bodies.get(this);
      if (body) {
        body.text += text;
        let whole = false;
        try {
          JSON.parse(body.text);
          whole = true;
        } catch {
          // not whole yet: its last byte goes with the line
        }
        if (whole) {
          const others = lineWithoutBytes(body.i);
          if (others.length) violations.push(`row ${body.i}'s /run was made whole while row(s) ${others.join(', ')} were on file as submitting with nothing sent`);
          const phase = readManifestText(readFileSync(manifestPath, 'utf8')).rows.get(body.i)?.phase;
          if (phase !== 'submitting') violations.push(`row ${body.i}'s /run was made whole with its row on file as ${phase}, not submitting`);
          written.add(body.i);
          bodies.delete(this);
        }
      }
      return original.apply(this, args);
    } as typeof original;
    try {
      const { runner, manifestPath: p } = await rig.runner('img', inputs(12, (i) => ({ i })), {
        concurrency: 6,
        onEvent: (e) => {
          if (e.kind !== 'row') return;
          const early = lineWithoutBytes();
          if (early.length) violations.push(`a row event (row ${e.row.index} ${e.row.phase}) ran while row(s) ${early.join(', ')} were on file as submitting with nothing sent`);
        },
      });
      manifestPath = p;
      await runner.start();
      assert.equal(written.size, 12, 'every /run was seen leaving');
      assert.deepEqual(violations, []);
      assert.deepEqual(early, [], 'a row\'s line was written before any of its body left: the body\'s first part goes once connected');
      assert.deepEqual(runner.rowList().map((r) => r.status), Array(12).fill('COMPLETED'));
    } finally {
      net.Socket.prototype.write = original;
    }
  });

  test('a /run whose connection is refused never writes submitting: a cancel then skips it, as never sent', async () => {
    const { url, client } = await refusingService();
    const path = join(rig.dir, 'refused-line.jsonl');
    const manifest = await ManifestWriter.open(path);
    const items = inputs(3).map((input, index) => ({ index, ref: { file: `x${index}` }, input, digest: digestOf(input) }));
    const runner = new BatchRunner({ client, endpointId: 'img', items, manifest, header: { type: 'batch', version: 1, batchId: 'r', endpointId: 'img', service: url, createdAt: '', jobs: 3 }, concurrency: 3, retryMs: 200, probeMs: 100, wait: { durations: new JobDurationModel(), routeSupport: new RouteSupport() } });
    const done = runner.start();
    await new Promise((r) => setTimeout(r, 800));
    await runner.cancel();
    await done;
    await manifest.close();
    assert.deepEqual(submittingLines(readFileSync(path, 'utf8')), [], 'no row was ever written submitting: no byte of its request left');
    assert.deepEqual(runner.rowList().map((r) => r.phase), ['skipped', 'skipped', 'skipped']);
  });

  test('a pause before the requests leave holds them back: the rows stay pending (never submitting) and go after the resume', async () => {
    const { runner, manifestPath } = await rig.runner('img', inputs(4));
    const before = rig.accepted('img');
    const started = runner.start();
    runner.pause('held'); // before any connection is open
    await new Promise((r) => setTimeout(r, 300));
    const text = readFileSync(manifestPath, 'utf8');
    assert.deepEqual(submittingLines(text), [], 'nothing was written submitting while paused');
    assert.equal(rig.accepted('img'), before);
    runner.resume();
    await started;
    assert.deepEqual(runner.rowList().map((r) => r.status), Array(4).fill('COMPLETED'));
  });
});

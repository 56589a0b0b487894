// A batch when things go wrong, over real HTTP: a resume after a crash (jobs already sent followed by id, none
// sent twice, a torn last line ignored), 429s and an exhausted rate-limit window waited out and told, a 401
// pausing the batch, the service refusing connections or answering 503 for a while, and a /run whose answer is
// lost never resent by itself.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { batchConfig, inputs, refusingService, startRig } from './batchHarness';
import { readManifest } from '../../../src/core/batch/manifestFile';
import { digestOf } from '../../../src/core/batch/batchInputs';
import { startEmulator } from '../../../src/emulator/index';
import { ManifestWriter } from '../../../src/core/batch/manifestFile';
import { BatchRunner, type BatchEvent } from '../../../src/core/batch/batchRunner';
import { JobDurationModel } from '../../../src/core/jobs/durationModel';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import { join } from 'node:path';

async function fault(url: string, spec: object): Promise<void> {
  const r = await fetch(`${url}/__admin/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
  assert.equal(r.status, 200, await r.text());
}

describe('a batch when things go wrong', async () => {
  const rig = await startRig(batchConfig(), true);

  test('a resume follows the job already sent by its id, sends the unsent, and never resends an unanswered /run', async () => {
    const sent = await rig.client.run('img', { prompt: 'r1' });
    const header = { type: 'batch', version: 1, batchId: 'crashed', endpointId: 'img', service: rig.emulator.url, createdAt: new Date().toISOString(), jobs: 4 };
    const items = inputs(4, (i) => ({ prompt: `r${i}` })).map((input, index) => ({ index, ref: { file: `r${index}.json` }, input, digest: digestOf(input) }));
    const row = (i: number, extra: object) => JSON.stringify({ type: 'job', index: i, ref: items[i]!.ref, digest: items[i]!.digest, at: 1, ...extra });
    const path = join(rig.dir, 'crashed.jsonl');
    writeFileSync(path, [
      JSON.stringify(header),
      row(0, { phase: 'ended', jobId: 'old-0', status: 'COMPLETED', cost: { kind: 'estimate', usd: 0.25, how: 'x' }, endedAt: Date.now() }),
      row(1, { phase: 'active', jobId: sent.id, status: 'IN_QUEUE', submittedAt: Date.now() }),
      row(2, { phase: 'submitting' }),
      row(3, { phase: 'pending' }),
    ].join('\n') + '\n');
    appendFileSync(path, '{"type":"job","index":3,"pha');
    const prior = await readManifest(path);
    assert.equal(prior.tornLastLine, true);
    const before = rig.accepted('img');
    const manifest = await ManifestWriter.open(path);
    const runner = new BatchRunner({ client: rig.client, endpointId: 'img', items, manifest, header: header as never, prior, concurrency: 4, wait: { durations: new JobDurationModel(), routeSupport: new RouteSupport() } });
    await runner.start();
    const rows = runner.rowList();
    assert.deepEqual(rows.map((r) => r.phase), ['ended', 'ended', 'unknown', 'ended']);
    assert.equal(rows[1]!.jobId, sent.id, 'followed by id');
    assert.equal(rows[1]!.status, 'COMPLETED');
    assert.match(rows[2]!.error ?? '', /may have been created/);
    assert.equal(rig.accepted('img') - before, 1, 'only the unsent job was sent');
    assert.equal(runner.spentUsd, 0.25, 'what the batch spent before the crash still counts');
    // Sending the unknown one again is the user's explicit choice.
    await runner.resendUnknown([2]);
    assert.equal(runner.rowList()[2]!.status, 'COMPLETED');
    assert.equal(rig.accepted('img') - before, 2);
    await manifest.close();
    const after = await readManifest(path);
    assert.equal(after.tornLastLine, false, 'new lines start on a line of their own after the torn one');
    assert.deepEqual(after.problems.map((p) => p.line), [6], 'the torn line is now an unreadable line inside the file, reported');
  });

  test('Retry Failed past the retention window submits the job anew, keeping the old id', async () => {
    const header = { type: 'batch', version: 1, batchId: 'old', endpointId: 'chat', service: rig.emulator.url, createdAt: '', jobs: 1 };
    const input = { prompt: 'again', sampling_params: { max_tokens: 3 } };
    const items = [{ index: 0, ref: { file: 'old.json' }, input, digest: digestOf(input) }];
    const path = join(rig.dir, 'old.jsonl');
    const endedAt = Date.now() - 31 * 60_000;
    writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify({ type: 'job', index: 0, ref: items[0]!.ref, digest: items[0]!.digest, phase: 'ended', jobId: 'long-gone', status: 'FAILED', endedAt, at: endedAt })}\n`);
    const manifest = await ManifestWriter.open(path);
    const runner = new BatchRunner({ client: rig.client, endpointId: 'chat', items, manifest, header: header as never, prior: await readManifest(path), concurrency: 1, wait: { durations: new JobDurationModel(), routeSupport: new RouteSupport() } });
    await runner.start();
    const before = rig.accepted('chat');
    await runner.retryFailed();
    const row = runner.rowList()[0]!;
    assert.equal(row.status, 'COMPLETED');
    assert.deepEqual(row.previousJobIds, ['long-gone']);
    assert.notEqual(row.jobId, 'long-gone');
    assert.equal(rig.accepted('chat') - before, 1);
    assert.equal(rig.log.filter((l) => l.includes('/retry/long-gone')).length, 0, 'no /retry for a job past retention');
    await manifest.close();
  });

  test('Cancel while a /run is on its way waits for its answer and cancels that job too', async () => {
    await fault(rig.emulator.url, { kind: 'delay', delayMs: 600, path: '/v2/slow/run', count: 1 });
    const { runner } = await rig.runner('slow', inputs(3, (i) => ({ prompt: `c${i}` })), { concurrency: 1 });
    const done = runner.start();
    while (runner.rowList()[0]?.phase !== 'submitting') await new Promise((r) => setTimeout(r, 5));
    await runner.cancel();
    await done;
    assert.deepEqual(runner.rowList().map((r) => r.phase === 'ended' ? r.status : r.phase), ['CANCELLED', 'skipped', 'skipped']);
    const health = await rig.client.health('slow');
    assert.equal(health.jobs.inProgress + health.jobs.inQueue, 0, 'the job whose /run was on its way is not left running');
  });

  test('a manifest that can no longer be written pauses the batch with the reason, and nothing is sent unrecorded', async () => {
    const manifest = await ManifestWriter.open(join(rig.dir, 'closing.jsonl'));
    const items = inputs(4, (i) => ({ prompt: `w${i}` })).map((input, index) => ({ index, ref: { file: `w${index}` }, input, digest: digestOf(input) }));
    const before = rig.accepted('img');
    const runner = new BatchRunner({ client: rig.client, endpointId: 'img', items, manifest, header: { type: 'batch', version: 1, batchId: 'w', endpointId: 'img', service: rig.emulator.url, createdAt: '', jobs: 4 }, concurrency: 1, wait: { durations: new JobDurationModel(), routeSupport: new RouteSupport() } });
    void runner.start();
    while (runner.rowList()[0]?.phase !== 'ended') await new Promise((r) => setTimeout(r, 5));
    await manifest.close();
    while (!runner.paused) await new Promise((r) => setTimeout(r, 5));
    assert.equal(runner.paused.reason, 'error');
    assert.match(runner.paused.message, /manifest is closed/);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(rig.accepted('img') - before <= 2, 'no job sent without its line');
    await runner.cancel();
  });

  test('a 401 mid-batch pauses it with the reason; after the resume the job is sent, once', async () => {
    await fault(rig.emulator.url, { kind: 'status', status: 401, path: '/v2/img/run', count: 1 });
    const before = rig.accepted('img');
    const { runner } = await rig.runner('img', inputs(3, (i) => ({ prompt: `auth${i}` })), { concurrency: 1 });
    const done = runner.start();
    while (!runner.paused) await new Promise((r) => setTimeout(r, 10));
    assert.equal(runner.paused.reason, 'auth');
    assert.equal(runner.rowList()[0]!.phase, 'pending');
    runner.resume();
    await done;
    assert.deepEqual(runner.rowList().map((r) => r.status), ['COMPLETED', 'COMPLETED', 'COMPLETED']);
    assert.equal(rig.accepted('img') - before, 3);
  });

  test('a 503 from the service holds submissions until a probe gets through; a 500 on /run leaves that job unknown, not resent', async () => {
    const events: BatchEvent[] = [];
    const before = rig.accepted('img');
    await fault(rig.emulator.url, { kind: 'status', status: 500, path: '/v2/img/run', count: 1 });
    const { runner } = await rig.runner('img', inputs(5, (i) => ({ prompt: `down${i}` })), { concurrency: 1, onEvent: (e) => events.push(e) });
    await fault(rig.emulator.url, { kind: 'status', status: 503, path: '/v2/', count: 6 });
    await runner.start();
    const rows = runner.rowList();
    assert.equal(rows.filter((r) => r.phase === 'unknown').length, 1);
    assert.match(rows.find((r) => r.phase === 'unknown')!.error!, /answer to \/run was lost/);
    assert.equal(rows.filter((r) => r.status === 'COMPLETED').length, 4);
    assert.equal(rig.accepted('img') - before, 4, 'no job sent twice');
    assert.ok(events.some((e) => e.kind === 'wait' && e.reason === 'serviceDown'));
  });

  test('429s on /run are waited out (Retry-After) and told; every job is still sent exactly once', async () => {
    const limited = await startRig(batchConfig({ operationLimits: { run: 2 } }));
    const { runner, events } = await limited.runner('img', inputs(4));
    await runner.start();
    assert.deepEqual(runner.rowList().map((r) => r.status), Array(4).fill('COMPLETED'));
    assert.equal(limited.accepted('img'), 4);
    const wait = events.find((e) => e.kind === 'wait' && e.reason === 'rateLimited');
    assert.ok(wait, 'the wait was told');
    assert.ok(limited.log.some((l) => l === 'POST /v2/img/run 429'));
  });

  test('an exhausted RateLimit window holds the batch until it resets, and says so', async () => {
    // The emulator's clock starts 8 s before a minute ends, with 9 requests a minute: the batch runs out.
    const start = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 3_600_000 - 8_000).toISOString();
    const limited = await startRig(batchConfig({ now: start, rateLimits: { minute: 9 } }));
    const { runner, events } = await limited.runner('img', inputs(6, (i) => ({ prompt: `q${i}` })), { concurrency: 2 });
    await runner.start();
    assert.deepEqual(runner.rowList().map((r) => r.status), Array(6).fill('COMPLETED'));
    assert.equal(limited.accepted('img'), 6);
    assert.ok(events.some((e) => e.kind === 'wait' && e.reason === 'quota'), JSON.stringify(events.filter((e) => e.kind === 'wait')));
  });

  test('a service refusing connections: nothing is lost or sent twice, the batch goes on once it is up', async () => {
    const { url, port, client } = await refusingService();
    const manifest = await ManifestWriter.open(join(rig.dir, 'refused.jsonl'));
    const items = inputs(3).map((input, index) => ({ index, ref: { file: `x${index}` }, input, digest: digestOf(input) }));
    const events: BatchEvent[] = [];
    const runner = new BatchRunner({ client, endpointId: 'img', items, manifest, header: { type: 'batch', version: 1, batchId: 'r', endpointId: 'img', service: url, createdAt: '', jobs: 3 }, concurrency: 2, retryMs: 200, onEvent: (e) => events.push(e), wait: { durations: new JobDurationModel(), routeSupport: new RouteSupport() } });
    const done = runner.start();
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(events.some((e) => e.kind === 'wait' && e.reason === 'serviceDown'));
    assert.ok(runner.rowList().every((r) => r.phase === 'pending'), 'refused connections: nothing was sent, nothing is unknown');
    const log: string[] = [];
    const emulator = await startEmulator({ config: batchConfig(), port, log: (l) => log.push(l) });
    try {
      await done;
      assert.deepEqual(runner.rowList().map((r) => r.status), Array(3).fill('COMPLETED'));
      assert.equal(log.filter((l) => l.startsWith('POST /v2/img/run 200')).length, 3);
    } finally {
      await manifest.close();
      await emulator.close();
    }
  });
});

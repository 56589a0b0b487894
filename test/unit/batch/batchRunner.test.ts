// A batch against the emulator in this process, over real HTTP: every job sent once and followed to its end,
// rows written to the manifest, costs (reported and estimated, the estimate checked against the emulator's own
// billing), Cancel that leaves nothing running, Retry Failed that reruns only the failed, and both guards.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputs, KEY, PRICES, startRig } from './batchHarness';
import { ManifestWriter, readManifest } from '../../../src/core/batch/manifestFile';
import { priceFromBilling } from '../../../src/core/cost/jobCost';
import { billedAmount } from '../../../src/core/cost/billedAmount';
import { estimateBatchCost } from '../../../src/core/batch/costRange';
import type { ServiceClient } from '../../../src/core/service';

const TOTAL_PER_SECOND = PRICES.gpuPerSecond + PRICES.cpuPerSecond + PRICES.diskPerSecond + PRICES.feePerSecond;

// Since the rig started: the hours around now, through the batch's own reader of billing.
const since = Date.now() - 60_000;
async function billedUsd(client: ServiceClient, endpointId: string): Promise<number> {
  return (await billedAmount(client, endpointId, since, Date.now())).usd;
}

describe('BatchRunner on the emulator', async () => {
  const rig = await startRig();

  test('runs every job once, keeps N in flight, and the manifest rebuilds the same table', async () => {
    let inFlight = 0;
    let most = 0;
    let idle = false;
    const { runner, manifestPath } = await rig.runner('img', inputs(10), {
      concurrency: 3,
      onEvent: (e) => {
        if (e.kind === 'idle') idle = true;
        if (e.kind !== 'row') return;
        if (e.row.phase === 'submitting') most = Math.max(most, ++inFlight);
        if (e.row.phase === 'ended') inFlight--;
      },
    });
    await runner.start();
    const rows = runner.rowList();
    assert.deepEqual(rows.map((r) => r.status), Array(10).fill('COMPLETED'));
    assert.equal(new Set(rows.map((r) => r.jobId)).size, 10);
    assert.equal(rig.accepted('img'), 10, 'the emulator was sent exactly 10 jobs');
    assert.equal(most, 3, 'at most 3 in flight, and the limit was used');
    assert.deepEqual(new Set(rows.map((r) => `${r.executionTime} ${r.cost?.kind}`)), new Set(['300 unknown']), 'no price given: the cost says unknown, not 0');
    const state = await readManifest(manifestPath);
    assert.equal(state.header?.jobs, 10);
    assert.deepEqual([...state.rows.values()].map((r) => r.jobId).sort(), rows.map((r) => r.jobId).sort());
    assert.ok(idle, 'the end is told');
  });

  test('the estimate from a price learned from billing matches what the emulator bills for the next batch (within 1%)', async () => {
    // First batch: its execution seconds and what billing says they cost give the price per second.
    const before = await billedUsd(rig.client, 'priced');
    const first = await rig.runner('priced', inputs(4, (i) => ({ prompt: `a${i}` })));
    await first.runner.start();
    const seconds = first.runner.rowList().reduce((s, r) => s + r.executionTime! / 1000, 0);
    const afterFirst = await billedUsd(rig.client, 'priced');
    const price = priceFromBilling(afterFirst - before, seconds, 'the batch\'s hours');
    assert.ok(price);
    assert.ok(Math.abs(price.usdPerSecond - TOTAL_PER_SECOND) / TOTAL_PER_SECOND < 0.01, `price ${price.usdPerSecond}`);
    // Second batch, estimated with that price, against the service's own sum.
    const second = await rig.runner('priced', inputs(6, (i) => ({ prompt: `b${i}` })), { price });
    await second.runner.start();
    const estimated = second.runner.rowList().reduce((s, r) => s + (r.cost?.usd ?? NaN), 0);
    assert.ok(second.runner.rowList().every((r) => r.cost?.kind === 'estimate' && /^estimate: 1\.00 s of execution/.test(r.cost.how)));
    const billed = (await billedUsd(rig.client, 'priced')) - afterFirst;
    assert.ok(Math.abs(estimated - billed) / billed < 0.01, `estimated ${estimated}, billed ${billed}`);
    assert.equal(second.runner.spentUsd, estimated);
    const shown = await billedAmount(rig.client, 'priced', Date.now() - 1000, Date.now());
    assert.match(shown.startTime, /T\d\d:00:00Z$/);
    assert.equal(Date.parse(shown.endTime) - Date.parse(shown.startTime) >= 3_600_000, true, 'whole hours');
    assert.match(shown.note, /whole hours: other jobs of the endpoint in them/);
  });

  test('the range before sending holds what the emulator bills, cold starts included (the per-job estimates leave them out)', async () => {
    const price = { usdPerSecond: TOTAL_PER_SECOND, source: 'the emulator\'s prices' };
    const durations = { executionMs: 300, executionSpreadMs: 0, queueMs: 20, queueSpreadMs: 0, samples: 1 };
    // Two workers woken from zero: two cold starts of 1 s are billed beside 4 x 0.3 s of execution.
    const range = estimateBatchCost({ jobs: 4, durations, price, workers: 2, coldStartMs: 1000, idleTimeoutMs: 0 })!;
    const { runner } = await rig.runner('cold', inputs(4), { concurrency: 2, price });
    await runner.start();
    const billed = await billedUsd(rig.client, 'cold');
    const perJob = runner.rowList().reduce((s, r) => s + r.cost!.usd!, 0);
    assert.ok(Math.abs(perJob - 4 * 0.3 * TOTAL_PER_SECOND) < 1e-9);
    assert.ok(billed > perJob * 2, `cold starts are billed: ${billed} vs the jobs' ${perJob}`);
    assert.ok(billed >= range.lowUsd && billed <= range.highUsd * 1.01, `billed ${billed} within [${range.lowUsd}, ${range.highUsd}]`);
  });

  test('a public endpoint\'s jobs show the cost their output reports', async () => {
    const { runner } = await rig.runner('pub', inputs(3), { price: { usdPerSecond: 1, source: 'ignored' } });
    await runner.start();
    for (const r of runner.rowList()) {
      assert.equal(r.cost?.kind, 'reported');
      assert.ok(typeof r.cost?.usd === 'number' && r.cost.usd > 0 && r.cost.usd < 1, 'the output\'s cost, not execution x the given price');
    }
  });

  test('Cancel Batch cancels what is queued or running on the service; what was not sent is skipped', async () => {
    const { runner } = await rig.runner('slow', inputs(8), { concurrency: 3 });
    const done = runner.start();
    while (runner.rowList().filter((r) => r.phase === 'active').length < 3) await new Promise((r) => setTimeout(r, 20));
    await runner.cancel();
    await done;
    const rows = runner.rowList();
    assert.deepEqual(rows.map((r) => r.phase === 'ended' ? r.status : r.phase).sort(), ['CANCELLED', 'CANCELLED', 'CANCELLED', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
    const health = await rig.client.health('slow');
    assert.equal(health.jobs.inProgress + health.jobs.inQueue, 0, 'nothing left running on the emulator');
    assert.equal(rig.accepted('slow'), 3);
  });

  test('Retry Failed reruns only the failed jobs, through /retry on the same ids', async () => {
    // The LLM worker fails a job whose prompt is not a string.
    const { runner } = await rig.runner('chat', inputs(5, (i) => (i % 2 ? { prompt: 7 } : { prompt: `hi ${i}`, sampling_params: { max_tokens: 3 } })));
    await runner.start();
    const before = runner.rowList();
    assert.deepEqual(before.map((r) => r.status), ['COMPLETED', 'FAILED', 'COMPLETED', 'FAILED', 'COMPLETED']);
    await runner.retryFailed();
    const after = runner.rowList();
    assert.deepEqual(after.map((r) => r.retries ?? 0), [0, 1, 0, 1, 0]);
    assert.deepEqual(after.map((r) => r.jobId), before.map((r) => r.jobId), 'the same jobs, not new ones');
    assert.equal(rig.log.filter((l) => /^POST \/v2\/chat\/retry\/\S+ 200$/.test(l)).length, 2);
    assert.equal(rig.accepted('chat'), 5);
  });

  test('a worker error that echoes the API key is scrubbed before the manifest, the row or the streak\'s reason hold it', async () => {
    // The client scrubs its key from every answer's body before it is parsed (src/core/http/request.ts), so no
    // job object, and nothing a batch derives from one, ever holds it.
    // Three inputs: the streak pauses only a batch with jobs left to send.
    const { runner, manifestPath } = await rig.runner('leaky', inputs(3), { concurrency: 1, guards: { failureStreak: 2 } });
    const done = runner.start();
    while (!runner.paused) await new Promise((r) => setTimeout(r, 20));
    assert.equal(runner.paused.reason, 'failures');
    assert.doesNotMatch(runner.paused.message, new RegExp(KEY));
    await runner.cancel();
    await done;
    for (const row of runner.rowList().filter((r) => r.phase !== 'skipped')) {
      assert.equal(row.status, 'FAILED');
      assert.match(row.error ?? '', /^the model hub refused the token \S+$/, 'the rest of the error is kept');
      assert.doesNotMatch(row.error ?? '', new RegExp(KEY));
    }
    assert.doesNotMatch(readFileSync(manifestPath, 'utf8'), new RegExp(KEY), 'the key is in no line of the manifest');
  });

  test('a cancel marks every unsent job skipped before the batch reads Cancelled, however slow the manifest writes', async () => {
    // Each manifest line takes a while, as on a loaded machine: the rows were marked one write at a time, and the
    // slot that found the work empty ended the batch in between (the editor test saw fewer skipped than unsent).
    const manifest = await ManifestWriter.open(join(rig.dir, 'slow-writes-batch.jsonl'));
    after(() => manifest.close());
    const write = manifest.write.bind(manifest);
    manifest.write = async (...line) => {
      await new Promise((r) => setTimeout(r, 30));
      return write(...line);
    };
    const { runner } = await rig.runner('leaky', inputs(8), { concurrency: 1, guards: { failureStreak: 2 }, manifest });
    const done = runner.start();
    while (!runner.paused) await new Promise((r) => setTimeout(r, 20));
    const phasesWhenCancelled: string[][] = [];
    runner.life.onChange((s) => void (s.kind === 'cancelled' && phasesWhenCancelled.push(runner.rowList().map((r) => r.phase))));
    await runner.cancel();
    await done;
    assert.equal(phasesWhenCancelled.length, 1, 'the batch was cancelled once');
    assert.deepEqual(phasesWhenCancelled[0], ['ended', 'ended', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped'], 'when it read Cancelled');
  });

  test('N failures in a row pause the batch with their reason; nothing more is sent until it resumes', async () => {
    const { runner, events } = await rig.runner('bad', inputs(6), { concurrency: 1, guards: { failureStreak: 3 } });
    const done = runner.start();
    while (!runner.paused) await new Promise((r) => setTimeout(r, 20));
    assert.equal(runner.paused.reason, 'failures');
    assert.match(runner.paused.message, /^3 jobs failed in a row: CUDA out of memory/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rig.accepted('bad'), 3, 'no job sent while paused');
    assert.ok(events.some((e) => e.kind === 'paused' && e.reason === 'failures'));
    runner.resume({ failureStreak: 0 });
    await done;
    assert.equal(rig.accepted('bad'), 6);
  });

  test('the spend guard pauses the batch before the job that would cross the limit', async () => {
    const price = { usdPerSecond: 0.01, source: 'test' };
    // 0.3 s x $0.01 = $0.003 a job: after 3 jobs ($0.009) the 4th would make $0.012, over $0.01: it is not sent.
    const { runner } = await rig.runner('img', inputs(8, (i) => ({ prompt: `s${i}` })), { concurrency: 1, price, guards: { maxUsd: 0.01 } });
    const sentBefore = rig.accepted('img');
    const done = runner.start();
    while (!runner.paused) await new Promise((r) => setTimeout(r, 20));
    assert.equal(runner.paused.reason, 'spend');
    assert.equal(rig.accepted('img') - sentBefore, 3);
    assert.ok(runner.spentUsd <= 0.01, `within the limit: $${runner.spentUsd}`);
    assert.match(runner.paused.message, /past its spend limit of \$0\.01/);
    runner.resume({ maxUsd: 1 });
    await done;
    assert.equal(rig.accepted('img') - sentBefore, 8);
  });
});


// The editor's words for a batch (src/batch/batchRowView.ts, batchSummary.ts) and what it learns of an endpoint
// before sending (batchPlanning.ts, against the emulator): rows read like the job life, costs say when they are
// estimates and how, the range and the jobs in flight come from the endpoint itself.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobRow } from '../../../src/core/batch';
import { JobDurationModel, durationKey } from '../../../src/core/jobs/durationModel';
import * as path from 'node:path';
import { rowView, inputSummary } from '../../../src/batch/batchRowView';
import { thumbnailFile } from '../../../src/batch/batchThumbnail';
import { countsText, endText, spentText } from '../../../src/batch/batchSummary';
import { countRow } from '../../../src/core/batch/batchTally';
import { tally } from './tallyReference';
import { planBatch, rangeText } from '../../../src/batch/batchPlanning';
import { BatchRowView, HostMessage } from '../../../src/batch/batchProtocol';
import { inputs, startRig } from './batchHarness';

const base = { type: 'job' as const, digest: 'd', at: 1 };
const row = (index: number, extra: Partial<JobRow>): JobRow => ({ ...base, index, ref: { file: '/w/in.input.json' }, phase: 'pending', ...extra });

describe('batch rows as the panel shows them', () => {
  test('statuses in the job life\'s words, the batch\'s own phases said plainly', () => {
    assert.equal(rowView(row(0, {})).status, 'Not sent yet');
    assert.equal(rowView(row(0, { phase: 'active', status: 'IN_PROGRESS' })).status, 'In progress');
    assert.equal(rowView(row(0, { phase: 'ended', status: 'FAILED', retries: 1 })).status, 'Failed · attempt 2');
    assert.equal(rowView(row(0, { phase: 'ended', status: 'REJECTED' })).group, 'failed');
    assert.equal(rowView(row(0, { phase: 'ended', status: 'CANCELLED' })).group, 'stopped');
    assert.equal(rowView(row(0, { phase: 'unknown' })).group, 'failed');
    assert.equal(rowView(row(0, { phase: 'skipped' })).group, 'stopped');
    assert.equal(rowView(row(0, { phase: 'skipped' })).status, 'Not sent (batch cancelled)', 'the header\'s words for it');
  });

  test('times in the one duration format; a cost says whether it is an estimate, and how it was made', () => {
    const v = rowView(row(3, { phase: 'ended', status: 'COMPLETED', delayTime: 340, executionTime: 1750, cost: { kind: 'estimate', usd: 0.000542, how: 'estimate: 1.75 s x ...' }, firstLine: 'Once upon a time' }));
    assert.equal(v.delayText, '340 ms');
    assert.equal(v.executionText, '1.7 s');
    assert.equal(v.costText, '$0.000542 est.');
    assert.equal(v.costHow, 'estimate: 1.75 s x ...');
    assert.equal(v.note, 'Once upon a time');
    assert.ok(BatchRowView.safeParse(v).success, 'passes the protocol');
    const reported = rowView(row(0, { phase: 'ended', status: 'COMPLETED', cost: { kind: 'reported', usd: 0.03, how: 'reported by the endpoint' } }));
    assert.equal(reported.costText, '$0.0300');
    assert.match(reported.costHow, /^Reported by the endpoint/);
    assert.equal(rowView(row(0, { phase: 'ended', status: 'COMPLETED', cost: { kind: 'unknown', how: 'no price' } })).costText, '', 'an unknown cost is blank, never $0');
  });

  test('a moving job carries when its attempt was sent (the page ticks its "so far"); an ended or unsent one does not', () => {
    assert.equal(rowView(row(0, { phase: 'active', status: 'IN_PROGRESS', submittedAt: 5000 })).liveSince, 5000);
    assert.equal(rowView(row(0, { phase: 'active', status: 'IN_QUEUE', submittedAt: 7000, retries: 1 })).liveSince, 7000);
    assert.equal(rowView(row(0, { phase: 'submitting', at: 9000 })).liveSince, 9000, 'sent, no answer yet: from when the line was written');
    assert.equal(rowView(row(0, { phase: 'active', status: 'COMPLETED', submittedAt: 5000 })).liveSince, undefined, 'the service said it ended (outputs being saved)');
    assert.equal(rowView(row(0, { phase: 'ended', status: 'COMPLETED', submittedAt: 5000, executionTime: 900 })).liveSince, undefined);
    assert.equal(rowView(row(0, {})).liveSince, undefined);
    assert.equal(rowView(row(0, { phase: 'active', status: 'IN_PROGRESS', submittedAt: 5000 })).executionText, '', 'no time of the service\'s yet');
  });

  test('a row\'s thumbnail is its first saved image inside the batch\'s folder, never a text file or a file elsewhere', () => {
    const dir = path.join(path.sep, 'w', 'batches', 'b1');
    const inDir = (...p: string[]): string => path.join(dir, 'img', 'job-1', ...p);
    assert.equal(thumbnailFile([inDir('output.txt'), inDir('image-1.webp'), inDir('image-2.png')], dir), inDir('image-1.webp'));
    for (const ext of ['png', 'jpg', 'gif', 'PNG']) assert.equal(thumbnailFile([inDir(`a.${ext}`)], dir), inDir(`a.${ext}`), ext);
    assert.equal(thumbnailFile([inDir('output.txt'), inDir('job.json'), inDir('audio-1.wav'), inDir('video-1.mp4')], dir), undefined);
    assert.equal(thumbnailFile([path.join(dir, '..', 'b2', 'x.png'), path.join(path.sep, 'etc', 'x.png')], dir), undefined, 'outside the folder the panel may read');
    assert.equal(thumbnailFile(undefined, dir), undefined);
    const v = rowView(row(0, { phase: 'ended', status: 'COMPLETED' }), 'https://file+.vscode-resource.vscode-cdn.net/w/x.png');
    assert.equal(v.thumbnail, 'https://file+.vscode-resource.vscode-cdn.net/w/x.png');
    assert.ok(BatchRowView.safeParse(v).success);
    assert.equal(BatchRowView.safeParse({ ...v, thumbnail: 42 }).success, false, 'a thumbnail is a string or nothing');
  });

  test('an input is named by its file, its JSONL line, or its sweep values', () => {
    assert.equal(inputSummary({ file: '/w/a/prompts.jsonl', line: 12 }), 'prompts.jsonl:12');
    assert.equal(inputSummary({ file: '/w/s.input.json', sweep: { seed: 2, 'sampling_params.max_tokens': 64 } }), 's.input.json seed=2 sampling_params.max_tokens=64');
  });

  test('the counts and the spend, with "estimate" once any part is one', () => {
    const rows = [
      row(0, { phase: 'ended', status: 'COMPLETED', cost: { kind: 'reported', usd: 0.01, how: '' } }),
      row(1, { phase: 'ended', status: 'FAILED', cost: { kind: 'estimate', usd: 0.002, how: '' } }),
      row(2, { phase: 'active', status: 'IN_QUEUE' }),
      row(3, {}),
    ];
    const t = tally(rows);
    // Kept row by row as they change, the same: row 2 ends, then row 3 is sent.
    const kept = tally(rows);
    const change = (i: number, next: (typeof rows)[number]): void => {
      countRow(kept, rows[i]!, -1);
      countRow(kept, next, 1);
      rows[i] = next;
    };
    assert.equal(countsText(t), '2 of 4 done · 1 completed · 1 failed · 1 running · 1 not sent');
    assert.equal(spentText(t), 'Cost so far: $0.0120 (estimate)');
    assert.equal(spentText(t, true), 'Cost: $0.0120 (estimate)', 'a batch that has ended says what it cost, not "so far"');
    change(2, row(2, { phase: 'ended', status: 'COMPLETED', cost: { kind: 'reported', usd: 0.001, how: '' } }));
    change(3, row(3, { phase: 'active', status: 'IN_QUEUE' }));
    assert.deepEqual(kept, tally(rows));
    assert.equal(countsText(kept), '3 of 4 done · 2 completed · 1 failed · 1 running');
    // A retry's new attempt keeps what the first one cost: a job's cost is the sum of its attempts (issue 27 item 3).
    change(1, row(1, { phase: 'active', status: 'IN_QUEUE', retries: 1, earlierAttemptsUsd: 0.002 }));
    assert.equal(spentText(kept), 'Cost so far: $0.0130 (estimate)');
    change(1, row(1, { phase: 'ended', status: 'FAILED', retries: 1, earlierAttemptsUsd: 0.002, cost: { kind: 'estimate', usd: 0.003, how: '' } }));
    assert.equal(spentText(kept), 'Cost so far: $0.0160 (estimate)');
    assert.deepEqual(kept, tally(rows));
  });

  test('a cancelled job is counted once, and the parts add up to the total (issue 27 item 6)', () => {
    const t = tally([
      row(0, { phase: 'ended', status: 'COMPLETED' }),
      row(1, { phase: 'ended', status: 'CANCELLED' }),
      row(2, { phase: 'skipped' }),
      row(3, { phase: 'skipped' }),
      row(4, { phase: 'unknown' }),
    ]);
    assert.equal(countsText(t), '5 of 5 done · 1 completed · 1 cancelled · 2 not sent (batch cancelled) · 1 unknown or lost');
    assert.equal(t.completed + t.failed + t.cancelled + t.skipped + t.unknown + t.running + t.notSent, t.total);
  });

  test('the notification at the end: counts, cost, then the state as a sentence, never a stray word or ".."', () => {
    const t = tally([row(0, { phase: 'ended', status: 'CANCELLED' }), row(1, { phase: 'skipped' })]);
    const head = `Batch pix on flux: ${countsText(t)}. ${spentText(t, true)}.`;
    assert.equal(endText('pix', 'flux', t, 'Cancelled'), `${head} Cancelled.`);
    assert.equal(endText('pix', 'flux', t, 'Finished: every job had been sent before the pause, and all have ended.'), `${head} Finished: every job had been sent before the pause, and all have ended.`);
    assert.equal(endText('pix', 'flux', t, undefined), head);
  });

  test('the runner\'s tally, kept as rows change, is the tally of its rows counted afresh', async () => {
    const rig = await startRig();
    const { runner } = await rig.runner('chat', inputs(6, (i) => (i % 3 === 1 ? { prompt: 7 } : { prompt: `hi ${i}`, sampling_params: { max_tokens: 3 } })), { concurrency: 2 });
    const done = runner.start();
    // Read while rows change too: a row set while its manifest line is being written is counted at once.
    const seen: string[] = [];
    while (seen.length < 3 || !seen.at(-1)!.startsWith('6 of 6')) {
      assert.deepEqual({ ...runner.tally }, tally(runner.rowList()));
      seen.push(countsText(runner.tally));
      await new Promise((r) => setTimeout(r, 5));
    }
    await done;
    assert.equal(countsText(runner.tally), '6 of 6 done · 4 completed · 2 failed');
    await runner.retryFailed();
    assert.deepEqual({ ...runner.tally }, tally(runner.rowList()), 'the same after Retry Failed moved rows back and on');
  });

  test('a page message with a row the protocol does not know is refused', () => {
    assert.equal(HostMessage.safeParse({ type: 'rows', reset: true, rows: [{ index: 0, summary: 'x', status: 'x', group: 'nope' }] }).success, false);
  });
});

describe('what the editor learns of an endpoint before sending', () => {
  test('jobs in flight from workers.max, the price from the table, a range once durations are known', async () => {
    const rig = await startRig();
    const durations = new JobDurationModel();
    const input = { client: rig.client, endpointId: 'img', jobs: 100, concurrencySetting: 0, gpuPrices: {}, durations, reportedCosts: [] };
    const first = await planBatch(input);
    assert.equal(first.concurrency, 8, 'twice workers.max (4)');
    assert.match(first.price!.source, /ADA_24/);
    assert.equal(first.range, undefined, 'no durations learned yet: no range, never a made-up one');
    assert.match(rangeText(first.range), /^unknown/, 'nothing known: unknown');
    assert.match(rangeText(first.range, first.price), /^not known yet .* \$0\.000310 per second it runs \(price table: RTX 4090 \(ADA_24\)/, 'a price known: said, never "unknown"');
    // One sentence, one money format (issue 32): it said "$0.000310 per second" and "$0.00031/s" side by side.
    assert.match(rangeText(first.range, first.price), /\$0\.000310 per second it runs \(price table: RTX 4090 \(ADA_24\) \$0\.000310\/s\)$/);
    for (let i = 0; i < 5; i++) durations.record(durationKey(rig.client.settings.jobsBaseUrl, 'img'), 20, 300);
    const second = await planBatch({ ...input, gpuPrices: { ADA_24: 0.001 } });
    assert.match(second.price!.source, /your price table/);
    assert.ok(second.range && second.range.lowUsd > 0 && second.range.lowUsd <= 100 * 0.3 * 0.001 + 1e-9 && second.range.highUsd >= second.range.lowUsd, JSON.stringify(second.range));
    const own = await planBatch({ ...input, concurrencySetting: 3 });
    assert.equal(own.concurrency, 3, 'the setting wins');
    const pub = await planBatch({ ...input, endpointId: 'pub', reportedCosts: [0.002, 0.004] });
    assert.deepEqual([pub.range?.lowUsd, pub.range?.highUsd], [0.2, 0.4], 'a public endpoint: from the costs it reported');
  });
});

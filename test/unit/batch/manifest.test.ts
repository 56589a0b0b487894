// The manifest on a real file: lines appended in order, a batch rebuilt from them (the last line of a job wins),
// a torn last line after a crash dropped and said so, and the CSV export.
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changedInputs, countPhases, endsFinished, ManifestWriter, readManifest, readManifestText } from '../../../src/core/batch/manifestFile';
import { rowsToCsv } from '../../../src/core/batch/manifestCsv';
import type { JobRow } from '../../../src/core/batch/manifestFormat';
import type { BatchSource } from '../../../src/core/batch/batchInputs';

const dir = mkdtempSync(join(tmpdir(), 'batch-manifest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const source: BatchSource = { kind: 'jsonl', path: '/data/prompts.jsonl' };
const header = { type: 'batch' as const, version: 1, batchId: 'b1', endpointId: 'ep', service: 'http://127.0.0.1:1', createdAt: '2026-11-25T00:00:00Z', jobs: 3, source };
const row = (index: number, phase: JobRow['phase'], extra: Partial<JobRow> = {}): JobRow => ({ type: 'job', index, ref: { file: `in${index}.input.json` }, digest: 'd', phase, at: 1, ...extra });

describe('manifest', () => {
  test('the last line of each job wins; events are kept; a torn last line is dropped and reported', async () => {
    const path = join(dir, 'a.jsonl');
    const w = await ManifestWriter.open(path);
    await Promise.all([
      w.write(header),
      w.write(row(0, 'pending')),
      w.write(row(1, 'pending')),
      w.write(row(0, 'submitting')),
      w.write(row(0, 'active', { jobId: 'j0', status: 'IN_QUEUE' })),
      w.write({ type: 'event', at: 2, event: 'paused', reason: 'spend' }),
      w.write(row(0, 'ended', { jobId: 'j0', status: 'COMPLETED', cost: { kind: 'estimate', usd: 0.001, how: 'x' } })),
    ]);
    await w.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; phase?: string });
    assert.deepEqual(lines.map((l) => l.phase ?? l.type), ['batch', 'pending', 'pending', 'submitting', 'active', 'event', 'ended'], 'written in call order');
    // A crash in the middle of the next line.
    appendFileSync(path, '{"type":"job","index":1,"ref":{"file":"in1.inp');
    const state = await readManifest(path);
    assert.equal(state.header?.batchId, 'b1');
    assert.deepEqual(state.header?.source, source, 'a resume can expand the same inputs again');
    assert.equal(state.tornLastLine, true);
    assert.deepEqual(state.problems, []);
    assert.equal(state.rows.get(0)?.phase, 'ended');
    assert.equal(state.rows.get(1)?.phase, 'pending', 'the torn line did not count');
    assert.deepEqual(state.events.map((e) => e.event), ['paused']);
    assert.deepEqual(countPhases(state), { pending: 1, submitting: 0, unknown: 0, active: 0, ended: 1, skipped: 0, lost: 0 });
    assert.deepEqual(changedInputs(state, new Map([[0, 'other'], [1, 'edited']])), [1], 'only an unsent input that changed is news');
    assert.deepEqual(changedInputs(state, new Map([[0, 'd'], [1, 'd']])), []);
  });

  test('a broken line inside the file is reported with its number, and the rest is read', async () => {
    const path = join(dir, 'b.jsonl');
    const w = await ManifestWriter.open(path);
    await w.write(header);
    await w.close();
    appendFileSync(path, 'garbage\n');
    appendFileSync(path, `${JSON.stringify(row(2, 'unknown'))}\n`);
    const state = await readManifest(path);
    assert.equal(state.tornLastLine, false);
    assert.deepEqual(state.problems.map((p) => p.line), [2]);
    assert.equal(state.rows.get(2)?.phase, 'unknown');
  });

  test('lines asked for while an append is under way go together in the next one, in call order; writeNow waits for them', async () => {
    const path = join(dir, 'together.jsonl');
    const w = await ManifestWriter.open(path);
    // Asked for in one turn: one append (the promise a line gets is its append's).
    const first = w.write(header);
    assert.equal(w.write(row(0, 'pending')), first, 'a line asked for before the append starts joins it');
    await Promise.resolve();
    await Promise.resolve();
    // The first append has started (its file work is under way): these go in the next one, together.
    const second = w.write(row(1, 'pending'));
    assert.notEqual(second, first, 'a line asked for after the append started is not in it');
    for (let i = 0; i < 50; i++) assert.equal(w.write(row(2, 'active', { status: `S${i}` })), second);
    assert.equal(w.idle, false);
    assert.throws(() => w.writeNow(row(0, 'submitting')), /still being written/, 'writeNow never passes a line asked for before it');
    await w.settled();
    assert.equal(w.idle, true);
    w.writeNow(row(0, 'submitting'));
    await w.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; index?: number; status?: string; phase?: string });
    assert.equal(lines.length, 1 + 1 + 1 + 50 + 1);
    assert.deepEqual(lines.slice(0, 3).map((l) => l.phase ?? l.type), ['batch', 'pending', 'pending']);
    assert.deepEqual(lines.slice(3, 53).map((l) => l.status), Array.from({ length: 50 }, (_, i) => `S${i}`), 'in call order');
    assert.equal(lines[53]!.phase, 'submitting');
  });

  test('a line that cannot be made into JSON is refused at once, and the writer writes on', async () => {
    const path = join(dir, 'fails.jsonl');
    const w = await ManifestWriter.open(path);
    await w.write(header);
    const circular: Record<string, unknown> = { type: 'job' };
    circular.self = circular;
    // writeNow depends on `idle`: a refused line must not leave it false.
    assert.throws(() => w.write(circular as unknown as JobRow));
    assert.equal(w.idle, true);
    await w.write(row(0, 'pending'));
    await w.close();
    await assert.rejects(w.write(row(1, 'pending')), /closed/);
    assert.equal(readFileSync(path, 'utf8').trim().split('\n').length, 2);
  });

  test('a resume after a torn last line writes on a line of its own: its first line is not glued to the torn one', async () => {
    const path = join(dir, 'torn.jsonl');
    const w = await ManifestWriter.open(path);
    await w.write(header);
    await w.write(row(0, 'submitting'));
    await w.close();
    appendFileSync(path, '{"type":"job","index":1,"pha');
    const resumed = await ManifestWriter.open(path);
    await resumed.write(row(0, 'unknown'));
    await resumed.write({ type: 'event', at: 2, event: 'resumed' });
    await resumed.close();
    const state = await readManifest(path);
    assert.equal(state.rows.get(0)?.phase, 'unknown', 'the first line after the resume counts');
    assert.deepEqual(state.problems.map((p) => p.line), [3], 'the torn line alone is reported');
    assert.deepEqual(state.events.map((e) => e.event), ['resumed']);
    // A file that ends cleanly gets no blank line.
    const again = await ManifestWriter.open(path);
    await again.close();
    assert.ok(!readFileSync(path, 'utf8').endsWith('\n\n'));
  });

  test('a long manifest is read in turns to the same state as at one go', async () => {
    const path = join(dir, 'long.jsonl');
    const w = await ManifestWriter.open(path);
    await w.write(header);
    for (let i = 0; i < 3000; i++) await w.write(row(i % 700, i < 2100 ? 'active' : 'ended', { jobId: `j${i % 700}` }));
    await w.close();
    appendFileSync(path, '{"type":"job","ind');
    const inTurns = await readManifest(path);
    assert.deepEqual(inTurns, readManifestText(readFileSync(path, 'utf8')));
    assert.equal(inTurns.rows.size, 700);
    assert.equal(inTurns.tornLastLine, true);
  });

  test('endsFinished reads only the end: true just when the last whole line is the finished event', async () => {
    const path = join(dir, 'finished.jsonl');
    const w = await ManifestWriter.open(path);
    await w.write(header);
    for (let i = 0; i < 200; i++) await w.write(row(i, 'ended', { jobId: `j${i}`, status: 'COMPLETED' }));
    assert.equal(await endsFinished(path), false, 'no event yet');
    await w.write({ type: 'event', at: 3, event: 'finished' });
    assert.equal(await endsFinished(path), true);
    await w.write(row(0, 'pending'));
    assert.equal(await endsFinished(path), false, 'a job line after it (a Retry Failed) reopens the batch');
    await w.write({ type: 'event', at: 4, event: 'paused', reason: 'x' });
    assert.equal(await endsFinished(path), false, 'another event is not the end');
    await w.write({ type: 'event', at: 5, event: 'finished' });
    await w.close();
    assert.equal(await endsFinished(path), true);
    appendFileSync(path, '{"type":"job","index":1,"ph');
    assert.equal(await endsFinished(path), false, 'a torn line after it: read in full (the reader decides)');
  });

  test('CSV: one row per job in index order, quoted where needed, formulas defused', () => {
    const csv = rowsToCsv([
      row(1, 'ended', { status: 'FAILED', error: '=HYPERLINK("x")', executionTime: 1200 }),
      row(0, 'ended', { status: 'COMPLETED', ref: { file: 'a,b.json', sweep: { seed: 1 } }, cost: { kind: 'reported', usd: 0.02, how: '' }, outputs: ['o/1.png', 'o/2.png'], firstLine: '+1 says the model' }),
    ]);
    const lines = csv.split('\r\n');
    assert.equal(lines[0], '#,file,line,sweep,jobId,phase,status,delayMs,executionMs,costUsd,costKind,outputs,firstLine,error');
    assert.equal(lines[1], '1,"a,b.json",,"{""seed"":1}",,ended,COMPLETED,,,0.02,reported,o/1.png o/2.png,\'+1 says the model,', 'a model\'s answer is defused too');
    assert.equal(lines[2], '2,in1.input.json,,,,ended,FAILED,,1200,,,,,"\'=HYPERLINK(""x"")"');
    assert.equal(lines[3], '');
  });
});

// A batch's start (src/core/batch/startRows.ts): a new batch's pending lines go to the manifest a few hundred to an
// append, not one append each (a 10,000-job batch made 10,000 trips to the file threads before its first /run);
// every line is still written, in order, before the work is handed out; a resumed batch's `submitting` rows become
// `unknown` the same way. A real manifest file in a temp folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchRows } from '../../../src/core/batch/batchRows';
import { BatchGuards } from '../../../src/core/batch/guards';
import { ManifestWriter, readManifestText } from '../../../src/core/batch/manifestFile';
import { START_LINES_AT_ONCE, startRows } from '../../../src/core/batch/startRows';
import { digestOf, type BatchItem } from '../../../src/core/batch/batchInputs';
import { systemClock } from '../../../src/core/http/clock';
import type { JobRow } from '../../../src/core/batch/manifestFormat';

function itemsOf(n: number): BatchItem[] {
  return Array.from({ length: n }, (_, index) => {
    const input = { text: `line ${index}` };
    return { index, ref: { file: 'inputs.jsonl', line: index + 1 }, input, digest: digestOf(input) };
  });
}

function lineCount(path: string): number {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
}

test('a new batch\'s pending lines are written many to an append, all of them, in order, before its work is handed out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-rows-'));
  try {
    const path = join(dir, 'batch.jsonl');
    const manifest = await ManifestWriter.open(path);
    const seenAtFirstRow: number[] = [];
    const told: number[] = [];
    const rows = new BatchRows(manifest, systemClock, (row) => {
      if (told.length === 0) seenAtFirstRow.push(lineCount(path));
      told.push(row.index);
    });
    const n = START_LINES_AT_ONCE * 2 + 17;
    const work = await startRows(rows, new BatchGuards({}), itemsOf(n), undefined, () => Date.now());
    // When the first row is told, its line went to the file with the rest of its append: one append each wrote 1.
    assert.equal(seenAtFirstRow[0], START_LINES_AT_ONCE);
    assert.equal(lineCount(path), n);
    assert.deepEqual(told, Array.from({ length: n }, (_, i) => i));
    assert.deepEqual(work.map((w) => `${w.index}:${w.action}`), Array.from({ length: n }, (_, i) => `${i}:submit`));
    const state = readManifestText(readFileSync(path, 'utf8'));
    assert.deepEqual([...state.rows.keys()], Array.from({ length: n }, (_, i) => i));
    assert.ok([...state.rows.values()].every((r) => r.phase === 'pending'));
    await manifest.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a resumed batch: its `submitting` rows are written as `unknown` and not sent; pending ones are sent, active ones followed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-rows-'));
  try {
    const path = join(dir, 'batch.jsonl');
    const items = itemsOf(START_LINES_AT_ONCE + 3);
    const phases = ['pending', 'active', 'submitting'] as const;
    const prior = new Map<number, JobRow>();
    for (const item of items) {
      const row: JobRow = { type: 'job', index: item.index, ref: { ...item.ref }, digest: item.digest, phase: phases[item.index % 3]!, at: 1 };
      if (item.index % 3 === 1) row.jobId = `job-${item.index}`;
      prior.set(item.index, row);
    }
    const manifest = await ManifestWriter.open(path);
    const rows = new BatchRows(manifest, systemClock, () => undefined);
    const work = await startRows(rows, new BatchGuards({}), items, { rows: prior, events: [], tornLastLine: false, problems: [] }, () => Date.now());
    const submitting = items.filter((i) => i.index % 3 === 2).length;
    assert.equal(lineCount(path), submitting, 'only the changed rows are written');
    const written = readManifestText(readFileSync(path, 'utf8')).rows;
    assert.equal(written.size, submitting);
    assert.ok([...written.values()].every((r) => r.phase === 'unknown'));
    const actions = work.map((w) => w.action);
    assert.equal(actions.filter((a) => a === 'submit').length, items.filter((i) => i.index % 3 === 0).length);
    assert.equal(actions.filter((a) => a === 'follow').length, items.filter((i) => i.index % 3 === 1).length);
    await manifest.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// From files on disk to saved outputs, as the editor will drive it: a sweep file and a JSONL file expanded,
// checked, run on the emulator, each COMPLETED job's outputs saved by the single job's saver under the batch's
// folder, and the manifest naming every file; a bad line stops nothing but itself once the user skips it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRig } from './batchHarness';
import { loadBatchInputs, withoutProblems } from '../../../src/core/batch/batchInputs';
import { readManifest } from '../../../src/core/batch/manifestFile';
import { rowsToCsv } from '../../../src/core/batch/manifestCsv';
import { saveJobOutputs } from '../../../src/core/outputs/saveOutputs';
import { parseOutputs } from '../../../src/core/outputs/outputs';
import type { BatchItem } from '../../../src/core/batch/batchInputs';
import type { Job } from '../../../src/core/schemas';
import type { SavedBatchOutputs } from '../../../src/core/batch/jobEnd';

describe('a batch from files to saved outputs', async () => {
  const rig = await startRig();
  // As the editor's saver does (src/batch/batchSession.ts): the files, and the first line of a text answer.
  const saver = (folder: string) => async (item: BatchItem, job: Job): Promise<SavedBatchOutputs> => {
    const parts = parseOutputs(job.output);
    const saved = await saveJobOutputs({ dir: join(folder, String(item.index)), endpointId: 'x', job, input: item.input, inputFile: item.ref.file, parts, download: false, maxDownloadBytes: 1e6, downloadTimeoutMs: 5000 });
    const text = parts.find((p) => p.kind === 'text');
    return { files: [saved.jobJsonPath, ...saved.files.map((f) => f.path)], ...(text && 'text' in text ? { firstLine: text.text.split('\n')[0]! } : {}) };
  };

  test('a sweep file on an LLM endpoint: every combination run, its text and job.json saved, the rows naming them', async () => {
    const file = join(rig.dir, 'sweep.input.json');
    writeFileSync(file, JSON.stringify({ input: { prompt: 'tell me' }, sweep: { 'sampling_params.max_tokens': [3, 6], prompt: ['a b', 'c d'] } }));
    const plan = await loadBatchInputs({ kind: 'files', paths: [file] });
    assert.deepEqual(plan.problems, []);
    const folder = join(rig.dir, 'sweep-out');
    const { runner, manifestPath } = await rig.runner('chat', [], { items: plan.items, saveOutputs: saver(folder) });
    await runner.start();
    const rows = (await readManifest(manifestPath)).rows;
    assert.equal(rows.size, 4);
    for (const row of rows.values()) {
      assert.equal(row.status, 'COMPLETED');
      assert.ok(row.outputs && row.outputs.length >= 1 && row.outputs.every((p) => existsSync(p)), JSON.stringify(row.outputs));
      assert.ok(row.ref.sweep && 'prompt' in row.ref.sweep);
      assert.ok(row.firstLine && row.firstLine.length > 0, 'the first line of the answer is in the manifest (shown after a resume)');
    }
    assert.equal(rig.accepted('chat'), 4);
    assert.match(rowsToCsv(rows.values()).split('\r\n')[1]!, /^1,.*sweep\.input\.json,,"\{""sampling_params\.max_tokens"":3,""prompt"":""a b""\}",/);
  });

  test('a JSONL file with a bad line: reported, and once skipped the rest runs', async () => {
    const file = join(rig.dir, 'prompts.jsonl');
    writeFileSync(file, ['{"prompt": "one"}', '{"prompt": "two"', '{"input": {"prompt": "three"}}'].join('\n'));
    const plan = await loadBatchInputs({ kind: 'jsonl', path: file });
    assert.deepEqual(plan.problems.map((p) => [p.line, p.column]), [[2, 17]]);
    const items = withoutProblems(plan);
    const { runner } = await rig.runner('img', [], { items, saveOutputs: saver(join(rig.dir, 'jsonl-out')) });
    await runner.start();
    assert.deepEqual(runner.rowList().map((r) => [r.ref.line, r.status, (r.outputs?.length ?? 0) >= 2]), [[1, 'COMPLETED', true], [3, 'COMPLETED', true]]);
  });
});


// Expanding a batch's inputs from real files: a folder, a list, a JSONL file and a sweep, and every bad file or
// line reported with its file, line and column (nothing is sent: the plan's problems decide that).
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBatchInputs, withoutProblems } from '../../../src/core/batch/batchInputs';
import { expandSweep, MAX_SWEEP_JOBS } from '../../../src/core/batch/sweep';
import { BadInputError } from '../../../src/core/http/errors';
import { parseInputFile } from '../../../src/core/input/inputFile';

const dir = mkdtempSync(join(tmpdir(), 'batch-inputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('loadBatchInputs', () => {
  test('a folder: every *.input.json in name order (2 before 10), other files ignored', async () => {
    const folder = mkdtempSync(join(dir, 'folder-'));
    writeFileSync(join(folder, 'a10.input.json'), '{"prompt": "ten"}');
    writeFileSync(join(folder, 'a2.input.json'), '{"input": {"prompt": "two"}, "policy": {"ttl": 60000}}');
    writeFileSync(join(folder, 'notes.json'), '{"prompt": "not an input"}');
    const plan = await loadBatchInputs({ kind: 'folder', path: folder });
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(plan.items.map((i) => [i.index, i.input.prompt]), [[0, 'two'], [1, 'ten']]);
    assert.deepEqual(plan.items[0]!.request, { policy: { ttl: 60000 } });
    assert.match(plan.items[0]!.digest, /^[0-9a-f]{16}$/);
  });

  test('a JSONL file: one input per line, blank lines skipped, a bad line reported with its line and column', async () => {
    const file = write('many.jsonl', '{"prompt": "a"}\n\n{"prompt": "b",}\n{"input": {"prompt": "c"}}\n');
    const plan = await loadBatchInputs({ kind: 'jsonl', path: file });
    assert.deepEqual(plan.items.map((i) => [i.ref.line, i.input.prompt]), [[1, 'a'], [4, 'c']]);
    assert.equal(plan.problems.length, 1);
    const p = plan.problems[0]!;
    assert.equal(p.file, file);
    assert.equal(p.line, 3);
    assert.equal(p.column, 16, 'the column of the stray "}" after the trailing comma');
    assert.match(p.message, /^This line is not valid JSON/, 'a JSONL line is a line, not "the input file"');
    assert.deepEqual(withoutProblems(plan).map((i) => i.index), [0, 1], 'skipping the bad ones renumbers the rest');
  });

  test('a list of files: an unreadable file and a file that is not an object are each reported', async () => {
    const good = write('good.input.json', '{"prompt": "ok"}');
    const arr = write('arr.input.json', '\n\n  [1, 2]');
    const plan = await loadBatchInputs({ kind: 'files', paths: [good, join(dir, 'missing.input.json'), arr] });
    assert.equal(plan.items.length, 1);
    assert.deepEqual(plan.problems.map((p) => [p.file.endsWith('missing.input.json') || p.file === arr, p.line, p.column]), [[true, undefined, undefined], [true, 3, 3]]);
    assert.match(plan.problems[0]!.message, /Cannot read/);
  });

  test('a sweep file: the product in written order (first key slowest), values set on a copy of input', async () => {
    const file = write('sweep.input.json', JSON.stringify({ input: { prompt: 'cat', seed: 0, sampling_params: { temperature: 1 } }, sweep: { seed: [1, 2, 3], 'sampling_params.max_tokens': [8, 16] } }, null, 2));
    const plan = await loadBatchInputs({ kind: 'files', paths: [file] });
    assert.deepEqual(plan.problems, []);
    assert.equal(plan.items.length, 6);
    assert.deepEqual(plan.items.map((i) => [i.input.seed, (i.input.sampling_params as { max_tokens: number }).max_tokens]), [[1, 8], [1, 16], [2, 8], [2, 16], [3, 8], [3, 16]]);
    assert.deepEqual(plan.items[1]!.ref.sweep, { seed: 1, 'sampling_params.max_tokens': 16 });
    assert.equal((plan.items[0]!.input.sampling_params as { temperature: number }).temperature, 1, 'the rest of a nested object is kept');
    assert.equal(new Set(plan.items.map((i) => i.digest)).size, 6);
  });

  test('a bad sweep is reported at the sweep block, with nothing expanded', async () => {
    const file = write('bad-sweep.input.json', '{\n  "input": {"prompt": "x"},\n  "sweep": {"seed": []}\n}');
    const plan = await loadBatchInputs({ kind: 'files', paths: [file] });
    assert.equal(plan.items.length, 0);
    assert.deepEqual([plan.problems[0]!.line, plan.problems[0]!.column], [3, 12]);
    assert.match(plan.problems[0]!.message, /"seed" is an empty list/);
  });
});

describe('expandSweep', () => {
  const at = { line: 1, column: 1 };
  const refused = (input: Record<string, unknown>, value: unknown, pattern: RegExp): void => {
    assert.throws(() => expandSweep(input, { value, ...at }), (e: unknown) => e instanceof BadInputError && pattern.test(e.message));
  };
  test('refuses what would not mean what was written', () => {
    refused({}, [1, 2], /must be an object of lists/);
    refused({}, {}, /is empty/);
    refused({}, { seed: 3 }, /must be a list/);
    refused({ a: 5 }, { 'a.b': [1] }, /not an object in "input"/);
    refused({}, { 'a..b': [1] }, /not a path/);
  });
  test(`caps the product at ${MAX_SWEEP_JOBS} jobs`, () => {
    const many = Array.from({ length: 100 }, (_, i) => i);
    assert.equal(expandSweep({}, { value: { a: many, b: many.slice(0, 10) }, ...at }).length, 1000);
    refused({}, { a: many, b: many.slice(0, 11) }, /more than 1000 jobs/);
  });
  test('a value is copied, so changing one job\'s input never changes another\'s', () => {
    const points = expandSweep({ list: [1] }, { value: { size: [{ w: 1 }], seed: [1, 2] }, ...at });
    (points[0]!.input.size as { w: number }).w = 99;
    assert.equal((points[1]!.input.size as { w: number }).w, 1);
  });
});

describe('parseInputFile and sweeps', () => {
  test('a single job refuses a sweep block and says it runs as a batch', () => {
    assert.throws(() => parseInputFile('{"input": {}, "sweep": {"seed": [1]}}'), (e: Error) => /runs as a batch/.test(e.message) && !/move/.test(e.message), 'never advises moving the sweep inside "input" (docs/batches.md)');
  });
  test('with allowSweep the block is returned beside the input, and is not a request option', () => {
    const parsed = parseInputFile('{"input": {"a": 1},\n "webhook": "https://x.test/h", "sweep": {"seed": [1]}}', { allowSweep: true });
    assert.deepEqual(parsed.request, { webhook: 'https://x.test/h' });
    assert.deepEqual(parsed.sweep, { value: { seed: [1] }, line: 2, column: 42 });
  });
});

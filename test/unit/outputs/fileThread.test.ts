// A batch's job files through one thread of ours (src/core/outputs/fileThread.ts, fileWorker.ts; issue 30): the
// worker is built from its source as the extension's build does and run for real; saveJobOutputs given the thread
// writes what it writes without it, and says a text file it could not write in job.json as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { createFileThread, inThreadWriter, type SmallFileWriter, type TextFile } from '../../../src/core/outputs/fileThread';
import { parseOutputs } from '../../../src/core/outputs/outputs';
import { saveJobOutputs, type SaveJobOutputsOptions } from '../../../src/core/outputs/saveOutputs';
import type { Job } from '../../../src/core/schemas';
import { aJob } from '../builders/job';
import { aPngDataUri } from '../builders/png';

let WORKER_FILE: string;
let dir: string;

before(async () => {
  WORKER_FILE = join(mkdtempSync(join(tmpdir(), 'file-worker-build-')), 'fileWorker.js');
  await esbuild.build({ entryPoints: [resolve(__dirname, '../../../src/core/outputs/fileWorker.ts')], outfile: WORKER_FILE, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
  dir = await mkdtemp(join(tmpdir(), 'file-thread-test-'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const FILES: TextFile[] = [
  { name: 'output.txt', text: 'héllo' },
  // Into a folder that does not exist: this file fails, the ones around it are still written.
  { name: join('missing', 'x.txt'), text: 'never' },
  { name: 'job.json', text: '{"a":1}\n', atomic: true },
];

async function expectWritten(writer: SmallFileWriter, folder: string): Promise<void> {
  const results = await writer.write(folder, FILES);
  assert.deepEqual(results, [{ ok: true, bytes: 6 }, { ok: false, code: 'ENOENT' }, { ok: true, bytes: 8 }]);
  assert.equal(await readFile(join(folder, 'output.txt'), 'utf8'), 'héllo');
  assert.equal(await readFile(join(folder, 'job.json'), 'utf8'), '{"a":1}\n');
  assert.deepEqual((await readdir(folder)).sort(), ['job.json', 'output.txt'], 'no .part left behind');
}

describe('the file thread', () => {
  test('makes the folder and its parents, writes each file in order, and says which failed and why', async () => {
    const thread = createFileThread(WORKER_FILE);
    try {
      await expectWritten(thread, join(dir, 'thread', 'ep', 'job-1'));
    } finally {
      thread.stop();
    }
  });

  test('the same writes on this thread when the worker file is missing (said once)', async () => {
    const warnings: string[] = [];
    const thread = createFileThread(join(dir, 'no-such-worker.js'), (m) => warnings.push(m));
    await expectWritten(thread, join(dir, 'fallback', 'a'));
    await expectWritten(thread, join(dir, 'fallback', 'b'));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /missing/);
    await expectWritten(inThreadWriter, join(dir, 'in-thread'));
  });

  test('a folder that cannot be made fails every file of the request with its code', async () => {
    const thread = createFileThread(WORKER_FILE);
    try {
      // A file stands where a parent folder should be.
      await inThreadWriter.write(join(dir, 'blocked'), [{ name: 'file', text: 'x' }]);
      const results = await thread.write(join(dir, 'blocked', 'file', 'job'), [{ name: 'a.txt', text: 'a' }, { name: 'job.json', text: '{}', atomic: true }]);
      assert.deepEqual(results, [{ ok: false, code: 'ENOTDIR' }, { ok: false, code: 'ENOTDIR' }]);
    } finally {
      thread.stop();
    }
  });
});

function options(job: Job, more: Partial<SaveJobOutputsOptions>): SaveJobOutputsOptions {
  return { dir, endpointId: 'ep-1', job, input: { prompt: 'a cat' }, parts: parseOutputs(job.output), download: false, maxDownloadBytes: 50_000, downloadTimeoutMs: 30_000, ...more };
}

/** A writer that counts its requests and fails the files named in `fail` (a full disk, for one file). */
function counting(fail: string[] = []): SmallFileWriter & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async write(folder, files) {
      calls.push(files.map((f) => f.name));
      const written = await inThreadWriter.write(folder, files.filter((f) => !fail.includes(f.name)));
      return files.map((f) => (fail.includes(f.name) ? { ok: false as const, code: 'ENOSPC' } : written.shift()!));
    },
  };
}

describe('saveJobOutputs with the file thread', () => {
  const textJob = (id: string): Job => aJob().withId(id).completed([{ choices: [{ tokens: [' You', ' asked'] }] }]).withTimings(120, 3400).build();
  const withoutSavedAt = (text: string): unknown => ({ ...JSON.parse(text), savedAt: undefined });

  test('a text-only job: its folder, output.txt and job.json in one request, the same files as without it', async () => {
    const thread = createFileThread(WORKER_FILE);
    try {
      const viaThread = await saveJobOutputs(options(textJob('job-t'), { dir: join(dir, 'a'), files: thread }));
      const here = await saveJobOutputs(options(textJob('job-t'), { dir: join(dir, 'b') }));
      assert.deepEqual(viaThread.files.map((f) => [f.name, f.kind, f.bytes, f.field]), here.files.map((f) => [f.name, f.kind, f.bytes, f.field]));
      assert.deepEqual((await readdir(viaThread.folder)).sort(), ['job.json', 'output.txt']);
      assert.equal(await readFile(join(viaThread.folder, 'output.txt'), 'utf8'), ' You asked');
      assert.deepEqual(withoutSavedAt(await readFile(viaThread.jobJsonPath, 'utf8')), withoutSavedAt(await readFile(here.jobJsonPath, 'utf8')));
    } finally {
      thread.stop();
    }
    const writer = counting();
    await saveJobOutputs(options(textJob('job-c'), { dir: join(dir, 'c'), files: writer }));
    assert.deepEqual(writer.calls, [['output.txt', 'job.json']]);
  });

  test('output.txt not written: job.json says so and does not list it, as on this thread', async () => {
    const writer = counting(['output.txt']);
    const saved = await saveJobOutputs(options(textJob('job-f'), { dir: join(dir, 'f'), files: writer }));
    assert.deepEqual(saved.files, []);
    assert.deepEqual(saved.failedWrites, [{ field: 'output', reason: 'could not write output.txt: ENOSPC' }]);
    const record = JSON.parse(await readFile(saved.jobJsonPath, 'utf8'));
    assert.deepEqual(record.files, []);
    assert.deepEqual(record.failedWrites, saved.failedWrites);
    assert.equal(existsSync(join(saved.folder, 'output.txt')), false);
  });

  test('job.json not written: the save fails with its code, as on this thread', async () => {
    await assert.rejects(saveJobOutputs(options(textJob('job-j'), { dir: join(dir, 'j'), files: counting(['job.json']) })), (e: NodeJS.ErrnoException) => e.code === 'ENOSPC' && /job\.json/.test(e.message));
  });

  test('a job with images is written on this thread as before (a message would copy its base64)', async () => {
    const writer = counting();
    const job = aJob().withId('job-png').completed([{ image_url: aPngDataUri(3, 3), seed: 42 }]).build();
    const saved = await saveJobOutputs(options(job, { dir: join(dir, 'png'), files: writer }));
    assert.deepEqual(writer.calls, []);
    assert.deepEqual((await readdir(saved.folder)).sort(), ['image-1-seed-42.png', 'job.json']);
  });

  test('a job.json over the small-text size goes the sliced way, its text file still through the thread', async () => {
    const writer = counting();
    const big = aJob().withId('job-big').completed([{ choices: [{ tokens: ['x'.repeat(300_000)] }] }]).build();
    const saved = await saveJobOutputs(options(big, { dir: join(dir, 'big'), files: writer }));
    assert.deepEqual(writer.calls, [['output.txt']]);
    assert.equal(JSON.parse(await readFile(saved.jobJsonPath, 'utf8')).jobId, 'job-big');
  });
});

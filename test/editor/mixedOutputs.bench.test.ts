// Issue 20's memory figure: the extension host while it receives a ComfyUI-shaped job of four large JPEGs as
// bare base64 (about 19 MB of result JSON, just under the platform's ~20 MB limit), which the runner decodes
// and saves one file at a time (issue 11's rule: no more than one decoded file beside the job's text). A
// measurement, not a behaviour test: it runs only when test/bench/editorHost.bench.ts asks for it
// (SERVERLESS_GPU_BENCH_OUT set, `--grep @bench`) and writes its figures to `<that path>.mixed.json`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { sniffMediaFormat } from '../../src/core/outputs/mediaFormat';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { benchOutputOrSkip } from './support/benchOutput';
import { startEmulatorJobs, stopEmulatorJobs, type EmulatorJobs } from './support/emulator';
import { workspaceFolder } from './support/extension';
import { runCurrentFileSampled, writeMemoryResult } from './support/sampledJob';

const IMAGES = 4;
/** Each JPEG's size: four of them are 14.4 MB, 19.2 MB as base64. */
const JPEG_BYTES = 3_600_000;

suite('mixed outputs memory @bench', () => {
  let jobs: EmulatorJobs | undefined;
  let api: JobRunnerApi;
  let outPath: string;

  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this, '.mixed.json');
    jobs = await startEmulatorJobs();
    api = jobs.api;
  });

  suiteTeardown(async () => {
    await stopEmulatorJobs(jobs);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test(`peak memory while receiving ${IMAGES} base64 JPEGs of ${JPEG_BYTES / 1e6} MB each`, async function () {
    this.timeout(300_000);
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, 'mixed-bench.input.json');
    const input = { prompt: 'four big JPEGs', format: 'jpeg', jpeg_bytes: JPEG_BYTES, num_images: IMAGES };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify({ input }, null, 2)));
    await api.memory.rememberEndpoint(uri, 'comfyui');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: vscode.ViewColumn.One });

    const { done, sampler } = await runCurrentFileSampled(api, IMAGES, (key) => {
      const sent = api.panels.lastSent(key);
      return sent?.status === 'COMPLETED' && sent.running === false && sent.outputs.filter((o) => o.kind === 'image' && o.src).length === IMAGES;
    });

    const images = done.outputs.filter((o) => o.kind === 'image');
    assert.equal(images.length, IMAGES);
    let savedBytes = 0;
    for (const image of images) {
      const bytes = fs.readFileSync(vscode.Uri.parse(image.file!).fsPath);
      assert.equal(sniffMediaFormat(bytes)?.ext, 'jpg');
      savedBytes += bytes.length;
    }
    writeMemoryResult(outPath, sampler, savedBytes);
  });
});

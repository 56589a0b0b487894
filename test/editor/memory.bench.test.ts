// Issue 5's last figure, measured where it matters: the extension host's memory while it receives a job with
// four 2048x2048 images, through the extension's own command (so the runner decodes and saves the outputs and
// the job panel opens and draws them: files this big it loads from the disk, see MAX_FILE_BYTES_IN_MESSAGE).
// Not a test of behaviour but a measurement: it runs only when test/bench/editorHost.bench.ts asks for it
// (SERVERLESS_GPU_BENCH_OUT set, `--grep @bench`), and skips itself otherwise so the normal editor run is
// unaffected. It writes its samples' summary as JSON to that path.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { benchOutputOrSkip } from './support/benchOutput';
import { startEmulatorJobs, stopEmulatorJobs, type EmulatorJobs } from './support/emulator';
import { workspaceFolder } from './support/extension';
import { runCurrentFileSampled, writeMemoryResult } from './support/sampledJob';

const SIDE = 2048;
const IMAGES = 4;

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(view.subarray(12, 16).toString('latin1'), 'IHDR', 'a PNG');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

suite('extension host memory @bench', () => {
  let jobs: EmulatorJobs | undefined;
  let api: JobRunnerApi;
  let outPath: string;

  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this);
    jobs = await startEmulatorJobs();
    api = jobs.api;
  });

  suiteTeardown(async () => {
    await stopEmulatorJobs(jobs);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test(`peak memory while receiving a job with ${IMAGES} ${SIDE}x${SIDE} images`, async function () {
    // The emulator draws and encodes four 12 MB images on a shared 2-core machine: allow for it.
    this.timeout(300_000);
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, 'memory-bench.input.json');
    const input = { prompt: 'four big ones', width: SIDE, height: SIDE, num_images: IMAGES, seed: 7 };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify({ input }, null, 2)));
    await api.memory.rememberEndpoint(uri, 'sdxl-turbo');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: vscode.ViewColumn.One });

    const { done, sampler } = await runCurrentFileSampled(api, IMAGES, (key) => {
      // The panel has been sent the finished job, with every image to show (files over 512 KiB are loaded by the
      // editor from the disk, not sent as bytes: these are, at about 1.1 MB each).
      const sent = api.panels.lastSent(key);
      const images = sent?.status === 'COMPLETED' && sent.running === false ? sent.outputs.filter((o) => o.kind === 'image' && o.src) : [];
      const delivered = new Set(api.panels.sentFiles(key));
      return images.length === IMAGES && images.every((o) => o.kind === 'image' && (!o.sentAsBytes || delivered.has(o.src!)));
    });

    const images = done.outputs.filter((o) => o.kind === 'image');
    assert.equal(images.length, IMAGES);
    let savedBytes = 0;
    for (const image of images) {
      assert.ok(image.file, 'each image was saved');
      const bytes = fs.readFileSync(vscode.Uri.parse(image.file).fsPath);
      assert.deepEqual(pngSize(bytes), { width: SIDE, height: SIDE });
      savedBytes += bytes.length;
    }
    writeMemoryResult(outPath, sampler, savedBytes);
  });
});

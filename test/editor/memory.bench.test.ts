// Issue 5's last figure, measured where it matters: the extension host's memory while it receives a job with
// four 2048x2048 images, through the extension's own command (so the runner decodes and saves the outputs and
// the job panel opens and draws them: files this big it loads from the disk, see MAX_FILE_BYTES_IN_MESSAGE).
// Not a test of behaviour but a measurement: it runs only when test/bench/editorHost.bench.ts asks for it
// (SERVERLESS_GPU_BENCH_OUT set, `--grep @bench`), and skips itself otherwise so the normal editor run is
// unaffected. It writes its samples' summary as JSON to that path.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { createServiceClient } from '../../src/core/http/client';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { count, driverAvailable } from './support/driver';
import { delay, each, median, MemorySampler, QUIET_MS, SAMPLE_EVERY_MS } from './support/memorySampler';
import { benchOutputOrSkip } from './support/benchOutput';
import { startEmulator, type RunningEmulator } from './support/emulator';
import { activateExtension, eventually, workspaceFolder } from './support/extension';

const SIDE = 2048;
const IMAGES = 4;

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(view.subarray(12, 16).toString('latin1'), 'IHDR', 'a PNG');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

suite('extension host memory @bench', () => {
  let api: JobRunnerApi;
  let emulator: RunningEmulator | undefined;
  let outPath: string;

  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this);
    const ext = await activateExtension();
    const exported = ext.exports as { jobs?: JobRunnerApi } | undefined;
    assert.ok(exported?.jobs, 'the extension exposes the job runner to tests (ExtensionMode.Test)');
    api = exported.jobs;
    emulator = await startEmulator(ext.extensionPath);
    const client = createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: 'demo-key-full' });
    api.useClientSource({ getClient: async () => client, secrets: () => ['demo-key-full'] });
  });

  suiteTeardown(async () => {
    api?.useClientSource(undefined);
    await emulator?.close();
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

    const sampler = new MemorySampler();
    let started: JobRecord;
    let done: JobRecord;
    try {
      await delay(QUIET_MS);
      sampler.startJob();
      started = (await vscode.commands.executeCommand(JobCommands.runCurrentFile)) as JobRecord;
      assert.ok(started?.key, 'a job was started');
      done = await eventually(() => {
        const r = api.history.get(started.key);
        return r && r.finishedAt !== undefined && !api.runner.isRunning(started.key) ? r : undefined;
      }, 'the job to finish', 240_000);
      assert.equal(done.status, 'COMPLETED', done.error);
      // The panel has been sent the finished job, with every image to show (files over 512 KiB are loaded by the
      // editor from the disk, not sent as bytes: these are, at about 1.1 MB each).
      await eventually(() => {
        const sent = api.panels.lastSent(started.key);
        const images = sent?.status === 'COMPLETED' && sent.running === false ? sent.outputs.filter((o) => o.kind === 'image' && o.src) : [];
        const delivered = new Set(api.panels.sentFiles(started.key));
        return images.length === IMAGES && images.every((o) => o.kind === 'image' && (!o.sentAsBytes || delivered.has(o.src!)));
      }, 'the panel to be sent the four images', 120_000);
      if (driverAvailable()) {
        await eventually(async () => (await count('figure.image img[data-loaded]', { inWebview: true })) === IMAGES, 'the webview to draw the four images', 120_000);
      }
      await delay(QUIET_MS);
    } finally {
      sampler.stop();
    }

    const images = done.outputs.filter((o) => o.kind === 'image');
    assert.equal(images.length, IMAGES);
    let savedBytes = 0;
    for (const image of images) {
      assert.ok(image.file, 'each image was saved');
      const bytes = fs.readFileSync(vscode.Uri.parse(image.file).fsPath);
      assert.deepEqual(pngSize(bytes), { width: SIDE, height: SIDE });
      savedBytes += bytes.length;
    }
    assert.ok(sampler.baseline.length > 10 && sampler.during.length > 10, `enough samples (${sampler.baseline.length}, ${sampler.during.length})`);
    const result = {
      // The median of the quiet second before the job; the peak is the highest sample from the command on.
      baseline: each(median, sampler.baseline),
      baselineMax: each((v) => Math.max(...v), sampler.baseline),
      peak: each((v) => Math.max(...v), sampler.during),
      savedBytes,
      samples: { baseline: sampler.baseline.length, during: sampler.during.length, everyMs: SAMPLE_EVERY_MS },
    };
    fs.writeFileSync(outPath, `${JSON.stringify(result, null, 2)}\n`);
  });
});

// Issue 20's memory figure: the extension host while it receives a ComfyUI-shaped job of four large JPEGs as
// bare base64 (about 19 MB of result JSON, just under the platform's ~20 MB limit), which the runner decodes
// and saves one file at a time (issue 11's rule: no more than one decoded file beside the job's text). A
// measurement, not a behaviour test: it runs only when test/bench/editorHost.bench.ts asks for it
// (SERVERLESS_GPU_BENCH_OUT set, `--grep @bench`) and writes its figures to `<that path>.mixed.json`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { createServiceClient } from '../../src/core/http/client';
import { sniffMediaFormat } from '../../src/core/outputs/mediaFormat';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { benchOutputOrSkip } from './support/benchOutput';
import { count, driverAvailable } from './support/driver';
import { startEmulator, type RunningEmulator } from './support/emulator';
import { activateExtension, eventually, workspaceFolder } from './support/extension';
import { delay, each, median, MemorySampler, QUIET_MS, SAMPLE_EVERY_MS } from './support/memorySampler';

const IMAGES = 4;
/** Each JPEG's size: four of them are 14.4 MB, 19.2 MB as base64. */
const JPEG_BYTES = 3_600_000;

suite('mixed outputs memory @bench', () => {
  let api: JobRunnerApi;
  let emulator: RunningEmulator | undefined;
  let outPath: string;

  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this, '.mixed.json');
    const ext = await activateExtension();
    api = (ext.exports as { jobs: JobRunnerApi }).jobs;
    emulator = await startEmulator(ext.extensionPath);
    const client = createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: 'demo-key-full' });
    api.useClientSource({ getClient: async () => client, secrets: () => ['demo-key-full'] });
  });

  suiteTeardown(async () => {
    api?.useClientSource(undefined);
    await emulator?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test(`peak memory while receiving ${IMAGES} base64 JPEGs of ${JPEG_BYTES / 1e6} MB each`, async function () {
    this.timeout(300_000);
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, 'mixed-bench.input.json');
    const input = { prompt: 'four big JPEGs', format: 'jpeg', jpeg_bytes: JPEG_BYTES, num_images: IMAGES };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify({ input }, null, 2)));
    await api.memory.rememberEndpoint(uri, 'comfyui');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: vscode.ViewColumn.One });

    const sampler = new MemorySampler();
    let done: JobRecord;
    try {
      await delay(QUIET_MS);
      sampler.startJob();
      const started = (await vscode.commands.executeCommand(JobCommands.runCurrentFile)) as JobRecord;
      done = await eventually(() => {
        const r = api.history.get(started.key);
        return r && r.finishedAt !== undefined && !api.runner.isRunning(started.key) ? r : undefined;
      }, 'the job to finish', 240_000);
      assert.equal(done.status, 'COMPLETED', done.error);
      await eventually(() => {
        const sent = api.panels.lastSent(started.key);
        return sent?.status === 'COMPLETED' && sent.running === false && sent.outputs.filter((o) => o.kind === 'image' && o.src).length === IMAGES;
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
      const bytes = fs.readFileSync(vscode.Uri.parse(image.file!).fsPath);
      assert.equal(sniffMediaFormat(bytes)?.ext, 'jpg');
      savedBytes += bytes.length;
    }
    const result = {
      baseline: each(median, sampler.baseline),
      baselineMax: each((v) => Math.max(...v), sampler.baseline),
      peak: each((v) => Math.max(...v), sampler.during),
      savedBytes,
      samples: { baseline: sampler.baseline.length, during: sampler.during.length, everyMs: SAMPLE_EVERY_MS },
    };
    fs.writeFileSync(outPath, `${JSON.stringify(result, null, 2)}\n`);
  });
});

// Outputs as real workers return them (issue 20), in the real editor against the built-in demo's
// worker-shaped endpoints: ComfyUI and Automatic1111 images shown and saved under their names, a speech
// worker's WAV that plays, a transcription's text and times, and an empty output said in words.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { count, driverAvailable, screenshot, textContent, waitForSelector } from './support/driver';
import { emulatorJobsInSuite } from './support/emulator';
import { eventually, workspaceFolder } from './support/extension';
import { jobWaits } from './support/jobWaits';

suite('output shapes', () => {
  let api: JobRunnerApi;
  const { finished, showPanel } = jobWaits(() => api);
  let files = 0;

  emulatorJobsInSuite((jobs) => {
    api = jobs.api;
  });

  /** Runs `input` on `endpoint` from an input file, waits for its end and for the panel to show it finished. */
  async function run(endpoint: string, input: Record<string, unknown>, status = 'COMPLETED') {
    // A file of its own per job: a document the editor already holds would be run with its old text.
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, `${endpoint}-${++files}.input.json`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify({ input }, null, 2)));
    await api.memory.rememberEndpoint(uri, endpoint);
    const started = (await vscode.commands.executeCommand(JobCommands.runCurrentFile, uri)) as JobRecord;
    const done = await finished(started.key);
    assert.equal(done.status, status, done.error);
    const shown = await eventually(() => {
      const sent = api.panels.lastSent(started.key);
      return sent?.status === status && sent.running === false && sent;
    }, 'the panel to show the finished job');
    if (driverAvailable()) await showPanel(started.key);
    return { done, shown, folder: vscode.Uri.parse(done.outputsFolder!).fsPath };
  }

  function savedNames(done: JobRecord): string[] {
    return done.outputs.filter((o) => o.file).map((o) => path.basename(vscode.Uri.parse(o.file!).fsPath));
  }

  test('a ComfyUI-shaped job shows its images and saves them under the worker\'s file names', async () => {
    const { done, shown, folder } = await run('comfyui', { prompt: 'a lighthouse at dusk', width: 256, height: 192, num_images: 2, seed: 7 });
    assert.deepEqual(savedNames(done), ['ComfyUI_00001_.png', 'ComfyUI_00002_.png']);
    assert.deepEqual(fs.readdirSync(folder).sort(), ['ComfyUI_00001_.png', 'ComfyUI_00002_.png', 'job.json']);
    assert.deepEqual(shown.outputs.map((o) => o.kind === 'image' && o.fileName), ['ComfyUI_00001_.png', 'ComfyUI_00002_.png']);
    if (driverAvailable()) {
      await waitForSelector('figure.image img[data-loaded="true"]', { inWebview: true });
      await eventually(async () => (await count('figure.image img[data-loaded="true"]', { inWebview: true })) === 2 || undefined, 'both images drawn');
      assert.match(await textContent('figure.image figcaption .facts', { inWebview: true }), /256×192 · ComfyUI_00001_\.png/);
      await screenshot('job-panel-comfyui', { docs: true });
    }
  });

  test('a ComfyUI job that uploads (s3_url) has its files downloaded under the worker\'s names', async () => {
    const { done } = await run('comfyui-s3', { prompt: 'x', width: 64, height: 64 });
    assert.deepEqual(savedNames(done), ['ComfyUI_00001_.png']);
  });

  test('an A1111-shaped job shows its bare base64 images with their seeds and saves them, its parameters kept as JSON', async () => {
    const { done, shown, folder } = await run('a1111', { prompt: 'a cat', width: 128, height: 128, num_images: 2, seed: 3 });
    assert.deepEqual(savedNames(done), ['image-1-seed-3.png', 'image-2-seed-4.png'], 'each image with its seed from info.all_seeds');
    for (const name of savedNames(done)) assert.deepEqual([...fs.readFileSync(path.join(folder, name)).subarray(1, 4)], [0x50, 0x4e, 0x47]);
    assert.deepEqual(shown.outputs.map((o) => o.kind), ['image', 'image', 'json']);
    if (driverAvailable()) {
      await eventually(async () => (await count('figure.image img[data-loaded="true"]', { inWebview: true })) === 2 || undefined, 'both images drawn');
      assert.match(await textContent('figure.json pre', { inWebview: true }), /"parameters"/);
    }
  });

  test('a speech job\'s WAV plays in the panel', async () => {
    const { done } = await run('tts-wav', { prompt: 'Hello from the emulator' });
    assert.deepEqual(savedNames(done), ['audio-1.wav']);
    if (driverAvailable()) {
      // loadedmetadata: the browser read the WAV's header and duration, so the player can play it.
      await waitForSelector('figure.audio audio[data-loaded="true"]', { inWebview: true });
    }
  });

  test('a transcription job shows its text and its segments with their times', async () => {
    const { done, shown } = await run('faster-whisper', { audio: 'https://example.com/speech.wav', text: 'Hello there. General Kenobi.' });
    assert.deepEqual(savedNames(done), ['transcript.txt']);
    const t = shown.outputs.find((o) => o.kind === 'transcript');
    assert.ok(t && t.kind === 'transcript' && t.text === 'Hello there. General Kenobi.' && t.segments.length === 2, JSON.stringify(shown.outputs));
    if (driverAvailable()) {
      assert.equal(await textContent('#transcript-text', { inWebview: true }), 'Hello there. General Kenobi.');
      assert.match(await textContent('#transcript-segments', { inWebview: true }), /00:00\.0 – 00:00\.8\s*Hello there\./);
      await screenshot('job-panel-transcript');
    }
  });

  test('a job whose worker returned nothing says so in words', async () => {
    const { done, shown } = await run('forgot-return', {});
    assert.deepEqual(savedNames(done), []);
    assert.match(JSON.stringify(shown.outputs), /The worker returned no output/);
    if (driverAvailable()) {
      assert.match(await textContent('figure.notice', { inWebview: true }), /^The worker returned no output\./);
      await screenshot('job-panel-empty-output');
    }
  });

  test('a job whose result was over the ~20 MB limit failed, and the panel says what to do', async () => {
    const { shown } = await run('comfyui', { format: 'jpeg', jpeg_bytes: 4_000_000, num_images: 4 }, 'FAILED');
    assert.match(JSON.stringify(shown.outputs), /too large for the platform.*s3Config/);
    if (driverAvailable()) {
      assert.match(await textContent('figure.notice', { inWebview: true }), /too large for the platform/);
      assert.match(await textContent('.error-text', { inWebview: true }), /payload too large/);
    }
  });
});

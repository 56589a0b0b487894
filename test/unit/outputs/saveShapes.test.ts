// Saving the shapes real workers return (issue 20): names from the worker made safe, extensions from the bytes,
// downloads checked by their bytes, links with the API key never requested.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOutputs } from '../../../src/core/outputs/outputs';
import { saveJobOutputs } from '../../../src/core/outputs/saveOutputs';
import { approximateJsonBytes, EMPTY_OUTPUT_NOTE, isEmptyOutput, outputNotices, resultSizeNote } from '../../../src/core/outputs/resultNotes';
import { aJob } from '../builders/job';
import { aPng } from '../builders/png';
import { aSample, aSampleBase64, HOSTILE_SVG } from '../builders/media';

const KEY = 'rpa_SAVESHAPESKEY0123456789';
const requested: string[] = [];
let server: Server;
let base: string;
let dir: string;

before(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url?.startsWith('/bucket/ComfyUI_00001_.png')) { res.writeHead(200, { 'content-type': 'binary/octet-stream' }); res.end(aPng(5, 5)); return; }
    if (req.url === '/bucket/liar.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(HOSTILE_SVG); return; }
    if (req.url === '/bucket/speech') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(aSample('ogg')); return; }
    res.writeHead(404); res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'save-shapes-'));
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

async function save(id: string, output: unknown) {
  const job = aJob().withId(id).completed(output).build();
  return saveJobOutputs({
    dir, endpointId: 'shapes', job, input: {}, parts: parseOutputs(output, { secrets: [KEY] }),
    download: true, maxDownloadBytes: 1_000_000, downloadTimeoutMs: 10_000, secrets: [KEY],
  });
}

describe('saveJobOutputs: worker shapes', () => {
  test('ComfyUI base64 images are saved under the worker\'s names, with the extension of their bytes', async () => {
    const saved = await save('comfy', { images: [
      { filename: 'ComfyUI_00001_.png', type: 'base64', data: aPng(3, 3).toString('base64') },
      { filename: 'ComfyUI_00002_.png', type: 'base64', data: aSampleBase64('jpg') },
      { filename: 'ComfyUI_00001_.png', type: 'base64', data: aSampleBase64('webp') },
    ] });
    assert.deepEqual(saved.files.map((f) => [f.name, f.kind]), [['ComfyUI_00001_.png', 'image'], ['ComfyUI_00002_.jpg', 'image'], ['ComfyUI_00001_-2.webp', 'image']]);
    assert.deepEqual(await readFile(join(saved.folder, 'ComfyUI_00002_.jpg')), aSample('jpg'));
  });

  test('hostile worker file names never leave the job folder nor take job.json\'s place', async () => {
    const png = aPng(1, 1).toString('base64');
    const names = ['../../../.bashrc', '..\\..\\evil.exe', '/etc/passwd', 'job.json', 'C:\\x\\con.png', '....', ''];
    const saved = await save('names', { images: names.map((filename) => ({ filename, type: 'base64', data: png })) });
    assert.equal(saved.files.length, names.length);
    const listing = (await readdir(saved.folder)).sort();
    assert.equal(listing.length, names.length + 1, listing.join(' '));
    for (const f of saved.files) {
      assert.match(f.name, /^[A-Za-z0-9_][A-Za-z0-9._-]*\.png$/, f.name);
      assert.equal(join(saved.folder, f.name), f.path);
    }
    assert.ok(!saved.files.some((f) => f.name === 'job.png' || f.name === 'job.json'));
    assert.ok(saved.files.some((f) => f.name.startsWith('passwd')));
    assert.deepEqual(JSON.parse(await readFile(saved.jobJsonPath, 'utf8')).jobId, 'names');
  });

  test('an s3_url is downloaded without credentials and named by the worker; its bytes decide the extension', async () => {
    const saved = await save('s3', { images: [{ filename: 'ComfyUI_00001_.png', type: 's3_url', data: `${base}/bucket/ComfyUI_00001_.png?X-Amz-Signature=x` }], audio: `${base}/bucket/speech` });
    assert.deepEqual(saved.failedDownloads, []);
    assert.deepEqual(saved.files.map((f) => [f.name, f.kind]), [['ComfyUI_00001_.png', 'image'], ['audio-1.ogg', 'audio']]);
  });

  test('a download that is an SVG behind a .png name and an image/png type is refused and deleted', async () => {
    const saved = await save('liar', { images: [{ filename: 'liar.png', type: 's3_url', data: `${base}/bucket/liar.png` }] });
    assert.deepEqual(saved.files, []);
    assert.match(saved.failedDownloads[0]!.reason, /SVG/);
    assert.deepEqual(await readdir(saved.folder), ['job.json']);
  });

  test('a link with the API key in it is never requested, and job.json does not hold the key', async () => {
    const before = requested.length;
    const saved = await save('keyed', { image_url: `${base}/bucket/ComfyUI_00001_.png?token=${KEY}` });
    assert.equal(requested.length, before);
    assert.match(saved.rejected[0]!.reason, /holds your API key/);
    assert.ok(!(await readFile(saved.jobJsonPath, 'utf8')).includes(KEY));
  });

  test('A1111 images, a speech worker\'s WAV and a bare JPEG get kind-and-count names', async () => {
    const a1111 = await save('a1111', { images: [aPng(2, 2).toString('base64'), aPng(2, 2).toString('base64')], parameters: {}, info: '{}' });
    assert.deepEqual(a1111.files.map((f) => f.name), ['image-1.png', 'image-2.png']);
    const speech = await save('speech', { audio_base64: aSampleBase64('wav') });
    assert.deepEqual(speech.files.map((f) => [f.name, f.bytes]), [['audio-1.wav', aSample('wav').length]]);
    const bare = await save('bare', aSampleBase64('jpg'));
    assert.deepEqual(bare.files.map((f) => f.name), ['image-1.jpg']);
  });

  test('a transcription is saved as transcript.txt with its segment times', async () => {
    const saved = await save('whisper', { transcription: 'Hello there. General Kenobi.', segments: [{ start: 0, end: 2.5, text: 'Hello there.' }, { start: 62.5, end: 64, text: 'General Kenobi.' }], detected_language: 'en' });
    assert.deepEqual(saved.files.map((f) => [f.name, f.kind]), [['transcript.txt', 'transcript']]);
    assert.equal(await readFile(join(saved.folder, 'transcript.txt'), 'utf8'),
      'Hello there. General Kenobi.\n\nLanguage: en\n\n[00:00.0 → 00:02.5] Hello there.\n[01:02.5 → 01:04.0] General Kenobi.\n');
  });
});

describe('resultNotes', () => {
  test('an empty output is null, nothing, "", [] or {}; anything else is not', () => {
    for (const v of [undefined, null, '', '  ', [], {}]) assert.equal(isEmptyOutput(v), true, JSON.stringify(v));
    for (const v of [0, false, 'x', [null], { a: null }]) assert.equal(isEmptyOutput(v), false, JSON.stringify(v));
  });
  test('the JSON size is counted without stringifying, close to the real length', () => {
    const output = { images: [{ filename: 'a.png', type: 'base64', data: 'A'.repeat(10_000) }], n: 12, ok: true, none: null };
    const real = JSON.stringify(output).length;
    assert.ok(Math.abs(approximateJsonBytes(output) - real) < 20, `${approximateJsonBytes(output)} vs ${real}`);
  });
  test('near and over the ~20 MB result limit say what to do; an ordinary result says nothing', () => {
    assert.equal(resultSizeNote({ image: 'A'.repeat(1_000_000) }), undefined);
    assert.match(resultSizeNote({ images: ['A'.repeat(8_000_000), 'A'.repeat(8_000_000)] })!, /near the platform's limit.*s3Config/);
    assert.match(resultSizeNote({ images: ['A'.repeat(21_000_000)] })!, /over the platform's limit.*400.*s3Config/);
  });
});

describe('outputNotices', () => {
  test('a COMPLETED job with nothing says the worker returned no output; streamed text or a FAILED job does not', () => {
    assert.deepEqual(outputNotices({ status: 'COMPLETED', output: null }), [EMPTY_OUTPUT_NOTE]);
    assert.deepEqual(outputNotices({ status: 'COMPLETED' }), [EMPTY_OUTPUT_NOTE]);
    assert.deepEqual(outputNotices({ status: 'COMPLETED', output: {} }, 'streamed words'), []);
    assert.deepEqual(outputNotices({ status: 'FAILED', error: 'CUDA out of memory' }), []);
    assert.deepEqual(outputNotices({ status: 'COMPLETED', output: { ok: true } }), []);
  });
  test('a result near the limit, and a job failed for its size, say what to do', () => {
    assert.match(outputNotices({ status: 'COMPLETED', output: { images: ['A'.repeat(16_000_000)] } })[0]!, /near the platform's limit/);
    assert.match(outputNotices({ status: 'FAILED', error: 'Job result payload too large (21 MB)' })[0]!, /too large for the platform.*s3Config/);
  });
});

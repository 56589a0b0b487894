// Issue 20: the demo's worker-shaped endpoints answer in the shapes real deployed workers use, with real bytes,
// and the shared outputs parser finds each (the same code the extension runs on them).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { client, moveClock, startEmulator, type Emulator } from './harness';
import { decodePng } from './png';
import { DEMO_KEYS } from '../../src/emulator/demo/demo';
import { embeddedBytes, parseOutputs } from '../../src/core/outputs/outputs';
import { sniffMediaFormat } from '../../src/core/outputs/mediaFormat';
import { outputNotices } from '../../src/core/outputs/resultNotes';

let emu: Emulator;
let api: ReturnType<typeof client>;
before(async () => {
  emu = await startEmulator(undefined); // the built-in demo
  api = client(emu.url, DEMO_KEYS.full);
});
after(async () => { await emu?.stop(); });

async function runToEnd(endpoint: string, input: Record<string, unknown>) {
  const r = await api.post(`/v2/${endpoint}/run`, { input });
  assert.equal(r.status, 200, r.text);
  await moveClock(emu.url, { advanceMs: 41_000 });
  const s = await api.get(`/v2/${endpoint}/status/${r.json.id}`);
  assert.equal(s.status, 200, s.text.slice(0, 300));
  return s.json;
}

describe('worker-shaped demo endpoints', () => {
  test('comfyui: images[] of {filename, type: base64, data} PNGs of the requested size', async () => {
    const job = await runToEnd('comfyui', { prompt: 'a lighthouse', width: 40, height: 30, num_images: 2 });
    assert.equal(job.status, 'COMPLETED');
    assert.deepEqual(job.output.images.map((i: { filename: string; type: string }) => [i.filename, i.type]), [['ComfyUI_00001_.png', 'base64'], ['ComfyUI_00002_.png', 'base64']]);
    const png = decodePng(Buffer.from(job.output.images[0].data, 'base64'));
    assert.deepEqual([png.width, png.height], [40, 30]);
    const parts = parseOutputs(job.output);
    assert.deepEqual(parts.map((p) => p.kind === 'embedded' && [p.fileName, p.format.ext]), [['ComfyUI_00001_.png', 'png'], ['ComfyUI_00002_.png', 'png']]);
  });

  test('comfyui with format jpeg and jpeg_bytes: real JPEGs grown to the size asked', async () => {
    const job = await runToEnd('comfyui', { format: 'jpeg', jpeg_bytes: 300_000 });
    const bytes = Buffer.from(job.output.images[0].data, 'base64');
    assert.equal(sniffMediaFormat(bytes)?.ext, 'jpg');
    assert.ok(Math.abs(bytes.length - 300_000) < 8, String(bytes.length));
    assert.deepEqual([bytes[bytes.length - 2], bytes[bytes.length - 1]], [0xff, 0xd9], 'ends with EOI');
    const bad = await runToEnd('comfyui', { format: 'jpeg', jpeg_bytes: 'huge' });
    assert.equal(bad.status, 'FAILED');
    assert.match(bad.error, /jpeg_bytes/);
  });

  test('comfyui asked for more than the ~20 MB result limit fails, as on the platform, saying what to do', async () => {
    const job = await runToEnd('comfyui', { format: 'jpeg', jpeg_bytes: 4_000_000, num_images: 4 });
    assert.equal(job.status, 'FAILED');
    assert.match(job.error, /payload too large: 21\.3 MB, over the 20 MB limit.*s3Config/);
    assert.equal(job.output, undefined);
    assert.match(outputNotices(job)[0]!, /too large for the platform/, 'the extension recognises the failure and says what to do');
  });

  test('comfyui-s3: s3_url links on the emulator\'s loopback origin, fetchable without a key', async () => {
    const job = await runToEnd('comfyui-s3', { prompt: 'x', width: 16, height: 16 });
    const [entry] = job.output.images;
    assert.equal(entry.type, 's3_url');
    assert.equal(entry.filename, 'ComfyUI_00001_.png');
    assert.ok(entry.data.startsWith(`${emu.url}/files/`), entry.data);
    const r = await fetch(entry.data);
    assert.equal(r.status, 200);
    assert.equal(sniffMediaFormat(new Uint8Array(await r.arrayBuffer()))?.ext, 'png');
    assert.deepEqual(parseOutputs(job.output).map((p) => p.kind), ['image']);
  });

  test('a1111: bare base64 PNGs, parameters, and info as a JSON string', async () => {
    const job = await runToEnd('a1111', { prompt: 'a cat', seed: 9, width: 24, height: 24, num_images: 2 });
    assert.equal(job.output.images.length, 2);
    assert.equal(typeof job.output.images[0], 'string');
    assert.equal(job.output.parameters.seed, 9);
    assert.deepEqual(JSON.parse(job.output.info).all_seeds, [9, 10]);
    assert.deepEqual(parseOutputs(job.output).map((p) => p.kind), ['embedded', 'embedded', 'json']);
  });

  test('jpeg-handler: the whole output is bare base64 of a real JPEG', async () => {
    const job = await runToEnd('jpeg-handler', {});
    assert.equal(typeof job.output, 'string');
    assert.equal(sniffMediaFormat(Buffer.from(job.output, 'base64'))?.ext, 'jpg');
  });

  test('tts-wav: audio_base64 of a real WAV', async () => {
    const job = await runToEnd('tts-wav', { prompt: 'Hello' });
    const p = parseOutputs(job.output)[0]!;
    assert.ok(p.kind === 'embedded' && p.format.ext === 'wav');
    assert.equal(embeddedBytes(p).toString('latin1', 8, 12), 'WAVE');
    assert.equal(job.output.format, 'wav');
  });

  test('faster-whisper: transcription, timed segments, detected_language', async () => {
    const job = await runToEnd('faster-whisper', { audio: 'https://example.com/a.wav', text: 'One two three. Four five.' });
    assert.equal(job.output.transcription, ' One two three. Four five.');
    assert.deepEqual(job.output.segments.map((s: { start: number; end: number; text: string }) => [s.start, s.end, s.text]), [[0, 1.14, ' One two three.'], [1.14, 1.9, ' Four five.']]);
    assert.equal(job.output.detected_language, 'en');
    const p = parseOutputs(job.output)[0]!;
    assert.ok(p.kind === 'transcript' && p.segments.length === 2);
  });

  test('forgot-return: COMPLETED with a null output', async () => {
    const job = await runToEnd('forgot-return', {});
    assert.equal(job.status, 'COMPLETED');
    assert.equal(job.output ?? null, null);
  });
});

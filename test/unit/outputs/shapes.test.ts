// The output shapes real workers return (issue 20), each with real bytes, and hostile variants of each.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedBytes, parseOutputs, type OutputPart } from '../../../src/core/outputs/outputs';
import { aPng } from '../builders/png';
import { aSample, aSampleBase64, aSampleDataUri, HOSTILE_SVG, KIND_OF_SAMPLE, MEDIA_SAMPLES } from '../builders/media';

const KEY = 'rpa_TESTKEY0123456789ABCDEF';

/** Each part without its base64 (unreadable in a diff): kind, field, format, name, seed. */
function summary(parts: OutputPart[]): unknown[] {
  return parts.map((p) => {
    if (p.kind === 'embedded') return { kind: p.kind, field: p.field, ext: p.format.ext, ...(p.fileName ? { fileName: p.fileName } : {}), ...(p.seed !== undefined ? { seed: p.seed } : {}) };
    if (p.kind === 'json') return { kind: p.kind, field: p.field, value: p.value };
    if (p.kind === 'rejected') return { kind: p.kind, field: p.field };
    if (p.kind === 'image' || p.kind === 'video' || p.kind === 'audio') return { kind: p.kind, field: p.field, url: p.url, ...(p.fileName ? { fileName: p.fileName } : {}) };
    return { kind: p.kind, field: p.field };
  });
}
function reasons(parts: OutputPart[]): string[] {
  return parts.flatMap((p) => (p.kind === 'rejected' ? [p.reason] : []));
}

describe('shapes: ComfyUI worker', () => {
  test('base64 images are embedded, named by the worker, bytes intact', () => {
    const png = aPng(4, 3);
    const parts = parseOutputs({ images: [
      { filename: 'ComfyUI_00001_.png', type: 'base64', data: png.toString('base64') },
      { filename: 'ComfyUI_00002_.jpg', type: 'base64', data: aSampleBase64('jpg') },
    ] });
    assert.deepEqual(summary(parts), [
      { kind: 'embedded', field: 'output.images[0].data', ext: 'png', fileName: 'ComfyUI_00001_.png' },
      { kind: 'embedded', field: 'output.images[1].data', ext: 'jpg', fileName: 'ComfyUI_00002_.jpg' },
    ]);
    assert.deepEqual(embeddedBytes(parts[0] as Extract<OutputPart, { kind: 'embedded' }>), png);
    assert.deepEqual(parts[0]!.kind === 'embedded' && [parts[0].width, parts[0].height], [4, 3]);
  });
  test('s3_url images are links to download, named by the worker', () => {
    const parts = parseOutputs({ images: [{ filename: 'ComfyUI_00001_.png', type: 's3_url', data: 'https://bucket.s3.amazonaws.com/job/ComfyUI_00001_.png?X-Amz-Signature=abc' }] });
    assert.deepEqual(summary(parts), [{ kind: 'image', field: 'output.images[0].data', url: 'https://bucket.s3.amazonaws.com/job/ComfyUI_00001_.png?X-Amz-Signature=abc', fileName: 'ComfyUI_00001_.png' }]);
  });
  test('a fork\'s videos[] of the same shape are videos, by their bytes', () => {
    const parts = parseOutputs({ videos: [{ filename: 'AnimateDiff_00001.mp4', type: 'base64', data: aSampleBase64('mp4') }, { filename: 'clip.webm', type: 'base64', data: aSampleBase64('webm') }] });
    assert.deepEqual(parts.map((p) => p.kind === 'embedded' && [p.format.kind, p.format.ext]), [['video', 'mp4'], ['video', 'webm']]);
  });
  test('hostile: an SVG named .png is refused, naming SVG', () => {
    const parts = parseOutputs({ images: [{ filename: 'cute.png', type: 'base64', data: Buffer.from(HOSTILE_SVG).toString('base64') }] });
    assert.deepEqual(summary(parts), [{ kind: 'rejected', field: 'output.images[0].data' }]);
    assert.match(reasons(parts)[0]!, /SVG/);
  });
  test('hostile: wrong magic (text claiming to be base64 image data) is refused', () => {
    const parts = parseOutputs({ images: [{ filename: 'a.png', type: 'base64', data: Buffer.from('this is not an image, it is text!'.repeat(3)).toString('base64') }] });
    assert.match(reasons(parts)[0]!, /none of the accepted formats/);
  });
  test('hostile: a file name with ../ is kept as given here (saveJobOutputs makes it safe)', () => {
    const parts = parseOutputs({ images: [{ filename: '../../../.bashrc', type: 'base64', data: aPng(1, 1).toString('base64') }] });
    assert.equal(parts[0]!.kind === 'embedded' && parts[0].fileName, '../../../.bashrc');
  });
  test('hostile: an s3_url on another host carrying the API key is refused, never opened', () => {
    const parts = parseOutputs({ images: [{ filename: 'a.png', type: 's3_url', data: `https://evil.example/a.png?key=${KEY}` }] }, { secrets: [KEY] });
    assert.match(reasons(parts)[0]!, /holds your API key/);
    const encoded = parseOutputs({ image_url: `https://evil.example/a.png?k=${encodeURIComponent(KEY).replace(/_/g, '%5F')}` }, { secrets: [KEY] });
    assert.match(reasons(encoded)[0]!, /holds your API key/);
  });
  test('hostile: an s3_url with plain http elsewhere or javascript: is refused', () => {
    const parts = parseOutputs({ images: [{ type: 's3_url', data: 'http://example.com/a.png' }, { type: 's3_url', data: 'javascript:alert(1)' }] });
    assert.equal(reasons(parts).length, 2);
  });
});

describe('shapes: Automatic1111 worker', () => {
  test('bare base64 PNGs in images[], parameters and info kept as JSON beside them', () => {
    const info = JSON.stringify({ prompt: 'a cat', seed: 7 });
    const parts = parseOutputs({ images: [aPng(2, 2).toString('base64'), aPng(3, 3).toString('base64')], parameters: { prompt: 'a cat', steps: 20 }, info });
    assert.deepEqual(summary(parts), [
      { kind: 'embedded', field: 'output.images[0]', ext: 'png' },
      { kind: 'embedded', field: 'output.images[1]', ext: 'png' },
      { kind: 'json', field: 'output', value: { parameters: { prompt: 'a cat', steps: 20 }, info } },
    ]);
  });
  test('each image gets its seed from info.all_seeds, when there is one per image', () => {
    const images = [aPng(2, 2).toString('base64'), aPng(2, 2).toString('base64')];
    const seeded = parseOutputs({ images, parameters: {}, info: JSON.stringify({ all_seeds: [41, 42] }) });
    assert.deepEqual(seeded.map((p) => p.kind === 'embedded' && p.seed), [41, 42, false]);
    const grid = parseOutputs({ images, info: JSON.stringify({ all_seeds: [41] }) });
    assert.deepEqual(grid.map((p) => p.kind === 'embedded' && p.seed), [undefined, undefined, false]);
    assert.deepEqual(parseOutputs({ images, info: '{not json' }).map((p) => p.kind === 'embedded' && p.seed), [undefined, undefined, false]);
  });
  test('hostile: an SVG in images[] is refused and the good image still comes', () => {
    const parts = parseOutputs({ images: [Buffer.from(HOSTILE_SVG).toString('base64'), aPng(2, 2).toString('base64')] });
    assert.deepEqual(parts.map((p) => p.kind), ['rejected', 'embedded']);
  });
});

describe('shapes: hand-written handlers', () => {
  test('a bare base64 JPEG as the whole output', () => {
    assert.deepEqual(summary(parseOutputs(aSampleBase64('jpg'))), [{ kind: 'embedded', field: 'output', ext: 'jpg' }]);
  });
  test('{image}, {image_base64}, {data_url} with JPEG, WebP, GIF', () => {
    assert.deepEqual(summary(parseOutputs({ image: aSampleBase64('jpg') })), [{ kind: 'embedded', field: 'output.image', ext: 'jpg' }]);
    assert.deepEqual(summary(parseOutputs({ image_base64: aSampleBase64('webp'), seed: 3 })), [{ kind: 'embedded', field: 'output.image_base64', ext: 'webp', seed: 3 }]);
    assert.deepEqual(summary(parseOutputs({ data_url: aSampleDataUri('gif') })), [{ kind: 'embedded', field: 'output.data_url', ext: 'gif' }]);
  });
  test('URL-safe base64 is accepted and stored as standard base64', () => {
    const urlSafe = aSampleBase64('jpg').replace(/\+/g, '-').replace(/\//g, '_');
    const p = parseOutputs({ image: urlSafe })[0]!;
    assert.ok(p.kind === 'embedded');
    assert.deepEqual(embeddedBytes(p), aSample('jpg'));
  });
  test('every accepted format, as a data URI and as bare base64, is found by its bytes', () => {
    for (const ext of MEDIA_SAMPLES) {
      for (const value of [aSampleDataUri(ext), aSampleBase64(ext)]) {
        const p = parseOutputs({ result: { file: value } })[0]!;
        assert.ok(p.kind === 'embedded', `${ext}: ${JSON.stringify(summary([p]))}`);
        assert.deepEqual([p.format.ext, p.format.kind, p.byteLength], [ext, KIND_OF_SAMPLE[ext], aSample(ext).length]);
        assert.deepEqual(embeddedBytes(p), aSample(ext));
      }
    }
  });
  test('media nested deep in an output is found; ordinary strings stay JSON', () => {
    const parts = parseOutputs({ status: 'ok', result: { outputs: [{ node: '9', payload: aSampleBase64('webp') }] }, prompt: 'a red fox in the snow' });
    assert.deepEqual(summary(parts), [
      { kind: 'embedded', field: 'output.result.outputs[0].payload', ext: 'webp' },
      { kind: 'json', field: 'output', value: { status: 'ok', result: { outputs: [{ node: '9' }] }, prompt: 'a red fox in the snow' } },
    ]);
  });
  test('a link outside a media key is media only when its path names a media file', () => {
    assert.deepEqual(summary(parseOutputs({ result: 'https://cdn.example.com/out.mp4', docs: 'https://example.com/readme' })), [
      { kind: 'video', field: 'output.result', url: 'https://cdn.example.com/out.mp4' },
      { kind: 'json', field: 'output', value: { docs: 'https://example.com/readme' } },
    ]);
  });
  test('a random blob that happens to start like an MPEG frame is media only under a media key', () => {
    const blob = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(200, 0x11)]).toString('base64');
    assert.deepEqual(parseOutputs({ embedding: blob }).map((p) => p.kind), ['json']);
    assert.deepEqual(parseOutputs({ audio: blob }).map((p) => p.kind === 'embedded' && p.format.ext), ['mp3']);
  });
  test('too deep is left as JSON, too many is refused past the cap', () => {
    let deep: unknown = aSampleBase64('jpg');
    for (let i = 0; i < 12; i++) deep = { x: deep };
    assert.deepEqual(parseOutputs(deep).map((p) => p.kind), ['json']);
    const many = parseOutputs({ images: Array.from({ length: 70 }, () => aPng(1, 1).toString('base64')) });
    assert.equal(many.filter((p) => p.kind === 'embedded').length, 64);
    assert.equal(reasons(many).length, 6);
  });
  test('hostile: wrong magic under a media key is refused; a short ordinary string is left alone', () => {
    assert.match(reasons(parseOutputs({ image: Buffer.alloc(200, 7).toString('base64') }))[0]!, /none of the accepted formats \(it starts with 07 07 07 07\)/);
    assert.deepEqual(summary(parseOutputs({ image: 'cat.png', audio: 'none', speech: 'Hello there' })), [{ kind: 'json', field: 'output', value: { image: 'cat.png', audio: 'none', speech: 'Hello there' } }], 'text that is no base64 at all stays JSON');
    assert.deepEqual(summary(parseOutputs({ url: 'https://example.com/docs', file: 'weights.safetensors' })), [{ kind: 'json', field: 'output', value: { url: 'https://example.com/docs', file: 'weights.safetensors' } }]);
    assert.deepEqual(summary(parseOutputs({ id: 'abc123', note: 'done' })), [{ kind: 'json', field: 'output', value: { id: 'abc123', note: 'done' } }]);
  });
  test('hostile: a data URI of type SVG, HTML or XML is refused whatever it holds', () => {
    for (const type of ['image/svg+xml', 'text/html', 'application/xml']) {
      assert.equal(reasons(parseOutputs({ data_url: `data:${type};base64,${aSampleBase64('jpg')}` })).length, 1, type);
    }
    assert.match(reasons(parseOutputs({ data_url: `data:image/png;base64,${Buffer.from(HOSTILE_SVG).toString('base64')}` }))[0]!, /SVG/);
  });
  test('hostile: over the size cap is refused before decoding', () => {
    assert.match(reasons(parseOutputs({ image: aSampleBase64('jpg') }, { maxImageBytes: 1000 }))[0]!, /over the limit/);
  });
});

describe('shapes: audio, speech and video workers', () => {
  test('{audio} and {audio_base64} of WAV, MP3, OGG/Opus, FLAC', () => {
    for (const ext of ['wav', 'mp3', 'ogg', 'flac'] as const) {
      for (const key of ['audio', 'audio_base64']) {
        const parts = parseOutputs({ [key]: aSampleBase64(ext), sample_rate: 24000 });
        assert.deepEqual(summary(parts), [{ kind: 'embedded', field: `output.${key}`, ext }, { kind: 'json', field: 'output', value: { sample_rate: 24000 } }]);
      }
    }
  });
  test('video as base64 or as a URL', () => {
    assert.deepEqual(summary(parseOutputs({ video: aSampleBase64('mp4') })), [{ kind: 'embedded', field: 'output.video', ext: 'mp4' }]);
    assert.deepEqual(summary(parseOutputs({ video: 'https://cdn.example.com/v/clip' })), [{ kind: 'video', field: 'output.video', url: 'https://cdn.example.com/v/clip' }]);
  });
  test('hostile: HTML under audio_base64 is refused, naming markup', () => {
    assert.match(reasons(parseOutputs({ audio_base64: Buffer.from('<html><body><script>alert(1)</script></body></html>').toString('base64') }))[0]!, /markup/);
  });
});

describe('shapes: transcription (faster-whisper)', () => {
  const whisper = {
    segments: [
      { id: 0, seek: 0, start: 0, end: 2.5, text: ' Hello there.', tokens: [1, 2], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0.01 },
      { id: 1, seek: 250, start: 2.5, end: 4.25, text: ' General Kenobi.', tokens: [3], temperature: 0, avg_logprob: -0.3, compression_ratio: 1, no_speech_prob: 0.02 },
    ],
    detected_language: 'en',
    transcription: ' Hello there. General Kenobi.',
    translation: null,
    device: 'cuda',
    model: 'turbo',
  };
  test('text, segments with their times, the language; the rest as JSON', () => {
    const parts = parseOutputs(whisper);
    assert.equal(parts[0]!.kind, 'transcript');
    if (parts[0]!.kind !== 'transcript') return;
    assert.equal(parts[0].text, 'Hello there. General Kenobi.');
    assert.equal(parts[0].language, 'en');
    assert.deepEqual(parts[0].segments, [{ start: 0, end: 2.5, text: 'Hello there.' }, { start: 2.5, end: 4.25, text: 'General Kenobi.' }]);
    assert.deepEqual(parts[1], { kind: 'json', field: 'output', value: { translation: null, device: 'cuda', model: 'turbo' } });
  });
  test('OpenAI-Whisper-shaped {text, segments, language} too; a bare {text} is not a transcript', () => {
    assert.equal(parseOutputs({ text: 'hi', segments: [{ start: 0, end: 1, text: 'hi' }], language: 'en' })[0]!.kind, 'transcript');
    assert.equal(parseOutputs({ text: 'hi' })[0]!.kind, 'json');
  });
  test('hostile: a transcript\'s text with markup stays text (the panel sets textContent); bad segments are not a transcript', () => {
    const p = parseOutputs({ transcription: '<img src=x onerror=alert(1)>' })[0]!;
    assert.ok(p.kind === 'transcript' && p.text === '<img src=x onerror=alert(1)>' && p.segments.length === 0);
    assert.equal(parseOutputs({ text: 'x', segments: [{ start: 'soon', end: 1, text: 'x' }] })[0]!.kind, 'json');
  });
});

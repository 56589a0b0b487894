import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { outputCost, parseOutputs, embeddedBytes, type OutputPart } from '../../../src/core/outputs/outputs';
import { aPng, aPngDataUri } from '../builders/png';

function only(parts: OutputPart[]): OutputPart {
  assert.equal(parts.length, 1, JSON.stringify(parts.map((p) => ({ ...p, base64: undefined }))));
  return parts[0]!;
}
function rejected(output: unknown): string {
  const p = only(parseOutputs(output));
  assert.equal(p.kind, 'rejected', JSON.stringify(p));
  return (p as { reason: string }).reason;
}

describe('parseOutputs: the shapes of SPEC 2.8', () => {
  test('dedicated image array: each PNG decoded with its size and seed', () => {
    const parts = parseOutputs([{ image_url: aPngDataUri(3, 2), seed: 11 }, { image_url: aPngDataUri(5, 4), seed: 12 }]);
    assert.equal(parts.length, 2);
    const [a, b] = parts;
    assert.equal(a!.kind, 'embedded');
    if (a!.kind !== 'embedded' || b!.kind !== 'embedded') return;
    assert.deepEqual([a.width, a.height, a.seed, a.field], [3, 2, 11, 'output[0].image_url']);
    assert.deepEqual([b.width, b.height, b.seed], [5, 4, 12]);
    assert.deepEqual(embeddedBytes(a), aPng(3, 2));
    assert.equal(a.byteLength, aPng(3, 2).length);
  });

  test('dedicated image object with images[] and one seed', () => {
    const parts = parseOutputs({ images: [aPngDataUri(1, 1), aPngDataUri(2, 2)], seed: 99 });
    assert.deepEqual(parts.map((p) => p.kind === 'embedded' && [p.width, p.seed, p.field]), [
      [1, 99, 'output.images[0]'], [2, 99, 'output.images[1]'],
    ]);
  });

  test('dedicated image object with image_url', () => {
    const p = only(parseOutputs({ image_url: aPngDataUri(7, 8), seed: 5 }));
    assert.equal(p.kind, 'embedded');
    if (p.kind === 'embedded') assert.deepEqual([p.width, p.height, p.seed], [7, 8, 5]);
  });

  test('public endpoint: https URLs by kind, and the cost', () => {
    const output = { image_url: 'https://cdn.example.com/a.png', video_url: 'https://cdn.example.com/v.mp4', audio_url: 'https://cdn.example.com/s.mp3', cost: 0.0123 };
    assert.deepEqual(parseOutputs(output), [
      { kind: 'image', field: 'output.image_url', url: 'https://cdn.example.com/a.png' },
      { kind: 'video', field: 'output.video_url', url: 'https://cdn.example.com/v.mp4' },
      { kind: 'audio', field: 'output.audio_url', url: 'https://cdn.example.com/s.mp3' },
    ]);
    assert.equal(outputCost(output), 0.0123);
    assert.equal(outputCost([{ cost: 1 }]), undefined);
    assert.equal(outputCost({ cost: 'free' }), undefined);
  });

  test('any other output is kept as JSON', () => {
    assert.deepEqual(parseOutputs({ text: 'hello', tokens: 3 }), [{ kind: 'json', field: 'output', value: { text: 'hello', tokens: 3 } }]);
    assert.deepEqual(parseOutputs('plain text: not a link'), [{ kind: 'json', field: 'output', value: 'plain text: not a link' }]);
    assert.deepEqual(parseOutputs(42), [{ kind: 'json', field: 'output', value: 42 }]);
    assert.deepEqual(parseOutputs([1, 'two']), [{ kind: 'json', field: 'output[0]', value: 1 }, { kind: 'json', field: 'output[1]', value: 'two' }]);
    assert.deepEqual(parseOutputs(undefined), []);
    assert.deepEqual(parseOutputs(null), []);
  });

  test('keys named like Object members are plain data', () => {
    assert.deepEqual(parseOutputs({ constructor: 'x', toString: 1 }), [{ kind: 'json', field: 'output', value: { constructor: 'x', toString: 1 } }]);
    const hostile = JSON.parse('{"image_url": "https://x.example/a.png", "__proto__": {"polluted": true}}');
    const extra = parseOutputs(hostile)[1]!;
    assert.equal(extra.kind, 'json');
    const value = (extra as { value: Record<string, unknown> }).value;
    assert.deepEqual(Object.keys(value), ['__proto__']);
    assert.equal((value as { polluted?: boolean }).polluted, undefined);
  });

  test('fields beside the media are kept as JSON, not lost', () => {
    const parts = parseOutputs({ image_url: 'https://x.example/a.png', cost: 1, nsfw: false });
    assert.deepEqual(parts[1], { kind: 'json', field: 'output', value: { nsfw: false } });
  });
});

describe('parseOutputs: URL rules', () => {
  for (const host of ['127.0.0.1:8080', '127.3.4.5', 'localhost:1', '[::1]:9000']) {
    test(`http on loopback ${host} is accepted (the emulator)`, () => {
      const p = only(parseOutputs({ image_url: `http://${host}/out/a.png` }));
      assert.equal(p.kind, 'image');
    });
  }
  for (const url of ['http://example.com/a.png', 'http://10.0.0.1/a.png', 'http://128.0.0.1/a.png', 'http://localhost.evil.com/a.png']) {
    test(`http elsewhere is rejected: ${url}`, () => {
      assert.match(rejected({ image_url: url }), /must use https/);
    });
  }
  test('javascript: is rejected with a reason', () => {
    assert.match(rejected({ image_url: 'javascript:alert(document.cookie)' }), /javascript: links are not opened/);
  });
  test('file: is rejected', () => {
    assert.match(rejected({ video_url: 'file:///etc/passwd' }), /file: links/);
  });
  test('a string that is not a URL is rejected', () => {
    assert.match(rejected({ audio_url: 'not a url' }), /is not a URL/);
  });
  test('a media field that is not a string is rejected', () => {
    assert.match(rejected({ image_url: { evil: true } }), /should be a URL, not an object/);
  });
  test('a top-level link string is classified, hostile or not', () => {
    assert.equal(only(parseOutputs('https://x.example/v.webm')).kind, 'video');
    assert.match(rejected('http://example.com/x'), /https/);
  });
});

describe('parseOutputs: embedded data', () => {
  test('data:text/html is rejected', () => {
    const b64 = Buffer.from('<script>alert(1)</script>').toString('base64');
    assert.match(rejected([{ image_url: `data:text/html;base64,${b64}`, seed: 1 }]), /type text\/html is not accepted/);
  });
  test('data:image/svg+xml is rejected (scripts can live in SVG)', () => {
    assert.match(rejected({ image_url: 'data:image/svg+xml;base64,PHN2Zy8+' }), /SVG is not accepted/);
  });
  test('base64 that is no accepted format but claims to be a PNG is rejected', () => {
    const text = Buffer.from('just some text, not an image at all, padded out to be long enough').toString('base64');
    assert.match(rejected({ image_url: `data:image/png;base64,${text}` }), /none of the accepted formats/);
  });
  test('bad base64 is rejected rather than silently skipped', () => {
    assert.match(rejected({ image_url: 'data:image/png;base64,iVBOR!!w0KGgo=' }), /not valid base64/);
  });
  test('a PNG that is not base64-encoded is rejected', () => {
    assert.match(rejected({ image_url: 'data:image/png,%89PNG' }), /base64-encoded/);
  });
  test('a PNG with a damaged header is rejected', () => {
    const png = aPng(2, 2);
    png.write('XXXX', 12, 'latin1');
    assert.match(rejected({ image_url: `data:image/png;base64,${png.toString('base64')}` }), /damaged/);
  });
  test('an oversized PNG is rejected before decoding, naming the limit', () => {
    const png = aPngDataUri(64, 64);
    const parts = parseOutputs({ image_url: png }, { maxImageBytes: 100 });
    assert.equal(parts[0]!.kind, 'rejected');
    assert.match((parts[0] as { reason: string }).reason, /over the limit of 100 bytes/);
    assert.equal(parseOutputs({ image_url: png }, { maxImageBytes: 1_000_000 })[0]!.kind, 'embedded');
  });
  test('line-wrapped base64 is accepted', () => {
    const b64 = aPng(2, 2).toString('base64').replace(/(.{20})/g, '$1\n');
    assert.equal(only(parseOutputs({ image_url: `data:image/png;base64,${b64}` })).kind, 'embedded');
  });
  test('an embedded PNG in video_url is what its bytes are: an image', () => {
    const p = only(parseOutputs({ video_url: aPngDataUri() }));
    assert.equal(p.kind === 'embedded' && p.format.kind, 'image');
  });
  test('one hostile part does not hide the good ones', () => {
    const parts = parseOutputs([{ image_url: 'javascript:x', seed: 1 }, { image_url: aPngDataUri(), seed: 2 }]);
    assert.deepEqual(parts.map((p) => p.kind), ['rejected', 'embedded']);
  });
});

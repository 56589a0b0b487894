import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeUnknownBytes, imageSize, sniffMediaFormat } from '../../../src/core/outputs/mediaFormat';
import { aPng } from '../builders/png';
import { aSample, HOSTILE_SVG, KIND_OF_SAMPLE, MEDIA_SAMPLES } from '../builders/media';

describe('sniffMediaFormat: what a file is, from its first bytes', () => {
  for (const ext of MEDIA_SAMPLES) {
    test(`a real ${ext} file is ${KIND_OF_SAMPLE[ext]} saved as .${ext}`, () => {
      const format = sniffMediaFormat(aSample(ext).subarray(0, 64));
      assert.equal(format?.ext, ext);
      assert.equal(format?.kind, KIND_OF_SAMPLE[ext]);
    });
  }
  test('a PNG is a PNG, with its size', () => {
    const format = sniffMediaFormat(aPng(7, 3));
    assert.equal(format?.ext, 'png');
    assert.deepEqual(imageSize(aPng(7, 3), format!), { width: 7, height: 3 });
  });
  test('a GIF has its size', () => {
    assert.deepEqual(imageSize(aSample('gif'), sniffMediaFormat(aSample('gif'))!), { width: 32, height: 24 });
  });
  test('a WebP and a WAV both start with RIFF but are told apart', () => {
    assert.equal(sniffMediaFormat(aSample('webp'))?.ext, 'webp');
    assert.equal(sniffMediaFormat(aSample('wav'))?.ext, 'wav');
  });
  test('SVG, HTML, text, empty and random bytes are none of ours, and say why', () => {
    for (const bytes of [Buffer.from(HOSTILE_SVG), Buffer.from('<!doctype html><script>x</script>'), Buffer.from('hello'), Buffer.alloc(0), Buffer.from([0, 1, 2, 3, 4, 5, 6, 7])]) {
      assert.equal(sniffMediaFormat(bytes), undefined, bytes.toString());
    }
    assert.match(describeUnknownBytes(Buffer.from(HOSTILE_SVG)), /SVG/);
    assert.match(describeUnknownBytes(Buffer.from(`<?xml version="1.0"?>\n${HOSTILE_SVG}`)), /SVG/);
    assert.match(describeUnknownBytes(Buffer.from('  <html>')), /markup/);
    assert.match(describeUnknownBytes(Buffer.from([0xde, 0xad, 0xbe, 0xef])), /starts with de ad be ef/);
  });
  test('AAC (ADTS) is not taken for MP3, nor a Matroska file that is not WebM for WebM', () => {
    assert.equal(sniffMediaFormat(Buffer.from([0xff, 0xf1, 0x50, 0x80])), undefined);
    const mkv = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88]), Buffer.from('matroska'), Buffer.alloc(40)]);
    assert.equal(sniffMediaFormat(mkv), undefined);
  });
});

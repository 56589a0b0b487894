// The grid export's tEXt chunk (src/core/grid/pngText.ts) on a real PNG built by hand: inserted right after IHDR
// with a CRC the reader checks, read back, the size from IHDR.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { addPngText, latin1Json, pngSize, readPngText } from '../../../src/core/grid/pngText';

/** A real 3 x 2 grey PNG, built by hand (signature, IHDR, IDAT, IEND). */
function tinyPng(): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer): number => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(3, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const raw = Buffer.from([0, 1, 2, 3, 0, 4, 5, 6]);
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

describe('PNG tEXt', () => {
  test('a chunk added after IHDR reads back; the size is IHDR\'s', () => {
    const png = addPngText(tinyPng(), 'sweep', latin1Json({ sweep: { seed: [1, 2], prompt: ['café ☕'] } }));
    assert.deepEqual(pngSize(png), { width: 3, height: 2 });
    const chunks = readPngText(png);
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]!.keyword, 'sweep');
    assert.deepEqual(JSON.parse(chunks[0]!.text), { sweep: { seed: [1, 2], prompt: ['café ☕'] } });
    assert.equal(String.fromCharCode(...png.subarray(37, 41)), 'tEXt', 'right after IHDR');
  });

  test('a broken CRC is not read; a non-PNG is refused', () => {
    const png = addPngText(tinyPng(), 'sweep', 'x');
    png[33 + 8 + 6] ^= 1;
    assert.deepEqual(readPngText(png), []);
    assert.throws(() => addPngText(new Uint8Array(40), 'sweep', 'x'), /not a PNG/);
    assert.throws(() => addPngText(tinyPng(), 'sweep', '☕'), /Latin-1/);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { crc32, drawImage } from '../../../src/emulator/demo/png';
import { synthesizeWav, WAV_SAMPLE_RATE } from '../../../src/emulator/demo/wav';

/** A minimal PNG reader: chunks with their CRCs checked, IHDR, and the inflated scanlines. */
function readPng(buf: Buffer): { width: number; height: number; colourType: number; rows: Buffer } {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'signature');
  let p = 8;
  let ihdr: Buffer | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (p < buf.length) {
    const len = buf.readUInt32BE(p);
    const type = buf.toString('latin1', p + 4, p + 8);
    const data = buf.subarray(p + 8, p + 8 + len);
    assert.equal(buf.readUInt32BE(p + 8 + len), crc32(buf.subarray(p + 4, p + 8 + len)), `CRC of ${type}`);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    if (type === 'IEND') ended = true;
    p += 12 + len;
  }
  assert.ok(ihdr && ended, 'IHDR and IEND present');
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), colourType: ihdr[9]!, rows: inflateSync(Buffer.concat(idat)) };
}

test('crc32 is the CRC-32 of ISO 3309 (check value of "123456789")', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
});

test('drawImage writes a PNG that decodes to the requested size, with valid CRCs and scanlines', () => {
  for (const [w, h] of [[1, 1], [37, 5], [64, 64]] as const) {
    const png = readPng(drawImage('a cat', 7, w, h));
    assert.equal(png.width, w);
    assert.equal(png.height, h);
    assert.equal(png.colourType, 2);
    assert.equal(png.rows.length, h * (1 + w * 3));
    for (let y = 0; y < h; y++) assert.equal(png.rows[y * (1 + w * 3)], 0, 'filter byte');
  }
});

test('the same prompt and seed give the same bytes; another seed another picture', () => {
  assert.deepEqual(drawImage('x', 1, 32, 32), drawImage('x', 1, 32, 32));
  assert.notDeepEqual(drawImage('x', 1, 32, 32), drawImage('x', 2, 32, 32));
  assert.notDeepEqual(drawImage('x', 1, 32, 32), drawImage('y', 1, 32, 32));
});

test('synthesizeWav writes a PCM WAV whose header matches its data', () => {
  const wav = synthesizeWav('hello', 0.5);
  assert.equal(wav.toString('latin1', 0, 4), 'RIFF');
  assert.equal(wav.readUInt32LE(4), wav.length - 8);
  assert.equal(wav.toString('latin1', 8, 16), 'WAVEfmt ');
  assert.equal(wav.readUInt16LE(20), 1);
  assert.equal(wav.readUInt32LE(24), WAV_SAMPLE_RATE);
  assert.equal(wav.readUInt32LE(40), wav.length - 44);
  assert.equal(wav.length - 44, Math.round(WAV_SAMPLE_RATE * 0.5) * 2);
  assert.ok(wav.subarray(44).some((b) => b !== 0), 'not silence');
  assert.deepEqual(wav, synthesizeWav('hello', 0.5));
});

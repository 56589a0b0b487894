// A real PNG writer (RGB, 8 bits per channel, filter 0, zlib from node) and the deterministic picture an
// `image` endpoint draws from its prompt and seed (issue 3 "Outputs": a real, decodable PNG of the requested
// size). The picture only has to be recognisably different per prompt and seed: a gradient with rings.
import { deflateSync } from 'node:zlib';
import { hashString, mixSeed, seededRandom } from '../prng';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// CRC-32 (ISO 3309, the one PNG chunks carry), table-driven; node's zlib.crc32 only exists from Node 20.15.
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(buf: Uint8Array, crc = 0): number {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Encodes `rows`, which already holds each scanline as a filter byte (0) followed by width x 3 RGB bytes,
 * as a PNG file.
 */
export function encodePng(width: number, height: number, rows: Buffer): Buffer {
  if (rows.length !== height * (1 + width * 3)) throw new RangeError('scanline buffer does not match width x height');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering (every row uses filter 0)
  ihdr[12] = 0; // no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows, { level: 6 })), chunk('IEND', Buffer.alloc(0))]);
}

/** The picture for (prompt, seed): the same inputs always give the same bytes. */
export function drawImage(prompt: string, seed: number, width: number, height: number): Buffer {
  const rnd = seededRandom(mixSeed(hashString(prompt), seed));
  const colour = (): [number, number, number] => [rnd() * 255, rnd() * 255, rnd() * 255];
  const [a, b, c] = [colour(), colour(), colour()];
  const angle = rnd() * Math.PI * 2;
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const cx = rnd() * width;
  const cy = rnd() * height;
  const period = (0.02 + rnd() * 0.08) * Math.max(width, height);
  const span = Math.abs(dx) * width + Math.abs(dy) * height || 1;
  const offset = Math.min(0, dx * width) + Math.min(0, dy * height);
  const stride = 1 + width * 3;
  const rows = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    let p = y * stride + 1; // byte 0 of the row stays 0: filter type None
    for (let x = 0; x < width; x++) {
      const t = (dx * x + dy * y - offset) / span;
      const ring = 0.5 + 0.5 * Math.sin(Math.hypot(x - cx, y - cy) / period * Math.PI);
      const m = 0.35 * ring;
      rows[p++] = ((a[0] * (1 - t) + b[0] * t) * (1 - m) + c[0] * m) | 0;
      rows[p++] = ((a[1] * (1 - t) + b[1] * t) * (1 - m) + c[1] * m) | 0;
      rows[p++] = ((a[2] * (1 - t) + b[2] * t) * (1 - m) + c[2] * m) | 0;
    }
  }
  return encodePng(width, height, rows);
}

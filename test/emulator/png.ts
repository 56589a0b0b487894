// A strict PNG reader for the tests, written from the PNG spec (RFC 2083) and not shared with the emulator: it
// checks the signature, every chunk's CRC, the IHDR fields, and that the IDAT stream inflates to exactly the
// bytes the declared size needs. An image that passes here opens in any viewer.
import { crc32, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Samples per pixel for each PNG colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** The filtered scanlines, as inflated from IDAT. */
  raw: Buffer;
}

/** node 20.15+ has zlib.crc32; older nodes fall back to a table. */
function crc(buf: Buffer): number {
  if (typeof crc32 === 'function') return crc32(buf) >>> 0;
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

export function decodePng(buf: Buffer): DecodedPng {
  if (!buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG: bad signature');
  let offset = 8;
  let ihdr: Buffer | undefined;
  const idat: Buffer[] = [];
  let sawEnd = false;
  while (offset < buf.length) {
    if (offset + 12 > buf.length) throw new Error(`truncated chunk header at ${offset}`);
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > buf.length) throw new Error(`chunk ${type} runs past the end of the file`);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    const expected = buf.readUInt32BE(offset + 8 + length);
    const actual = crc(buf.subarray(offset + 4, offset + 8 + length));
    if (expected !== actual) throw new Error(`chunk ${type}: CRC ${expected.toString(16)} != ${actual.toString(16)}`);
    if (type === 'IHDR') ihdr = Buffer.from(data);
    else if (type === 'IDAT') idat.push(Buffer.from(data));
    else if (type === 'IEND') { sawEnd = true; offset = end; break; }
    offset = end;
  }
  if (!ihdr || ihdr.length !== 13) throw new Error('missing or malformed IHDR');
  if (!sawEnd) throw new Error('missing IEND');
  if (offset !== buf.length) throw new Error('bytes after IEND');
  if (idat.length === 0) throw new Error('no IDAT');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const bitDepth = ihdr[8]!;
  const colorType = ihdr[9]!;
  const channels = CHANNELS[colorType];
  if (channels === undefined) throw new Error(`unknown colour type ${colorType}`);
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = 1 + Math.ceil((width * channels * bitDepth) / 8);
  if (raw.length !== rowBytes * height) throw new Error(`IDAT inflates to ${raw.length} bytes, ${width}x${height} needs ${rowBytes * height}`);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * rowBytes]!;
    if (filter > 4) throw new Error(`row ${y}: unknown filter ${filter}`);
  }
  return { width, height, bitDepth, colorType, raw };
}

/** The PNG inside a `data:image/png;base64,` URI. */
export function pngFromDataUri(uri: string): Buffer {
  const prefix = 'data:image/png;base64,';
  if (!uri.startsWith(prefix)) throw new Error(`not a PNG data URI: ${uri.slice(0, 40)}`);
  const b64 = uri.slice(prefix.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new Error('payload is not base64');
  return Buffer.from(b64, 'base64');
}

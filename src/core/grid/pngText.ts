// A PNG's tEXt chunks (PNG spec 11.3.4.3): the grid's export writes the sweep that made the picture into the file,
// so the picture says how it was made. Only the chunk list is touched (no pixel is decoded): the new chunk goes
// right after IHDR, the rest is copied as it is. tEXt is Latin-1: characters beyond it are written as JSON's
// `\uXXXX` escapes by the caller's JSON (see `latin1Json`). Plain bytes, no `vscode` or Node import.

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 33 && SIGNATURE.every((b, i) => bytes[i] === b) && String.fromCharCode(...bytes.subarray(12, 16)) === 'IHDR';
}

/** Width and height from IHDR. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (!isPng(bytes)) throw new Error('not a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** JSON text with every character beyond Latin-1 escaped, so it fits a tEXt chunk and still parses to the same value. */
export function latin1Json(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x00-\xff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `png` with a tEXt chunk `keyword` = `text` after IHDR. */
export function addPngText(png: Uint8Array, keyword: string, text: string): Uint8Array {
  if (!isPng(png)) throw new Error('not a PNG');
  if (!/^[\x20-\x7e\xa1-\xff]{1,79}$/.test(keyword)) throw new Error('a tEXt keyword is 1 to 79 Latin-1 characters');
  if (/[^\x00-\xff]/.test(text)) throw new Error('tEXt holds Latin-1 text only');
  const data = new Uint8Array(keyword.length + 1 + text.length);
  for (let i = 0; i < keyword.length; i++) data[i] = keyword.charCodeAt(i);
  for (let i = 0; i < text.length; i++) data[keyword.length + 1 + i] = text.charCodeAt(i);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set([0x74, 0x45, 0x58, 0x74], 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  // IHDR is always the first chunk, 13 bytes of data: signature (8) + length, type, data, crc (25) = 33.
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, 33), 0);
  out.set(chunk, 33);
  out.set(png.subarray(33), 33 + chunk.length);
  return out;
}

/** Every tEXt chunk of `png`, in order (a chunk with a bad CRC is skipped). */
export function readPngText(png: Uint8Array): { keyword: string; text: string }[] {
  if (!isPng(png)) throw new Error('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: { keyword: string; text: string }[] = [];
  for (let at = 8; at + 12 <= png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (at + 12 + length > png.length) break;
    if (type === 'tEXt' && view.getUint32(at + 8 + length) === crc32(png.subarray(at + 4, at + 8 + length))) {
      const data = png.subarray(at + 8, at + 8 + length);
      const zero = data.indexOf(0);
      const latin = (b: Uint8Array): string => Array.from(b, (c) => String.fromCharCode(c)).join('');
      if (zero > 0) out.push({ keyword: latin(data.subarray(0, zero)), text: latin(data.subarray(zero + 1)) });
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return out;
}

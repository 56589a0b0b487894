// Big text files (job.json, which holds a job's whole output: base64 images too) written and read without a
// Buffer of the whole file. fs.writeFile(path, string) first makes one Buffer of it all and fs.readFile one
// more; for a job of four 2048x2048 images each was 6 MB of the extension host's peak (issue 11).
import { open } from 'node:fs/promises';

/** Characters written per call; a slice never ends inside a surrogate pair. */
const WRITE_SLICE_CHARS = 1 << 20;
/** The one buffer a read reuses. */
const READ_CHUNK_BYTES = 256 * 1024;

/**
 * Writes `text` as UTF-8, one slice of the string at a time (a string written to a file handle is encoded
 * by Node itself, not into a Buffer the size of the whole string).
 */
export async function writeTextFile(path: string, text: string): Promise<void> {
  const file = await open(path, 'w');
  try {
    for (let start = 0; start < text.length;) {
      let end = Math.min(text.length, start + WRITE_SLICE_CHARS);
      // A high surrogate at the end would be encoded alone (as U+FFFD): keep it with its pair.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
      const slice = text.slice(start, end);
      const { bytesWritten } = await file.write(slice, null, 'utf8');
      const expected = Buffer.byteLength(slice, 'utf8');
      // A short write is rare for a file but allowed: the rest goes out as bytes.
      if (bytesWritten < expected) {
        const rest = Buffer.from(slice, 'utf8');
        for (let offset = bytesWritten; offset < rest.length;) {
          offset += (await file.write(rest, offset, rest.length - offset, null)).bytesWritten;
        }
      }
      start = end;
    }
  } finally {
    await file.close();
  }
}

/** A UTF-8 file's text (BOM dropped, bad bytes replaced, as TextDecoder does), read through one small reused buffer. */
export async function readTextFile(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = new Uint8Array(READ_CHUNK_BYTES);
    const decoder = new TextDecoder();
    const pieces: string[] = [];
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      pieces.push(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }));
    }
    pieces.push(decoder.decode());
    return pieces.join('');
  } finally {
    await file.close();
  }
}

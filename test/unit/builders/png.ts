// Builds real, decodable PNG files of a given size (for output parsing and saving tests), and data URIs of them.
// The bytes come from the emulator's PNG writer (src/emulator/demo/png.ts, itself checked against a strict reader
// in test/unit/emulator/png.test.ts), so there is one PNG encoder in the repository, not two.
import { encodePng } from '../../../src/emulator/demo/png';

/** A grey RGB PNG of width x height. */
export function aPng(width = 2, height = 1): Buffer {
  const stride = 1 + width * 3;
  const rows = Buffer.alloc(stride * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * stride] = 0; // filter: none
  return encodePng(width, height, rows);
}

export function aPngDataUri(width = 2, height = 1): string {
  return `data:image/png;base64,${aPng(width, height).toString('base64')}`;
}

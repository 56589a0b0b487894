// Which saved file is a batch row's thumbnail: the first of its outputs that is an image the page may show
// (PNG, JPEG, WebP, GIF), and only one inside the batch's folder, the Batch panel's one extra resource root.
// The saver names each file by the format its bytes were sniffed as (src/core/outputs/mediaFormat.ts), so the
// extension is the sniffed format, not a worker's word. Plain paths here; the panel turns the file into a URI.
import * as path from 'node:path';
import { MEDIA_FORMATS } from '../core/outputs/mediaFormat';

const IMAGE_EXTENSIONS = new Set(MEDIA_FORMATS.filter((f) => f.kind === 'image').map((f) => `.${f.ext}`));

/** The row's first saved image under `dir`, or undefined (a text job, nothing saved yet, a file elsewhere). */
export function thumbnailFile(outputs: readonly string[] | undefined, dir: string): string | undefined {
  for (const file of outputs ?? []) {
    if (!IMAGE_EXTENSIONS.has(path.extname(file).toLowerCase())) continue;
    const rel = path.relative(dir, file);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return file;
  }
  return undefined;
}

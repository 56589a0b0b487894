// Writing a grid to share (issue 31 "Export"): the PNG the page drew in its canvas, with a tEXt chunk that says how
// it was made (the sweep, the axes), and an HTML page beside the images for grids too big for one picture. Both go
// into the batch's folder. The host decodes nothing: it checks the PNG's signature, reads its size from IHDR and
// inserts one chunk (src/core/grid/pngText.ts).
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { JobRow } from '../core/batch';
import { arrangeGrid, shortLabel, valueLabel, type GridKey, type GridValues } from '../core/grid/gridAxes';
import { addPngText, isPng, latin1Json, pngSize } from '../core/grid/pngText';
import { cellMedia, cellStatus } from '../core/grid/gridCell';
import { CELL_PX, MAX_PNG_SIDE, type CELL_SIZES } from './gridProtocol';

/** The tEXt keyword of the recipe. */
export const PNG_TEXT_KEYWORD = 'sweep';

/** A file name of the axes: `grid-seed-by-width.png`. */
export function exportName(x: string, y: string | undefined, z: string | undefined, zValue: string | null | undefined, ext: string): string {
  const safe = (s: string): string => s.replace(/[^\w.-]+/g, '_').slice(0, 60);
  const page = z ? `-${safe(z)}=${safe(zValue === null || zValue === undefined ? 'none' : valueLabel(zValue))}` : '';
  return `grid-${safe(x)}${y ? `-by-${safe(y)}` : ''}${page}.${ext}`;
}

export async function writeGridPng(dir: string, name: string, png: Uint8Array, recipe: Record<string, unknown>): Promise<{ file: string; width: number; height: number }> {
  if (!isPng(png)) throw new Error('The page did not hand over a PNG.');
  const { width, height } = pngSize(png);
  if (width > MAX_PNG_SIDE || height > MAX_PNG_SIDE) throw new Error(`The picture is ${width} x ${height}: over ${MAX_PNG_SIDE} px a side.`);
  const file = path.join(dir, name);
  await writeFile(file, addPngText(png, PNG_TEXT_KEYWORD, latin1Json(recipe)));
  return { file, width, height };
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The grid as a page beside the batch's files: every value and status escaped, images by their path relative to
 * the page (files inside the batch's folder only), one table per value of the third key.
 */
export function gridHtml(o: { title: string; dir: string; keys: readonly GridKey[]; jobs: readonly { row: JobRow; values: GridValues }[]; x: string; y?: string | undefined; z?: string | undefined; size: (typeof CELL_SIZES)[number]; recipe: Record<string, unknown> }): string {
  const px = CELL_PX[o.size];
  const rows = new Map(o.jobs.map((j) => [j.row.index, j.row]));
  const zKey = o.keys.find((k) => k.key === o.z);
  const pages: (string | undefined)[] = zKey ? [...zKey.values] : [undefined];
  const tables = pages.map((zValue) => {
    const layout = arrangeGrid(o.jobs.map((j) => ({ index: j.row.index, values: j.values })), o.keys, o.x, o.y, o.z ? { key: o.z, value: zValue } : undefined);
    const head = `<tr><th>${escapeHtml(o.y ? `${o.y} \\ ${o.x}` : o.x)}</th>${layout.xs.map((v) => `<th title="${escapeHtml(valueLabel(v))}">${escapeHtml(shortLabel(valueLabel(v)))}</th>`).join('')}</tr>`;
    const body = layout.ys.map((yv, yi) => {
      const cells = layout.xs.map((_, xi) => {
        const indices = layout.cells.get(`${xi},${yi}`) ?? [];
        const inner = indices.map((index) => {
          const row = rows.get(index)!;
          const media = cellMedia(row.outputs, o.dir, path.sep);
          const status = cellStatus(row);
          if (media?.kind === 'image') return `<img src="${escapeHtml(path.relative(o.dir, media.file).split(path.sep).join('/'))}" width="${px}" alt="job ${index + 1}">`;
          if (media) return `<${media.kind} controls src="${escapeHtml(path.relative(o.dir, media.file).split(path.sep).join('/'))}"></${media.kind}>`;
          return `<div class="status">${escapeHtml(status.text)}</div>`;
        });
        return `<td>${inner.join('')}${indices.length > 1 ? `<div class="count">${indices.length} jobs</div>` : ''}</td>`;
      });
      return `<tr><th title="${escapeHtml(valueLabel(yv))}">${escapeHtml(o.y ? shortLabel(valueLabel(yv)) : '')}</th>${cells.join('')}</tr>`;
    });
    const caption = o.z ? `<h2>${escapeHtml(`${o.z} = ${valueLabel(zValue)}`)}</h2>` : '';
    return `${caption}<table>${head}${body.join('')}</table>`;
  });
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'">
<title>${escapeHtml(o.title)}</title>
<style>body{font-family:sans-serif}td,th{border:1px solid #8884;padding:4px;vertical-align:top;max-width:${px}px}img{display:block;max-height:${px}px;object-fit:contain}.count{font-size:12px}</style>
<meta name="sweep" content="${escapeHtml(JSON.stringify(o.recipe))}">
</head><body><h1>${escapeHtml(o.title)}</h1>${tables.join('\n')}</body></html>
`;
}

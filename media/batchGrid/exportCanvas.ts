// The grid as one picture (issue 31 "Export"), drawn in the page's canvas: the axes' names and values as labels,
// each cell's image at the chosen size (scaled to fit, so a huge image is drawn small), a status in words where a
// job has no image. Images come from the same webview URIs the cells use (served with CORS, so the canvas stays
// exportable). Returns the PNG's bytes, or a sentence when the grid is over the size limit.
import { shortLabel, valueLabel, type GridLayout } from '../../src/core/grid/gridAxes';
import type { GridJobView } from '../../src/batchGrid/gridProtocol';

export interface PngGrid {
  layout: GridLayout;
  jobs: (index: number) => GridJobView;
  px: number;
  x: string;
  y: string | undefined;
  rowHead: number;
  caption: number;
  maxSide: number;
}

const HEAD = 28;
/** Images loading at once while drawing. */
const PARALLEL = 8;

function loadImage(uri: string): Promise<HTMLImageElement | undefined> {
  return new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => resolve(img);
    img.onerror = () => resolve(undefined);
    img.src = uri;
  });
}

function fitText(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  let t = text;
  while (t.length > 1 && ctx.measureText(t).width > max) t = `${t.slice(0, -2)}…`;
  return t;
}

export async function drawGridPng(g: PngGrid): Promise<Uint8Array | string> {
  const left = g.y ? g.rowHead : 0;
  const h = g.px + g.caption;
  const width = left + g.layout.xs.length * g.px;
  const height = HEAD * 2 + g.layout.ys.length * h;
  if (width > g.maxSide || height > g.maxSide) return `The grid would be ${width} x ${height} px, over ${g.maxSide} px a side: use Export HTML (a page beside the images), or a smaller size.`;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return 'This page cannot draw in a canvas.';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  ctx.font = 'bold 14px sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillText(fitText(ctx, g.x, width - left - 8), left + 4, HEAD / 2);
  if (g.y) ctx.fillText(fitText(ctx, g.y, left - 8), 4, HEAD + HEAD / 2);
  ctx.font = '12px sans-serif';
  g.layout.xs.forEach((v, i) => ctx.fillText(fitText(ctx, shortLabel(valueLabel(v)), g.px - 8), left + i * g.px + 4, HEAD + HEAD / 2));
  if (g.y) g.layout.ys.forEach((v, i) => ctx.fillText(fitText(ctx, shortLabel(valueLabel(v)), left - 8), 4, HEAD * 2 + i * h + g.px / 2));

  const tasks: (() => Promise<void>)[] = [];
  for (const [id, indices] of g.layout.cells) {
    const [xi, yi] = id.split(',').map(Number) as [number, number];
    const job = g.jobs(indices[0]!);
    const x0 = left + xi * g.px;
    const y0 = HEAD * 2 + yi * h;
    const label = (words: string): void => {
      ctx.fillStyle = '#000000';
      ctx.fillText(fitText(ctx, words, g.px - 8), x0 + 4, y0 + g.px + g.caption / 2);
    };
    if (indices.length > 1) label(`${indices.length} jobs`);
    if (job.media?.kind === 'image' && !job.missing) {
      const uri = job.media.uri;
      tasks.push(async () => {
        const img = await loadImage(uri);
        if (!img) return label('image could not be read');
        const scale = Math.min(g.px / img.naturalWidth, g.px / img.naturalHeight);
        const w = img.naturalWidth * scale;
        const hh = img.naturalHeight * scale;
        ctx.drawImage(img, x0 + (g.px - w) / 2, y0 + (g.px - hh) / 2, w, hh);
      });
    } else {
      label(job.missing ? 'output file missing' : job.done ? (job.text ?? job.media?.kind ?? '') : job.status);
    }
  }
  let next = 0;
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    while (next < tasks.length) await tasks[next++]!();
  }));
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) return 'The canvas gave no picture.';
  return new Uint8Array(await blob.arrayBuffer());
}

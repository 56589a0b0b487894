// Issue 31's grid figures (`npm run bench -- --only grid`): a 900-job grid opened and scrolled in a real VS Code.
// Runs the editor suite `batch grid @grid-bench` (test/editor/batchGrid.bench.test.ts) through
// test/editor-host/run.mjs with SERVERLESS_GPU_BENCH_OUT set, and reports what it wrote there:
// - grid.open900: ms from the Batch panel's Grid button (the click's own time, on the page's clock) to the first
//   cells painted, everything the user waits through included (the page's switch, the host reading the manifest,
//   the grid's message, the drawing): the grid is drawn in the Batch panel's page, no new webview;
//   grid.open900.images: until every image of the first screen is decoded and painted;
//   grid.open900.firstWebview: by the command Show Batch as Grid with no panel open, so the Batch panel's webview
//   is made too (the window's first webview), and grid.open900.frameWait the part of it the browser spent starting
//   that frame before it fetched the page;
// - grid.scrollFrameMax: the page's longest frame while it scrolled page by page to the end and back, as its own
//   PerformanceObserver reported it (long-animation-frame entries: only frames over 50 ms are reported, so 0 means
//   none was); grid.scrollGapMax: the longest gap between two animation frames meanwhile (the page's rAF, finer);
//   grid.scrollImgMax: the most img elements the page held meanwhile.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context';
import { EDITOR_HOST, ensure } from './needs';

function runSuite(root: string, outFile: string, log: (line: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'test/editor-host/run.mjs'), '--grep', '@grid-bench'], { cwd: root, env: { ...process.env, SERVERLESS_GPU_BENCH_OUT: outFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (chunk: Buffer): void => {
      for (const line of chunk.toString().split('\n')) if (line.includes('grid bench') || line.includes('passed') || line.includes('✗')) log(`editor: ${line.trim()}`);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

export default async function gridBench(ctx: BenchContext): Promise<void> {
  await ensure(EDITOR_HOST, ctx.root, ctx.log);
  const dir = mkdtempSync(join(tmpdir(), 'serverless-gpu-bench-grid-'));
  try {
    const outFile = join(dir, 'figures');
    const code = await runSuite(ctx.root, outFile, ctx.log);
    if (code !== 0) throw new Error(`the editor run failed (exit ${code})`);
    const file = `${outFile}.grid.json`;
    if (!existsSync(file)) throw new Error(`the grid suite wrote no figures to ${file}`);
    const g = JSON.parse(readFileSync(file, 'utf8')) as {
      openMs: number; openImagesMs: number; openFrameWaitMs: number; openFirstWebviewMs: number; steps: Record<string, number>; coldSteps: Record<string, number>;
      scrollFrameMaxMs: number; scrollGapMaxMs: number; maxImgElements: number; observed: string;
    };
    ctx.log(`grid: first cells painted ${g.openMs} ms after the Grid button's click, its images ${g.openImagesMs} ms; by the command with no panel open (the window's first webview) ${g.openFirstWebviewMs} ms, ${g.openFrameWaitMs} ms of it the frame's start`);
    ctx.log(`grid: steps from the Grid button ${JSON.stringify(g.steps)}; by the command ${JSON.stringify(g.coldSteps)}`);
    ctx.log(`grid: longest frame while scrolling ${g.scrollFrameMaxMs} ms (${g.observed}), longest gap between frames ${g.scrollGapMaxMs} ms; at most ${g.maxImgElements} img elements`);
    ctx.report('grid.open900', g.openMs, 'ms');
    ctx.report('grid.open900.frameWait', g.openFrameWaitMs, 'ms');
    ctx.report('grid.open900.images', g.openImagesMs, 'ms');
    ctx.report('grid.open900.firstWebview', g.openFirstWebviewMs, 'ms');
    ctx.report('grid.scrollFrameMax', g.scrollFrameMaxMs, 'ms');
    ctx.report('grid.scrollGapMax', g.scrollGapMaxMs, 'ms');
    ctx.report('grid.scrollImgMax', g.maxImgElements, 'img');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

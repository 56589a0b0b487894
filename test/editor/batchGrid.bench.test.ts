// Issue 31's `grid.open900` and `grid.scrollFrameMax`, measured in the real editor: a finished 30 x 30 sweep's grid
// opened (from the command to the page's first drawn cells, by the clock the page and the extension host share),
// then scrolled page by page to its end and back while the page's own PerformanceObserver reports its longest frame.
// A measurement, not a check: it runs only when SERVERLESS_GPU_BENCH_OUT is set (`--grep @grid-bench`, run by
// test/bench/grid.bench.ts), and writes its figures to `<that path>.grid.json`.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { GridPanel } from '../../src/batchGrid/gridPanel';
import { click, count, press, textContent, waitForSelector } from './support/driver';
import { activateExtension, eventually } from './support/extension';
import { benchOutputOrSkip } from './support/benchOutput';
import { write900Grid, type GridPagePerf } from './support/gridFixture';

const inWebview = { inWebview: true } as const;

suite('batch grid @grid-bench', () => {
  let outPath: string;
  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this, '.grid.json');
    await activateExtension();
  });

  test('a 900-job grid: opening and scrolling', async function () {
    this.timeout(180_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const manifest = write900Grid();
    const t0 = Date.now();
    const panel = await vscode.commands.executeCommand<GridPanel>('serverlessGpu.showBatchGrid', manifest);
    await waitForSelector('#cells .cell img', inWebview);
    const opened = JSON.parse(await textContent('#perf', inWebview)) as GridPagePerf;
    await eventually(() => panel.sent.size === 900 || undefined, 'the 900 jobs');
    await click('#title', inWebview);
    let maxImgs = 0;
    // Down page by page to the last row, right to the last column, and back up: each step draws new cells whose
    // images load and decode as they come into view.
    for (const key of [...Array(12).fill('PageDown'), ...Array(8).fill('ArrowRight'), ...Array(12).fill('PageUp')]) {
      await press(key);
      maxImgs = Math.max(maxImgs, await count('img', inWebview));
    }
    await press('End');
    await waitForSelector('#cells .cell[data-cell="29,29"] img', inWebview);
    // The frame watch ends half a second after the last scroll, and then writes #perf.
    await eventually(async () => (JSON.parse(await textContent('#perf', inWebview)) as GridPagePerf).scrollGapMax > 0 || undefined, 'the frame watch to report');
    const after = JSON.parse(await textContent('#perf', inWebview)) as GridPagePerf;
    const figures = {
      openMs: opened.firstDrawAt - t0,
      frameWaitMs: opened.frameWait,
      scrollFrameMaxMs: after.longestFrame,
      scrollGapMaxMs: after.scrollGapMax,
      observed: after.observed,
      maxImgElements: maxImgs,
    };
    console.log(`grid bench: ${JSON.stringify(figures)}`);
    fs.writeFileSync(outPath, JSON.stringify(figures));
  });
});

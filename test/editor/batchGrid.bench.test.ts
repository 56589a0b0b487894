// Issue 31's `grid.open900` and `grid.scrollFrameMax`, measured in the real editor. "Opens" is what the user waits
// through: from the command to the first cells painted on screen, everything included (loading the room, the editor
// making the webview's frame, the page, the data, the drawing). Measured twice on a finished 30 x 30 sweep:
// - as the first webview of a fresh window (the command palette right after the window opened);
// - after another webview was shown, as when the Batch panel's Grid button opens it (the editor then takes up to
//   ~1 s more to start the new frame on this shared machine): the figure `grid.open900` reports.
// Then the grid is scrolled page by page to its end and back while the page's own PerformanceObserver reports its
// longest frame. A measurement, not a check: it runs only when SERVERLESS_GPU_BENCH_OUT is set (`--grep
// @grid-bench`, run by test/bench/grid.bench.ts), and writes its figures to `<that path>.grid.json`.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { GridPanel } from '../../src/batchGrid/gridPanel';
import { click, count, press, textContent, waitForSelector } from './support/driver';
import { activateExtension, eventually } from './support/extension';
import { benchOutputOrSkip } from './support/benchOutput';
import { write900Grid, type GridPagePerf } from './support/gridFixture';

const inWebview = { inWebview: true } as const;

const pagePerf = async (): Promise<GridPagePerf> => JSON.parse(await textContent('#perf', inWebview)) as GridPagePerf;

/** Opens a fresh 900-job grid and times it: each step from the command (t0), on the clock the page and host share. */
async function openTimed(): Promise<{ panel: GridPanel; steps: Record<string, number> }> {
  const manifest = write900Grid();
  const t0 = Date.now();
  const panel = await vscode.commands.executeCommand<GridPanel>('serverlessGpu.showBatchGrid', manifest);
  await waitForSelector('#cells .cell', inWebview);
  const p = await eventually(async () => {
    const perf = await pagePerf();
    return perf.firstPaintAt !== undefined && perf.imagesAt !== undefined ? perf : undefined;
  }, 'the first screen painted with its images');
  const at = (t: number | undefined): number => (t === undefined ? -1 : t - t0);
  const steps = {
    // The figure: the first cells painted.
    paint: at(p.firstPaintAt),
    // Every image of the first screen decoded and painted.
    images: at(p.imagesAt),
    imagesCount: p.images ?? 0,
    // Where the time went: the panel made (the room loaded), the page's document begun (the editor's frame
    // start, frameWait of it before the page was even fetched), its script run, the host's ready and post,
    // the grid's message handled, the cells drawn.
    panelMade: at(panel.timings.created),
    pageOrigin: at(p.origin),
    frameWait: p.frameWait,
    script: at(p.origin + p.script),
    ready: at(panel.timings.ready),
    posted: at(panel.timings.posted),
    message: at(p.message === undefined ? undefined : p.origin + p.message),
    drawn: at(p.firstDrawAt),
  };
  console.log(`grid bench: open ${JSON.stringify(steps)}`);
  return { panel, steps };
}

/**
 * A small grid shown and drawn. The editor of these tests (VS Code 1.100) now and then leaves a new webview blank
 * (its service worker never answers the page): such a one is closed and another tried, three times at most.
 */
async function showAnotherWebview(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const other = await vscode.commands.executeCommand<GridPanel>('serverlessGpu.showBatchGrid', write900Grid(2));
    try {
      await eventually(() => other.timings.posted, 'the other webview to be shown', 20_000);
      return;
    } catch (e) {
      other.panel.dispose();
      if (attempt === 3) throw e;
      console.log(`grid bench: the other webview stayed blank (attempt ${attempt}): tried again`);
    }
  }
}

suite('batch grid @grid-bench', () => {
  let outPath: string;
  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this, '.grid.json');
    await activateExtension();
  });

  test('a 900-job grid: opening and scrolling', async function () {
    this.timeout(240_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The first webview of the window.
    const cold = await openTimed();
    cold.panel.panel.dispose();
    // Another webview shown first, as the Batch panel is when its Grid button is clicked (the grid then takes its
    // place in the editor group).
    await showAnotherWebview();
    const { panel, steps } = await openTimed();
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
    await eventually(async () => (await pagePerf()).scrollGapMax > 0 || undefined, 'the frame watch to report');
    const after = await pagePerf();
    const figures = {
      openMs: steps.paint,
      openImagesMs: steps.images,
      openFrameWaitMs: steps.frameWait,
      openFirstWebviewMs: cold.steps.paint,
      openFirstWebviewImagesMs: cold.steps.images,
      steps,
      coldSteps: cold.steps,
      scrollFrameMaxMs: after.longestFrame,
      scrollGapMaxMs: after.scrollGapMax,
      observed: after.observed,
      maxImgElements: maxImgs,
    };
    console.log(`grid bench: ${JSON.stringify(figures)}`);
    fs.writeFileSync(outPath, JSON.stringify(figures));
  });
});

#!/usr/bin/env node
// Issue 31: a Batch panel showing its grid when the window reloads comes back, showing the same batch's grid with
// the same axes and size. In a real VS Code (code-server, through `npm start`), a finished 2 x 3 sweep written into
// the workspace's outputs folder is opened with **Serverless GPU: Show Batch as Grid** (its Batch panel, read-only,
// in Grid mode), its axes changed from the defaults (X seed instead of width, Y (none) instead of seed: the three
// widths of a seed stack in one cell) and its size set to small in the page, then **Developer: Reload Window** runs.
// In the new window the Batch panel must be back on its own (the webview serializer reopens it from the page's saved
// state), in Grid mode, with those axes, headers, cells and a loaded image. The editor suites cannot do this: they run inside the extension host a reload replaces.
//
// usage: node test/editor-host/reload-grid.mjs   (needs `node scripts/build.mjs` first; npm start builds too)
//   Prints `N passed, N failed` last; exit 1 on failure.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createChecks, launchChromium, runCommand, tearDown } from './scriptChecks.mjs';

const HOST_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HOST_DIR, '../..');
const ARTIFACTS = path.join(HOST_DIR, 'artifacts');
const SEEDS = [7, 8];
const WIDTHS = [48, 64, 80];
const { counts, check, summary } = createChecks();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, fn, timeoutMs = 60_000, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** `npm start`'s script, detached (its group is killed at the end); resolves with the editor's URL. */
function startEditor(workspace, env) {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--workspace', workspace], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let seen = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`start.mjs: no URL after 240 s:\n${seen.slice(-3000)}`)), 240_000);
    const onData = (d) => {
      seen += d;
      const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`start.mjs stopped (${code ?? signal}):\n${seen.slice(-3000)}`)));
  });
  return { child, url };
}

/** The webview frame of the Batch panel's page (the one holding its grid's X select), once it is there. */
async function gridFrame(page) {
  for (const frame of page.frames()) {
    if ((await frame.locator('#x').count().catch(() => 0)) > 0) return frame;
  }
  return undefined;
}

/**
 * What the grid page shows: its selects, headers, cells, and whether an image loaded, read in one step inside the
 * page. Read a field at a time (an await each), a grid message could land between the X select and the cells: a CI
 * run read X "" (before the page's grid message) beside cells drawn after it, though the page then showed X seed.
 */
async function gridShown(frame) {
  return frame.evaluate(() => {
    const value = (id) => document.getElementById(id)?.value ?? '';
    const texts = (selector) => [...document.querySelectorAll(selector)].map((e) => e.textContent ?? '');
    const img = document.querySelector('#cells .cell img');
    const view = document.getElementById('gridview');
    return {
      x: value('x'),
      y: value('y'),
      size: value('size'),
      columns: texts('#colinner .colhead'),
      rows: texts('#rowinner .rowhead'),
      cells: document.querySelectorAll('#cells .cell').length,
      imageLoaded: !!img && img.complete && img.naturalWidth > 0,
      title: document.getElementById('title')?.textContent ?? null,
      gridShown: !!view && !view.hidden && view.getClientRects().length > 0,
    };
  });
}

/** A finished sweep of seed x width under the workspace's outputs folder, each job with a real JPEG. */
function writeBatch(workspace) {
  const dir = path.join(workspace, '.serverless-outputs', 'batches', 'b-reload');
  const sample = path.join(REPO, 'test', 'fixtures', 'media', 'sample.jpg');
  const lines = [JSON.stringify({ type: 'batch', version: 1, batchId: 'b-reload', endpointId: 'gimg', service: 'http://127.0.0.1:1', createdAt: new Date().toISOString(), jobs: SEEDS.length * WIDTHS.length })];
  let index = 0;
  for (const seed of SEEDS) {
    for (const width of WIDTHS) {
      const out = path.join(dir, `job-${index}`, 'image-0.jpg');
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.copyFileSync(sample, out);
      lines.push(JSON.stringify({ type: 'job', index, ref: { file: 'sweep.input.json', sweep: { seed, width } }, digest: 'd', phase: 'ended', jobId: `j${index}`, status: 'COMPLETED', outputs: [out], at: Date.now() }));
      index++;
    }
  }
  fs.writeFileSync(path.join(dir, 'batch.jsonl'), lines.join('\n') + '\n');
}

const marker = `SERVERLESS_GPU_RELOAD_GRID_${randomBytes(6).toString('hex')}`;
const env = { ...process.env, [marker]: '1' };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'serverless-gpu-reload-grid-'));
const workspace = path.join(tmp, 'workspace');
fs.mkdirSync(workspace);
writeBatch(workspace);

const started = [];
let browser;
await check('a Batch panel showing its grid when the window reloads comes back in Grid mode with the same batch, axes and size', async () => {
  const editor = startEditor(workspace, env);
  started.push(editor.child);
  const url = await editor.url;
  browser = await launchChromium(chromium);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor();
  // The palette lists the extension's commands once its host has it (its status-bar item says so).
  await page.locator('.statusbar-item:has-text("Demo emulator (npm start)")').first().waitFor({ timeout: 90_000 });

  // The workspace holds one batch: the command opens its grid without asking which.
  await runCommand(page, 'Serverless GPU: Show Batch as Grid');
  let frame = await until('the grid page', () => gridFrame(page), 90_000);
  await until('the grid drawn with its default axes', async () => (await gridShown(frame)).cells === 6, 60_000);
  const defaults = await gridShown(frame);
  if (defaults.x !== 'width' || defaults.y !== 'seed') throw new Error(`the default axes were ${JSON.stringify(defaults)}, not X width and Y seed`);
  // The user's own choice: seed across, no Y (a choice the page must keep, not a default to fill), small cells.
  await frame.locator('#x').selectOption('seed');
  await frame.locator('#y').selectOption('');
  await frame.locator('#size').selectOption('small');
  const before = await until('the chosen axes drawn', async () => {
    const g = await gridShown(frame);
    return g.columns.join(' ') === SEEDS.join(' ') && g.rows.length === 0 && g.cells === SEEDS.length ? g : undefined;
  });
  console.log(`  before the reload: ${JSON.stringify(before)}`);

  await runCommand(page, 'Developer: Reload Window', () => page.waitForNavigation({ timeout: 60_000 }));
  const reloadedAt = Date.now();
  await page.locator('.monaco-workbench').waitFor();
  // Nothing is run: the panel must come back by itself.
  await page.locator('.tab:has-text("Batch: b-reload")').first().waitFor({ timeout: 90_000 });
  frame = await until('the grid page after the reload', () => gridFrame(page), 90_000);
  const after = await until('the restored grid drawn, an image loaded', async () => {
    const g = await gridShown(frame);
    return g.cells > 0 && g.imageLoaded ? g : undefined;
  }, 60_000);
  console.log(`  after the reload (${Date.now() - reloadedAt} ms): ${JSON.stringify(after)}`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'reload-grid.png') }).catch(() => {});
  const problems = [];
  for (const k of ['x', 'y', 'size', 'columns', 'rows', 'cells', 'title', 'gridShown']) {
    if (JSON.stringify(after[k]) !== JSON.stringify(before[k])) problems.push(`${k} was ${JSON.stringify(before[k])} before the reload, ${JSON.stringify(after[k])} after`);
  }
  if (!after.title?.includes('b-reload')) problems.push(`the title names another batch: ${after.title}`);
  if (problems.length) throw new Error(problems.join('; '));
}).catch(() => false);

await tearDown({ check, counts, browser, started, marker, artifacts: ARTIFACTS, name: 'reload-grid' });

fs.rmSync(tmp, { recursive: true, force: true });
console.log(summary());
process.exit(counts.failed ? 1 : 0);

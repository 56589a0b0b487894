#!/usr/bin/env node
// What a newcomer does, checked end to end (issue 6): `npm start`, open the printed URL in Chromium, open the
// Serverless GPU sidebar (already connected to npm start's emulator), open the demo's sdxl-turbo.input.json,
// run it, and see the image in the job panel. Then Ctrl-C, and nothing may be left running. Works on a copy of demo/ so the
// repository's demo folder gets no outputs. Prints `N passed, N failed` last, like the editor runner.
//
// usage: node test/editor-host/start-smoke.mjs     (UPDATE_SCREENSHOTS=1 also refreshes docs/images/overview.png)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createChecks, launchChromium, processesWith } from './scriptChecks.mjs';

const HOST_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HOST_DIR, '../..');
const ARTIFACTS = path.join(HOST_DIR, 'artifacts');
const TIMEOUT_MS = 60_000;
const { counts, check, summary } = createChecks();

/** Every process `npm start` started, however deep, as `pid cmdline` for a message. */
const startedBy = (marker) => processesWith(marker).map(([pid, cmd]) => `${pid} ${cmd.slice(0, 160)}`);

function refused(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const marker = `SERVERLESS_GPU_START_SMOKE_${randomBytes(6).toString('hex')}`;
const smokeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'serverless-gpu-start-smoke-'));
// Named demo/ like the real one: the window title in the README's picture says "demo".
const workspace = path.join(smokeDir, 'demo');
fs.cpSync(path.join(REPO, 'demo'), workspace, { recursive: true });

const start = spawn(process.execPath, ['scripts/start.mjs', '--workspace', workspace], {
  cwd: REPO,
  env: { ...process.env, [marker]: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let startOut = '';
start.stdout.on('data', (d) => (startOut += d));
start.stderr.on('data', (d) => (startOut += d));
const startExited = new Promise((resolve) => start.once('exit', (code, signal) => resolve(code ?? signal)));

let browser;
let url;
let emulatorPort;
const workbenchWorks = await check('npm start: open the sidebar (connected to the emulator), run the demo input, see the image', async () => {
  url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from npm start after 240 s:\n${startOut}`)), 240_000);
    const onData = () => {
      const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(startOut);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    start.stdout.on('data', onData);
    start.once('exit', () => reject(new Error(`npm start stopped:\n${startOut}`)));
  });
  emulatorPort = Number(/emulator with its demo data on http:\/\/127\.0\.0\.1:(\d+)/.exec(startOut)?.[1]);
  browser = await launchChromium(chromium);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(TIMEOUT_MS);
  await page.goto(url);

  await page.locator('.activitybar [aria-label^="Serverless GPU"]').first().click();
  // The Endpoints tree fills from the billing route of the emulator npm start began: no key to type.
  await page.locator('.part.sidebar .monaco-list-row:has-text("sdxl-turbo")').first().waitFor();

  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible' });
  await page.keyboard.type('sdxl-turbo.input.json', { delay: 5 });
  await page.locator('.quick-input-widget .monaco-list-row:has-text("sdxl-turbo.input.json")').first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab:has-text("sdxl-turbo.input.json")').first().waitFor();

  // "Run on …" asks for the endpoint the first time.
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible' });
  await page.keyboard.type('Serverless GPU: Run Current File as Input', { delay: 5 });
  await page.locator('.quick-input-widget .monaco-list-row:has-text("Run Current File as Input")').first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget .monaco-list-row:has-text("sdxl-turbo")').first().click();

  // The job panel (a webview, two frames deep) draws the PNG the emulator returned.
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    let drawn = false;
    for (const frame of page.frames()) {
      const img = frame.locator('figure.image img').first();
      if ((await img.count().catch(() => 0)) > 0 && (await img.evaluate((el) => el.complete && el.naturalWidth > 0).catch(() => false))) drawn = true;
    }
    if (drawn) break;
    if (Date.now() > deadline) throw new Error('no image in the job panel');
    await new Promise((r) => setTimeout(r, 200));
  }
  // For the picture: let the panel settle on its final state (the image can arrive just before the panel's
  // last update). Not a check of the panel's wording, so it only waits, up to 10 s, and never fails.
  const settleBy = Date.now() + 10_000;
  while (Date.now() < settleBy) {
    let settled = false;
    for (const frame of page.frames()) if ((await frame.locator(':text("Completed after")').count().catch(() => 0)) > 0) settled = true;
    if (settled) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const shot = path.join(ARTIFACTS, 'overview.png');
  await page.locator('.statusbar-item:has-text("Demo emulator (npm start)")').first().waitFor();
  await page.screenshot({ path: shot });
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    fs.mkdirSync(path.join(REPO, 'docs/images'), { recursive: true });
    fs.copyFileSync(shot, path.join(REPO, 'docs/images/overview.png'));
  }
}).catch(() => false);
if (!workbenchWorks && browser) {
  const pages = browser.contexts().flatMap((c) => c.pages());
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  if (pages[0]) await pages[0].screenshot({ path: path.join(ARTIFACTS, 'failed-npm-start.png') }).catch(() => {});
}
await browser?.close().catch(() => {});

await check('Ctrl-C stops the editor, the emulator and everything they started', async () => {
  process.kill(start.pid, 'SIGINT');
  const code = await Promise.race([startExited, new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000))]);
  if (code !== 0) throw new Error(`npm start ended with ${code}:\n${startOut.slice(-2000)}`);
  // A moment for the last children to be reaped after their group was signalled.
  const deadline = Date.now() + 10_000;
  let left = startedBy(marker);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    left = startedBy(marker);
  }
  if (left.length) throw new Error(`still running:\n${left.join('\n')}`);
  const editorPort = Number(/127\.0\.0\.1:(\d+)/.exec(url ?? '')?.[1]);
  for (const port of [editorPort, emulatorPort].filter(Boolean)) if (!(await refused(port))) throw new Error(`port ${port} still answers`);
});

try {
  process.kill(-start.pid, 'SIGKILL');
} catch {
  // already stopped, as it should be
}
fs.rmSync(smokeDir, { recursive: true, force: true });
console.log(summary());
process.exit(counts.failed ? 1 : 0);

#!/usr/bin/env node
// Runs the editor suites (dist/test/editor/index.js, bundled by scripts/build.mjs) inside a real VS Code:
// code-server 4.100.3 (= VS Code 1.100.3) on 127.0.0.1 with its workbench opened in Debian's Chromium by
// playwright-core. The extension is loaded from the repository (extensionDevelopmentPath) or, with --vsix,
// installed from a packaged .vsix. Prints each test's result and, as its very last line, `N passed, N failed`;
// exits 1 when anything failed, timed out or crashed.
//
// usage: node test/editor-host/run.mjs [--vsix FILE] [--grep PATTERN] [--timeout MS] [--keep]
//   --vsix FILE    install FILE with `code-server --install-extension` and test that instead of the source tree;
//                  runs the activation suite and every test whose full title holds `@packaged` (unless --grep)
//   --grep PATTERN only the tests whose full title matches (mocha grep)
//   --timeout MS   the whole run (default 900000, or EDITOR_TEST_TIMEOUT_MS); each test has mocha's 60 s
//   --keep         keep the run's temporary folder (user data, logs, workspace copy) and print where it is
// env: UPDATE_SCREENSHOTS=1 lets `screenshot(name, { docs: true })` refresh docs/images/<name>.png.
//      CHROMIUM_PATH (default /usr/bin/chromium).
//
// While the suite runs, a control server on 127.0.0.1 (its URL handed to the extension host in
// SERVERLESS_GPU_TEST_DRIVER_URL) lets the tests drive the page: see test/editor/support/driver.ts.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const HOST_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HOST_DIR, '../..');
const TESTS_ENTRY = path.join(REPO, 'dist/test/editor/index.js');
const FIXTURE_WORKSPACE = path.join(REPO, 'test/editor/fixtures/workspace');
const ARTIFACTS = path.join(HOST_DIR, 'artifacts');
// Failure screenshots and logs of this run, in a folder of their own: a flake seen in one of several runs (or
// in two runs side by side) keeps its evidence instead of being overwritten by the next run.
const RUN_ARTIFACTS = path.join(ARTIFACTS, 'runs', `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
const DOCS_IMAGES = path.join(REPO, 'docs/images');
const CODE_SERVER = path.join(HOST_DIR, 'node_modules/code-server/out/node/entry.js');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Must match test/editor/support/protocol.ts.
const EVENT_MARKER = '@@serverless-gpu-editor-test@@';
const ENV = { driverUrl: 'SERVERLESS_GPU_TEST_DRIVER_URL', grep: 'SERVERLESS_GPU_TEST_GREP', packaged: 'SERVERLESS_GPU_TEST_PACKAGED' };
const DEFAULT_ACTION_TIMEOUT_MS = 30_000;
const WORKBENCH_FRAME = /^\s+at .*\/static\/out\/vs\//;
// Against a .vsix the extension runs in production mode, without the test hooks activate() returns in test
// mode, so only the suites written for that run: activation, and whatever a test marks with `@packaged`.
const PACKAGED_GREP = '^activation |@packaged';

const { values: opts } = parseArgs({
  options: {
    vsix: { type: 'string' },
    grep: { type: 'string' },
    timeout: { type: 'string', default: process.env.EDITOR_TEST_TIMEOUT_MS || '900000' },
    keep: { type: 'boolean', default: false },
  },
});
const RUN_TIMEOUT_MS = Number(opts.timeout);

const counts = { passed: 0, failed: 0, pending: 0 };
/** Tests that failed once and ran again (mocha retries, test/editor/index.ts): listed beside the closing count. */
const retried = new Map();
const cleanups = [];
let finished = false;

function fail(message) {
  console.error(`editor tests: ${message}`);
  counts.failed++;
}

async function cleanup() {
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch {
      // Best effort: a browser that already died must not keep the others alive.
    }
  }
  cleanups.length = 0;
}

async function finish() {
  if (finished) return;
  finished = true;
  await cleanup();
  for (const [title, outcome] of retried) console.log(`  ↻ ${outcome} (the first failure is above): ${title}`);
  // CI (and scripts/test.mjs) read this line: it must be the last one.
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed > 0 || counts.passed === 0 ? 1 : 0);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    fail(`interrupted (${signal})`);
    void finish();
  });
}

function listenOnLoopback(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

function freePort() {
  const s = http.createServer();
  return listenOnLoopback(s).then((port) => new Promise((r) => s.close(() => r(port))));
}

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80) || 'unnamed';
}

/** Settings of the fresh user profile: no welcome page, no telemetry, nothing that reaches the network. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'git.openRepositoryInParentFolders': 'never',
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  // Otherwise the extension host looks for ports to forward by running `ps` and `ls -l /proc/*/fd/*` every 2 s
  // (the source 'process' is what does it): about 5 MB of the host's ArrayBuffers each time, more than a job's
  // own four big images in the memory bench, and two processes that had nothing to do with any test.
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

// ---------------------------------------------------------------------------------------------------------
// The driver: what test/editor/support/driver.ts asks for, done on the page with Playwright.

function createDriver(page) {
  const frames = (inWebview) => (inWebview ? page.frames().filter((f) => f !== page.mainFrame()) : [page.mainFrame()]);

  /** The first element matching `selector` in the workbench or, with inWebview, in any webview frame. */
  async function locate(selector, { inWebview = false, timeoutMs = DEFAULT_ACTION_TIMEOUT_MS, state = 'attached' } = {}) {
    if (!inWebview) {
      const loc = page.locator(selector).first();
      await loc.waitFor({ state, timeout: timeoutMs });
      return loc;
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const frame of frames(true)) {
        const loc = frame.locator(selector).first();
        try {
          if ((await loc.count()) > 0 && (state !== 'visible' || (await loc.isVisible()))) return loc;
        } catch {
          // A frame that navigated or closed while we looked: try the others.
        }
      }
      if (Date.now() > deadline) throw new Error(`no webview frame has ${selector} (${state}) after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function countIn(selector, inWebview) {
    let n = 0;
    for (const frame of frames(inWebview)) n += await frame.locator(selector).count().catch(() => 0);
    return n;
  }

  const QUICK_INPUT_BOX = '.quick-input-widget:not([style*="display: none"]) .quick-input-box input';

  /**
   * While a quick input is open, keys must go to it; but the workbench focuses it a moment after it shows,
   * and keys sent before that are lost (seen: "Flux Schnell" arriving as "ux Schnell"). Wait for the focus.
   */
  async function quickInputFocusSettled(timeoutMs = 5_000) {
    if ((await page.locator(QUICK_INPUT_BOX).count()) === 0) return;
    await page
      .waitForFunction((sel) => {
        const input = document.querySelector(sel);
        return !input || document.activeElement === input;
      }, QUICK_INPUT_BOX, { timeout: timeoutMs, polling: 50 })
      .catch(() => {});
  }

  const actions = {
    async type({ text }) {
      await quickInputFocusSettled();
      await page.keyboard.type(String(text), { delay: 5 });
    },
    async answerQuickInput({ text, title, submit = true, timeoutMs = DEFAULT_ACTION_TIMEOUT_MS }) {
      if (title) {
        await page.locator(`.quick-input-widget:not([style*="display: none"]) .quick-input-title:has-text(${JSON.stringify(String(title))})`).first().waitFor({ state: 'visible', timeout: timeoutMs });
      }
      const input = page.locator(QUICK_INPUT_BOX).first();
      await input.waitFor({ state: 'visible', timeout: timeoutMs });
      // fill() focuses the box and replaces its whole value, so neither a late focus nor a leftover value of
      // the previous step can garble the answer; it is read back before Enter, and filled again if the
      // widget reset it meanwhile.
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await input.fill(String(text), { timeout: timeoutMs });
        if ((await input.inputValue()) === String(text)) break;
        if (Date.now() > deadline) throw new Error(`the quick input would not keep the value ${JSON.stringify(text)}`);
      }
      if (submit) await input.press('Enter');
    },
    async pickQuickPickItem({ label, title, timeoutMs = DEFAULT_ACTION_TIMEOUT_MS }) {
      if (title) {
        await page.locator(`.quick-input-widget:not([style*="display: none"]) .quick-input-title:has-text(${JSON.stringify(String(title))})`).first().waitFor({ state: 'visible', timeout: timeoutMs });
      }
      const input = page.locator(QUICK_INPUT_BOX).first();
      await input.waitFor({ state: 'visible', timeout: timeoutMs });
      // By keyboard, not by clicking a row: the list recycles its row elements while it filters, so a row found
      // for one item can show another by the time it is clicked. Filter to the label, then move the list's
      // focus until the focused row's label is exactly it, and press Enter.
      await input.fill(String(label), { timeout: timeoutMs });
      const rowLabel = (row) => row.locator('.label-name').first().textContent({ timeout: 1_000 }).then((t) => (t ?? '').trim(), () => '');
      const deadline = Date.now() + timeoutMs;
      let moves = 0;
      for (;;) {
        const focused = page.locator('.quick-input-widget .monaco-list-row.focused').first();
        if ((await focused.count()) > 0 && (await rowLabel(focused)) === String(label)) break;
        const rows = page.locator('.quick-input-widget .monaco-list-row');
        const n = await rows.count();
        let present = false;
        for (let i = 0; i < n && !present; i++) present = (await rowLabel(rows.nth(i))) === String(label);
        if (present && moves < n) {
          await input.press('ArrowDown');
          moves++;
          continue;
        }
        if (Date.now() > deadline) throw new Error(`no quick pick item labelled ${JSON.stringify(label)} after ${timeoutMs} ms`);
        moves = 0;
        await new Promise((r) => setTimeout(r, 100));
      }
      await input.press('Enter');
    },
    async press({ key }) {
      await quickInputFocusSettled();
      await page.keyboard.press(String(key));
    },
    async click({ selector, inWebview, timeoutMs, modifiers }) {
      const loc = await locate(selector, { inWebview, timeoutMs, state: 'visible' });
      await loc.click({ timeout: timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS, ...(Array.isArray(modifiers) ? { modifiers } : {}) });
    },
    async waitForSelector({ selector, inWebview, timeoutMs = DEFAULT_ACTION_TIMEOUT_MS, state = 'visible' }) {
      if (!inWebview || state === 'attached' || state === 'visible') {
        await locate(selector, { inWebview, timeoutMs, state });
        return;
      }
      // detached / hidden inside webviews: wait until no frame shows it any more.
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let present = false;
        for (const frame of frames(true)) {
          const loc = frame.locator(selector).first();
          if (state === 'detached' ? (await loc.count().catch(() => 0)) > 0 : await loc.isVisible().catch(() => false)) present = true;
        }
        if (!present) return;
        if (Date.now() > deadline) throw new Error(`${selector} still ${state === 'detached' ? 'attached' : 'visible'} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async textContent({ selector, inWebview, timeoutMs }) {
      const loc = await locate(selector, { inWebview, timeoutMs, state: 'attached' });
      return (await loc.textContent()) ?? '';
    },
    async count({ selector, inWebview }) {
      return countIn(selector, inWebview);
    },
    // A DOM property of the first match (an img's naturalWidth or currentSrc): what the page shows, not what it was told.
    async property({ selector, name, inWebview, timeoutMs }) {
      const loc = await locate(selector, { inWebview, timeoutMs, state: 'attached' });
      const value = await loc.evaluate((el, key) => el[key], String(name));
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
    },
    async screenshot({ name, selector, docs }) {
      if (!/^[a-z0-9][a-z0-9-]*$/.test(String(name))) throw new Error(`bad screenshot name ${name}`);
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, `${name}.png`);
      if (selector) await (await locate(selector, { state: 'visible' })).screenshot({ path: file });
      else await page.screenshot({ path: file });
      if (docs && process.env.UPDATE_SCREENSHOTS === '1') {
        fs.mkdirSync(DOCS_IMAGES, { recursive: true });
        fs.copyFileSync(file, path.join(DOCS_IMAGES, `${name}.png`));
      }
      return file;
    },
  };

  // One action at a time, in the order asked: two tests' keystrokes must never interleave.
  let queue = Promise.resolve();
  return (action, body) => {
    const fn = actions[action];
    if (!fn) return Promise.reject(new Error(`unknown driver action ${action}`));
    const result = queue.then(() => fn(body));
    queue = result.catch(() => {});
    return result;
  };
}

async function startControlServer(getDriver) {
  const token = randomBytes(16).toString('hex');
  const server = http.createServer((req, res) => {
    const reply = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const match = /^\/([0-9a-f]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match || match[1] !== token) return reply(404, { ok: false, error: 'not found' });
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      try {
        const driver = getDriver();
        if (!driver) throw new Error('the workbench page is not open yet');
        const value = await driver(match[2], raw ? JSON.parse(raw) : {});
        reply(200, { ok: true, value: value ?? null });
      } catch (err) {
        reply(200, { ok: false, error: err instanceof Error ? err.message.split('\n')[0] : String(err) });
      }
    });
  });
  const port = await listenOnLoopback(server);
  cleanups.push(() => new Promise((r) => server.close(() => r())));
  server.unref();
  return `http://127.0.0.1:${port}/${token}`;
}

// ---------------------------------------------------------------------------------------------------------

function startCodeServer(args, env) {
  // Its own process group, so that stopping it also stops the extension host and file watcher it forks.
  const child = spawn(process.execPath, [CODE_SERVER, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  cleanups.push(stop);
  // Also on any exit of this process that skips the cleanup (an uncaught error): never leave an editor running.
  process.once('exit', stop);
  let log = '';
  const ready = new Promise((resolve, reject) => {
    const onData = (d) => {
      log += d;
      if (/HTTP server listening/.test(log)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited with ${code} before it was ready:\n${log}`)));
  });
  return { child, ready, log: () => log };
}

function installVsix(vsix, baseArgs, env) {
  const r = spawnSync(process.execPath, [CODE_SERVER, ...baseArgs, '--install-extension', vsix], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  process.stdout.write(r.stdout);
}

/** In --vsix mode the workbench still needs an extensionDevelopmentPath to run tests: an empty extension. */
function writeStubExtension(dir) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'editor-test-stub', publisher: 'serverless-gpu-tests', version: '0.0.0', engines: { vscode: '^1.100.0' } }),
  );
  return dir;
}

/**
 * After a failure: the extension's own log (its "Serverless GPU" channel, which VS Code writes to a file under
 * the profile's logs folder) is copied to this run's artifacts folder and its end printed, since it usually says
 * what went wrong.
 */
function keepExtensionLog(userData) {
  const found = [];
  const walk = (dir) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name === 'Serverless GPU.log') found.push(p);
    }
  };
  try {
    walk(path.join(userData, 'logs'));
  } catch {
    return;
  }
  fs.mkdirSync(RUN_ARTIFACTS, { recursive: true });
  found.forEach((file, i) => {
    const text = fs.readFileSync(file, 'utf8');
    const keep = path.join(RUN_ARTIFACTS, `serverless-gpu${found.length > 1 ? `-${i + 1}` : ''}.log`);
    fs.writeFileSync(keep, text);
    const tail = text.trimEnd().split('\n').slice(-30);
    console.log(`  the extension's log (${path.relative(REPO, keep)}), last ${tail.length} lines:\n${tail.map((l) => `    | ${l}`).join('\n')}`);
  });
}

async function main() {
  const t0 = Date.now();
  if (!fs.existsSync(CODE_SERVER)) throw new Error(`code-server is not installed: run bash test/editor-host/setup.sh`);
  if (!fs.existsSync(TESTS_ENTRY)) throw new Error(`${path.relative(REPO, TESTS_ENTRY)} is missing: run node scripts/build.mjs`);
  const vsix = opts.vsix ? path.resolve(opts.vsix) : undefined;
  if (vsix && !fs.existsSync(vsix)) throw new Error(`no such .vsix: ${vsix}`);
  const grep = opts.grep ?? (vsix ? PACKAGED_GREP : undefined);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'serverless-gpu-editor-'));
  if (opts.keep) console.log(`editor tests: keeping ${tmp}`);
  else cleanups.unshift(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const userData = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  const workspace = path.join(tmp, 'workspace');
  fs.cpSync(FIXTURE_WORKSPACE, workspace, { recursive: true });
  // code-server and Chromium write into the home folder unless every XDG folder points elsewhere.
  const xdg = { XDG_DATA_HOME: path.join(tmp, 'xdg-data'), XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), XDG_CACHE_HOME: path.join(tmp, 'xdg-cache') };

  let driver;
  const driverUrl = await startControlServer(() => driver);
  const env = {
    ...process.env,
    ...xdg,
    [ENV.driverUrl]: driverUrl,
    ...(grep ? { [ENV.grep]: grep } : {}),
    ...(vsix ? { [ENV.packaged]: '1' } : {}),
  };
  const baseArgs = ['--user-data-dir', userData, '--extensions-dir', path.join(tmp, 'extensions'), '--config', path.join(tmp, 'config.yaml')];
  if (vsix) installVsix(vsix, baseArgs, env);
  const extensionDevelopmentPath = vsix ? writeStubExtension(path.join(tmp, 'stub-extension')) : REPO;

  const port = await freePort();
  const cs = startCodeServer(
    [...baseArgs, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
      '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened'],
    env,
  );
  await cs.ready;

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, ...xdg },
    // Without the background-networking flags Chromium keeps dialling Google's hosts, refused on this network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  cleanups.push(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
  driver = createDriver(page);

  let exitWith;
  const exited = new Promise((r) => (exitWith = r));
  let ended = false;
  const failureShots = [];
  const onEvent = (ev) => {
    if (ev.event === 'pass') {
      counts.passed++;
      if (retried.has(ev.title)) retried.set(ev.title, 'passed on its second try');
      console.log(`  ✓ ${ev.title} (${ev.durationMs} ms)`);
    } else if (ev.event === 'fail') {
      counts.failed++;
      if (retried.has(ev.title)) retried.set(ev.title, 'failed twice');
      console.log(`  ✗ ${ev.title}\n${String(ev.error).replace(/^/gm, '      ')}`);
      const file = path.join(RUN_ARTIFACTS, `failed-${slug(ev.title)}.png`);
      fs.mkdirSync(RUN_ARTIFACTS, { recursive: true });
      failureShots.push(page.screenshot({ path: file }).then(() => console.log(`    screenshot: ${path.relative(REPO, file)}`), () => {}));
    } else if (ev.event === 'retry') {
      retried.set(ev.title, 'still running');
      console.log(`  ↻ ${ev.title}: failed once, runs again\n${String(ev.error).replace(/^/gm, '      ')}`);
    } else if (ev.event === 'pending') {
      counts.pending++;
      console.log(`  - ${ev.title} (pending)`);
    } else if (ev.event === 'end') {
      ended = true;
    }
  };
  await page.exposeFunction('codeAutomationLog', (_type, args) => {
    const text = format(...(args || []));
    for (const line of text.split('\n')) {
      const at = line.indexOf(EVENT_MARKER);
      if (at >= 0) {
        try {
          onEvent(JSON.parse(line.slice(at + EVENT_MARKER.length)));
          continue;
        } catch {
          // Not ours after all: print it as it is.
        }
      }
      // The workbench's own stack frames (minified, inside code-server) say nothing about our code: drop them.
      if (line.trim() && !WORKBENCH_FRAME.test(line)) console.log(`  [editor] ${line}`);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => exitWith(code));

  // The hand-off VS Code's own browser integration tests use: the workbench reads these from `payload`.
  // The vscode-remote authority must be exactly the host:port the page was opened on, with absolute paths.
  const authority = `127.0.0.1:${port}`;
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${extensionDevelopmentPath}`],
    ['extensionTestsPath', `vscode-remote://${authority}${TESTS_ENTRY}`],
    ['skipWelcome', 'true'],
  ];
  console.log(`editor tests: VS Code ${vsix ? `with ${path.basename(vsix)} installed` : 'with the extension from the source tree'}, workspace ${workspace}`);
  await page.goto(`http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);

  const remaining = RUN_TIMEOUT_MS - (Date.now() - t0);
  let timer;
  const code = await Promise.race([exited, new Promise((r) => (timer = setTimeout(() => r('timeout'), remaining)))]);
  clearTimeout(timer);
  await Promise.all(failureShots);
  if (code !== 0) {
    const file = path.join(RUN_ARTIFACTS, code === 'timeout' ? 'run-timed-out.png' : 'run-failed.png');
    fs.mkdirSync(RUN_ARTIFACTS, { recursive: true });
    await page.screenshot({ path: file }).catch(() => {});
    console.log(`    screenshot: ${path.relative(REPO, file)}`);
  }
  if (code === 'timeout') fail(`no result after ${RUN_TIMEOUT_MS} ms (the extension host never finished the suite)`);
  else if (code !== 0 && counts.failed === 0) fail(`the suite ended with exit code ${code} but reported no failing test (it did not load?)`);
  else if (code === 0 && !ended) fail('the suite exited without its end event');
  if (counts.passed === 0 && counts.failed === 0) fail('no test ran');
  if (counts.failed > 0) keepExtensionLog(userData);
  console.log(`editor tests: ${counts.pending} pending, took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().then(finish, (err) => {
  fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
  return finish();
});

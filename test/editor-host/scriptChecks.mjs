// What the standalone editor scripts (start-smoke.mjs, resume-kill.mjs, reload-state.mjs) share: checks counted and printed like the
// editor runner's tests, the processes a script started (found by a marker in their environment), and their teardown.
import * as fs from 'node:fs';

/** Checks that count themselves; `summary()` is the `N passed, N failed` line CI reads last. */
export function createChecks() {
  const counts = { passed: 0, failed: 0 };
  async function check(title, fn) {
    const t0 = Date.now();
    try {
      await fn();
      counts.passed++;
      console.log(`  ✓ ${title} (${Date.now() - t0} ms)`);
      return true;
    } catch (err) {
      counts.failed++;
      console.log(`  ✗ ${title}\n${String(err instanceof Error ? err.stack : err).replace(/^/gm, '      ')}`);
      return false;
    }
  }
  return { counts, check, summary: () => `${counts.passed} passed, ${counts.failed} failed` };
}

/** Processes whose environment carries `marker` (what a script started, however deep): [pid, cmdline]. */
export function processesWith(marker) {
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker)) found.push([Number(pid), fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ')]);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * The end of every standalone script: a screenshot when a check failed, the browser and the proxy closed, then
 * the check that every process it started (found by `marker`) is gone, SIGTERM first and SIGKILL after 15 s.
 */
export async function tearDown({ check, counts, browser, proxy, started, marker, artifacts, name }) {
  if (counts.failed && browser) {
    const pages = browser.contexts().flatMap((c) => c.pages());
    fs.mkdirSync(artifacts, { recursive: true });
    if (pages[0]) await pages[0].screenshot({ path: `${artifacts}/failed-${name}.png` }).catch(() => {});
  }
  await browser?.close().catch(() => {});
  proxy?.server.close();
  proxy?.server.closeAllConnections?.();
  await check('nothing left running: the editor, its extension hosts and the emulator stopped', async () => {
    for (const child of [...started].reverse()) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    let left = processesWith(marker);
    const deadline = Date.now() + 15_000;
    while (left.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      left = processesWith(marker);
    }
    for (const [pid] of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    if (left.length) throw new Error(`still running after SIGTERM (now SIGKILLed):\n${left.map((l) => l.join(' ').slice(0, 160)).join('\n')}`);
  });
}

/** Debian's Chromium, headless, without the background traffic (Google's hosts) this network refuses. */
export function launchChromium(chromium) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** Runs a command from the palette by its title ("Serverless GPU: Show Batch as Grid"); `during` runs as Enter is pressed. */
export async function runCommand(page, title, during = async () => {}) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible' });
  await page.keyboard.type(title, { delay: 5 });
  await page.locator(`.quick-input-widget .monaco-list-row:has-text("${title.split(': ')[1]}")`).first().waitFor();
  await Promise.all([during(), page.keyboard.press('Enter')]);
}

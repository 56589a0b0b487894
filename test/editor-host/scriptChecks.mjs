// What the standalone editor scripts (start-smoke.mjs, resume-kill.mjs) share: checks counted and printed like the
// editor runner's tests, and the processes a script started, found by a marker in their environment.
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

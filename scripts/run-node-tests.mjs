// Runs every *.test.ts under the given folders with node's own test runner (TypeScript through tsx).
// Node 20's `--test` does not expand globs itself, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return findTests(p);
    return p.endsWith('.test.ts') ? [p] : [];
  });
}
// Folders are searched; a file named on its own is run as it is (one suite while working on it).
const dirs = process.argv.slice(2);
const files = dirs.flatMap((p) => (statSync(p).isDirectory() ? findTests(p) : [p])).sort();
if (files.length === 0) {
  console.error(`no *.test.ts files under ${dirs.join(', ')}`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);

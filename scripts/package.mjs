// `npm run package`: a production build, then the .vsix with vsce, then a check of what went into it: only the
// bundles, the media and the documents (.vscodeignore decides; this makes sure it keeps deciding right).
// Prints the .vsix's path as its last line.
//
// usage: node scripts/package.mjs [--out FILE]   (default serverless-gpu-jobs-<version>.vsix in the repo root)
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? `${manifest.name}-${manifest.version}.vsix`);

// What may ship. Anything else in `vsce ls` (sources, tests, maps, node_modules) fails the packaging.
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  /^dist\/extension\.js$/,
  /^dist\/emulator\.js$/,
  /^dist\/webview\/[^/]+\.(js|css)$/,
  /^media\/.+\.(svg|png|css|js|json)$/,
  /^schemas\/[^/]+\.json$/,
];
const REQUIRED = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'dist/extension.js', 'dist/emulator.js'];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? '');
    console.error(`package: ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  return r.stdout;
}

// The relative links of README.md (its pictures in docs/images) are left as they are: there is no public
// repository for vsce to rewrite them to, and the pictures are not worth their weight in the .vsix.
const VSCE_FLAGS = ['--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links'];

run('node', ['scripts/build.mjs', '--production']);
const listed = run('npx', ['vsce', 'ls', '--no-dependencies'])
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean);
const unexpected = listed.filter((f) => !ALLOWED.some((re) => re.test(f)));
const missing = REQUIRED.filter((f) => !listed.includes(f));
if (unexpected.length || missing.length) {
  if (unexpected.length) console.error(`package: files that must not ship (fix .vscodeignore):\n  ${unexpected.join('\n  ')}`);
  if (missing.length) console.error(`package: files the .vsix needs but would not contain:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
process.stdout.write(run('npx', ['vsce', 'package', ...VSCE_FLAGS, '--out', out]));
console.log(`package: ${listed.length} files: ${listed.join(', ')}`);
console.log(`package: ${(statSync(out).size / 1024).toFixed(1)} KiB; dist/extension.js ${(statSync('dist/extension.js').size / 1024).toFixed(1)} KiB`);
console.log(out);

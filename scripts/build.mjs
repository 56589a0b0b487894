// Bundles the extension, the emulator and the webview scripts with esbuild.
// `--production` minifies (what the .vsix ships); the default keeps names for readable stack traces.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'warning', legalComments: 'none' };

// Every media/<name>/main.ts is one webview's script, bundled for the browser to dist/webview/<name>.js.
const webviewEntries = existsSync('media')
  ? readdirSync('media', { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join('media', d.name, 'main.ts')))
      .map((d) => ({ in: join('media', d.name, 'main.ts'), out: d.name }))
  : [];

const builds = [
  esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: ['src/emulator/cli.ts'], outfile: 'dist/emulator.js', platform: 'node', format: 'cjs', target: 'node20' }),
];
if (webviewEntries.length) {
  builds.push(esbuild.build({ ...common, entryPoints: webviewEntries, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'es2022' }));
}
await Promise.all(builds);

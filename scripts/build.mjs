// Bundles the extension, the emulator and the webview scripts with esbuild.
// `--production` minifies (what the .vsix ships); the default keeps names for readable stack traces.
// `--out-root DIR` writes DIR/dist/... instead of ./dist (scripts/package.mjs stages the .vsix there, so a
// development build running at the same time cannot slip into the package).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const production = process.argv.includes('--production');
const outRootAt = process.argv.indexOf('--out-root');
const dist = join(outRootAt >= 0 ? process.argv[outRootAt + 1] : '.', 'dist');
const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'warning', legalComments: 'none' };

// Every media/<name>/main.ts is one webview's script, bundled for the browser to dist/webview/<name>.js.
const webviewEntries = existsSync('media')
  ? readdirSync('media', { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join('media', d.name, 'main.ts')))
      .map((d) => ({ in: join('media', d.name, 'main.ts'), out: d.name }))
  : [];

const builds = [
  esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: join(dist, 'extension.js'), platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  // The billing worker thread (src/core/billing/billingReader.ts starts it from dist/billingWorker.js).
  esbuild.build({ ...common, entryPoints: ['src/core/billing/billingWorker.ts'], outfile: join(dist, 'billingWorker.js'), platform: 'node', format: 'cjs', target: 'node20' }),
  // The replay's worker thread (src/core/tune/replayThread.ts starts it from dist/replayWorker.js).
  esbuild.build({ ...common, entryPoints: ['src/core/tune/replayWorker.ts'], outfile: join(dist, 'replayWorker.js'), platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: ['src/emulator/cli.ts'], outfile: join(dist, 'emulator.js'), platform: 'node', format: 'cjs', target: 'node20' }),
];
if (webviewEntries.length) {
  builds.push(esbuild.build({ ...common, entryPoints: webviewEntries, outdir: join(dist, 'webview'), platform: 'browser', format: 'iife', target: 'es2022' }));
}
// The editor suites (test/editor/index.ts, run inside VS Code by test/editor-host/run.mjs), one bundle so the
// tests can import src/ modules; `vscode` comes from the extension host and `mocha` from node_modules.
// Skipped for --production: the .vsix never ships tests.
if (!production) {
  builds.push(esbuild.build({ ...common, entryPoints: ['test/editor/index.ts'], outfile: join(dist, 'test/editor/index.js'), platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'mocha'], plugins: [editorTestFilesPlugin()] }));
}
await Promise.all(builds);

/** Every test/editor/**\/*.test.ts as `virtual:editor-test-files`, loaded lazily, activation.test.ts first. */
function editorTestFilesPlugin() {
  const root = 'test/editor';
  const find = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const p = join(dir, d.name);
      if (d.isDirectory()) return d.name === 'fixtures' ? [] : find(p);
      return d.name.endsWith('.test.ts') ? [p] : [];
    });
  return {
    name: 'editor-test-files',
    setup(build) {
      build.onResolve({ filter: /^virtual:editor-test-files$/ }, () => ({ path: 'editor-test-files', namespace: 'editor-test-files' }));
      build.onLoad({ filter: /.*/, namespace: 'editor-test-files' }, () => {
        const files = find(root)
          .map((p) => relative(root, p).split(sep).join('/'))
          .sort((a, b) => Number(b === 'activation.test.ts') - Number(a === 'activation.test.ts') || a.localeCompare(b));
        const entries = files.map((f) => `{ name: ${JSON.stringify(f)}, load: () => require(${JSON.stringify(`./${f}`)}) }`);
        return { contents: `export const editorTestFiles = [\n${entries.join(',\n')}\n];\n`, resolveDir: resolve(root), loader: 'js', watchFiles: files.map((f) => resolve(root, f)) };
      });
    },
  };
}

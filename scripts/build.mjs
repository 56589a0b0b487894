// Bundles the extension, the emulator and the webview scripts with esbuild.
// `--production` minifies (what the .vsix ships); the default keeps names for readable stack traces.
// `--out-root DIR` writes DIR/dist/... instead of ./dist (scripts/package.mjs stages the .vsix there, so a
// development build running at the same time cannot slip into the package).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

// The extension is two CommonJS bundles (the extension host has no ESM splitting): dist/extension.js, loaded at
// activation, and dist/rooms.js, the rooms a session may never open (the Batch panel's host, the cost chart,
// local-worker serving), required on first use (src/rooms/rooms.ts). Every module the two would share is taken
// from extension.js's own instance, handed to rooms.js when it loads: one copy of each error class, store and
// logger, never two (see roomsBuild()).
const rooms = await roomsBuild();
const builds = [
  esbuild.build(rooms.hostOptions(join(dist, 'extension.js'))),
  esbuild.build({ ...rooms.roomsOptions, outfile: join(dist, 'rooms.js') }),
  // The billing worker thread (src/core/billing/billingReader.ts starts it from dist/billingWorker.js).
  esbuild.build({ ...common, entryPoints: ['src/core/billing/billingWorker.ts'], outfile: join(dist, 'billingWorker.js'), platform: 'node', format: 'cjs', target: 'node20' }),
  // The file thread (src/core/outputs/fileThread.ts starts it from dist/fileWorker.js for a batch's job files).
  esbuild.build({ ...common, entryPoints: ['src/core/outputs/fileWorker.ts'], outfile: join(dist, 'fileWorker.js'), platform: 'node', format: 'cjs', target: 'node20' }),
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
  builds.push(esbuild.build({ ...common, entryPoints: ['test/editor/index.ts'], outfile: join(dist, 'test/editor/index.js'), platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'mocha'], plugins: [editorTestFilesPlugin(), rooms.hostModulesPlugin] }));
}
const results = await Promise.all(builds);
// `BUILD_METAFILE=FILE`: what each bundle holds, per input (esbuild's metafile), for a look at where bytes go.
if (process.env.BUILD_METAFILE) writeFileSync(process.env.BUILD_METAFILE, JSON.stringify(results.slice(0, 2).map((r) => r.metafile)));

/**
 * The two bundles' options. A first pass bundles extension.js to learn which files it holds; rooms.js is then
 * bundled with every import of one of those files answered by the host's instance (a `host-module` that reads
 * it from what src/rooms/rooms.ts passes to `load`); extension.js, finally, exports exactly those modules
 * (`virtual:host-modules`). A file is so in one bundle or the other, never both: checked below.
 */
async function roomsBuild() {
  const base = { ...common, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] };
  // What rooms.js takes from each host module: the names it imports, or '*' (a namespace, `export *`).
  const taken = new Map();
  let exported = [];
  // Only the names taken are exported (a namespace of a whole module would keep all of it in extension.js): as
  // values, or through getters from a module with an `export let`, so a binding the host reassigns reads the same
  // in rooms.js.
  const hostModulesSource = () => {
    const lines = exported.map((f, i) => {
      const names = taken.get(f);
      if (names.has('*')) return { imp: `import * as m${i} from ${JSON.stringify(resolve(f))};`, obj: `m${i}` };
      const list = [...names].sort();
      return {
        imp: `import { ${list.map((n, j) => `${n} as m${i}_${j}`).join(', ')} } from ${JSON.stringify(resolve(f))};`,
        obj: reassigns(f) ? `{ ${list.map((n, j) => `get ${n}() { return m${i}_${j}; }`).join(', ')} }` : `{ ${list.map((n, j) => `${n}: m${i}_${j}`).join(', ')} }`,
      };
    });
    return `${lines.map((l) => l.imp).join('\n')}\nexport const hostModules = {\n${exported.map((f, i) => `  ${JSON.stringify(f)}: ${lines[i].obj},`).join('\n')}\n};\n`;
  };
  const hostModulesPlugin = {
    name: 'host-modules',
    setup(build) {
      build.onResolve({ filter: /^virtual:host-modules$/ }, () => ({ path: 'host-modules', namespace: 'host-modules' }));
      build.onLoad({ filter: /.*/, namespace: 'host-modules' }, () => ({
        contents: hostModulesSource(),
        resolveDir: resolve('.'),
        loader: 'js',
      }));
    },
  };
  const hostOptions = (outfile) => ({ ...base, entryPoints: ['src/extension.ts'], outfile, metafile: true, plugins: [hostModulesPlugin] });
  // A file counts as in a bundle when some of it is: one reached only through a barrel and shaken out is not.
  const inputsOf = (result) => new Set(Object.values(result.metafile.outputs).flatMap((o) => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f)));
  const inHost = inputsOf(await esbuild.build({ ...hostOptions('extension.js'), write: false, sourcemap: false }));

  const fromHost = new Set();
  const fromHostPlugin = {
    name: 'from-host',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'from-host' || args.kind === 'entry-point' || args.path === 'vscode') return undefined;
        const r = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'from-host' });
        if (r.errors.length || r.external || !r.path) return undefined;
        const key = relative(resolve('.'), r.path).split(sep).join('/');
        if (!inHost.has(key) || !shareable(key)) return { path: r.path };
        fromHost.add(key);
        const names = taken.get(key) ?? new Set();
        for (const n of importedNames(args.importer, args.path)) names.add(n);
        taken.set(key, names);
        return { path: key, namespace: 'host-module' };
      });
      // A CommonJS module whose exports are the host's: live getters, so a `let` the host reassigns reads true.
      build.onLoad({ filter: /.*/, namespace: 'host-module' }, (args) => ({
        contents: `const m = require(${JSON.stringify(resolve('src/rooms/hostModules.ts'))}).hostModule(${JSON.stringify(args.path)});\nObject.defineProperty(exports, '__esModule', { value: true });\nfor (const k of Object.keys(m)) Object.defineProperty(exports, k, { enumerable: true, get: () => m[k] });\n`,
        resolveDir: resolve('.'),
        loader: 'js',
      }));
    },
  };
  // Shared: our own modules (src/), except the barrels (index.ts files of re-exports only: no code, no state), so
  // that a room takes each module it names through a barrel from the host one by one, and the host keeps only
  // those. Libraries are bundled again where a room uses them: they hold no state of ours, and zod's own (its
  // messages' locale, its `instanceof`) lives on globalThis and in traits, the same for every copy.
  const shareable = (key) => key.startsWith('src/') && !isBarrel(key);
  const roomsOptions = { ...base, entryPoints: ['src/rooms/roomsEntry.ts'], metafile: true, plugins: [fromHostPlugin] };
  // Learn what rooms.js takes from the host, so extension.js exports exactly that.
  const roomsFirst = await esbuild.build({ ...roomsOptions, outfile: 'rooms.js', write: false, sourcemap: false });
  exported = [...fromHost].sort();
  const host = await esbuild.build({ ...hostOptions('extension.js'), write: false, sourcemap: false });
  const twice = [...inputsOf(roomsFirst)].filter((f) => inputsOf(host).has(f) && shareable(f));
  if (twice.length) throw new Error(`in both dist/extension.js and dist/rooms.js (a second instance of each): ${twice.join(', ')}`);
  return { hostOptions, roomsOptions, hostModulesPlugin };
}

/**
 * The names `importer` takes from `spec` (its import and re-export statements, type-only names left out); '*' for
 * a namespace import, `export *` or a `require`.
 */
function importedNames(importer, spec) {
  const text = readFileSync(importer, 'utf8');
  const quoted = spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names = new Set();
  const statement = new RegExp(`(?:^|[;\\n])\\s*(import|export)\\s+(type\\s+)?([^;]*?)\\s+from\\s+['"]${quoted}['"]`, 'g');
  for (const m of text.matchAll(statement)) {
    if (m[2]) continue;
    const clause = m[3].trim();
    if (clause.startsWith('*')) names.add('*');
    const braces = /\{([^}]*)\}/.exec(clause);
    const plain = clause.replace(/\{[^}]*\}/, '').replace(/,/g, ' ').trim();
    if (m[1] === 'import' && plain && !plain.startsWith('*')) names.add('default');
    for (const part of braces ? braces[1].split(',') : []) {
      const p = part.trim();
      if (!p || p.startsWith('type ')) continue;
      names.add(p.split(/\s+as\s+/)[0].trim());
    }
  }
  if (new RegExp(`require\\(['"]${quoted}['"]\\)`).test(text) || names.size === 0) names.add('*');
  return names;
}

/** Whether a module exports a binding it may reassign (`export let` / `export var`). */
function reassigns(file) {
  return /^export\s+(let|var)\s/m.test(readFileSync(file, 'utf8'));
}

/** A file of re-exports only (`export … from`), comments and blank lines aside. */
function isBarrel(file) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const statements = text.split(';').map((t) => t.trim()).filter(Boolean);
  return statements.length > 0 && statements.every((t) => /^export\s+(\*|type\s+\*|\{[^}]*\})\s+from\s+['"][^'"]+['"]$/.test(t));
}

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

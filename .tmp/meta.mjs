import * as esbuild from 'esbuild';
const r = await esbuild.build({ entryPoints: [process.argv[2] ?? 'src/extension.ts'], bundle: true, minify: true, write: false, metafile: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], legalComments: 'none', outfile: 'x.js' });
const out = Object.values(r.metafile.outputs)[0];
console.log('total', (out.bytes/1024).toFixed(1));
const by = {};
for (const [f, v] of Object.entries(out.inputs)) { const k = f.replace(/^(src\/[^/]+(\/[^/]+)?)\/.*$/, '$1').replace(/^node_modules\/((@[^/]+\/)?[^/]+)\/.*/, 'nm:$1'); by[k] = (by[k]||0) + v.bytesInOutput; }
for (const [k, v] of Object.entries(by).sort((a,b)=>b[1]-a[1]).slice(0, 60)) console.log((v/1024).toFixed(1).padStart(7), k);

import * as esbuild from 'esbuild';
const r = await esbuild.build({ entryPoints: [process.argv[2] ?? 'src/extension.ts'], bundle: true, minify: true, write: false, metafile: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], legalComments: 'none', outfile: 'x.js' });
const out = Object.values(r.metafile.outputs)[0];
for (const [f, v] of Object.entries(out.inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput)) if (!process.argv[3] || f.includes(process.argv[3])) console.log((v.bytesInOutput/1024).toFixed(1).padStart(7), f);

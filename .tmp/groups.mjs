import { readFileSync } from 'node:fs';
const metas = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = Object.entries(metas[0].outputs).find(([k]) => k.endsWith('.js'))[1];
const by = {};
for (const [f, v] of Object.entries(out.inputs)) { const k = f.replace(/^(src\/[^/]+(\/[^/]+)?)\/.*$/, '$1').replace(/^node_modules\/((@[^/]+\/)?[^/]+)\/.*/, 'nm:$1'); by[k] = (by[k]||0) + v.bytesInOutput; }
for (const [k, v] of Object.entries(by).sort((a,b)=>b[1]-a[1])) console.log((v/1024).toFixed(1).padStart(7), k);

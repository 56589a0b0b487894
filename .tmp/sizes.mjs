import { readFileSync } from 'node:fs';
const metas = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const m of metas) {
  const out = Object.entries(m.outputs).find(([k]) => k.endsWith('.js'))[1];
  console.log('==', Object.keys(m.outputs).find(k=>k.endsWith('.js')), (out.bytes/1024).toFixed(1));
  const rows = Object.entries(out.inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0, +process.argv[3] || 40);
  for (const [f, v] of rows) console.log((v.bytesInOutput/1024).toFixed(1).padStart(7), f);
}

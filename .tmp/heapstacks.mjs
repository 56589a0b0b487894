import { readFileSync } from 'node:fs';
const heap = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const names = process.argv.slice(3);
const out = new Map();
const walk = (n, chain) => {
  const cf = n.callFrame;
  const here = [`${cf.functionName || '(anon)'}@${cf.url.split('/').pop()}:${cf.lineNumber + 1}`, ...chain];
  if (names.includes(cf.functionName)) { const k = here.slice(0, 14).join(' < '); out.set(k, (out.get(k) ?? 0) + n.selfSize); }
  for (const c of n.children ?? []) walk(c, here);
};
walk(heap.head, []);
for (const [k, v] of [...out].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log((v / 1e6).toFixed(0), 'MB', k, '\n');

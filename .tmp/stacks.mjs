import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const names = process.argv.slice(3);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const seen = new Map();
for (const n of p.nodes) {
  if (!names.includes(n.callFrame.functionName)) continue;
  const chain = [];
  for (let id = n.id; id !== undefined; id = parent.get(id)) { const cf = byId.get(id).callFrame; chain.push(`${cf.functionName || '(anon)'}@${cf.url.split('/').pop()}:${cf.lineNumber + 1}`); }
  const key = chain.slice(0, 12).join(' < ');
  seen.set(key, (seen.get(key) ?? 0) + (n.hitCount ?? 0));
}
for (const [k, v] of [...seen].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(v, k, '\n');

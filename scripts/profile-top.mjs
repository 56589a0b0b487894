// The top of a CPU profile and of a sampling heap profile of the extension host (issue 30), as the @bench suites
// write them with SERVERLESS_GPU_BENCH_PROFILE=<folder> (test/editor/support/hostStalls.ts):
//   - the longest tasks: runs of samples with no idle between them, each with what took most of it;
//   - self time by function, garbage collection included ("(garbage collector)");
//   - what allocated the memory that was sampled (the heap profile's self sizes, by function);
//   - with --who NAME, the call stacks through which NAME allocated most (whose code asked for it).
//   - with --at US (a time on the monotonic clock in µs, as hostStalls.ts records a stall's end) and --span MS,
//     what ran in those MS before it: self time, and the gaps with no sample (the thread not running at all).
// usage: node scripts/profile-top.mjs <folder or .cpuprofile> [--top N] [--who FUNCTION] [--at US --span MS]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '8' }, who: { type: 'string' }, at: { type: 'string' }, span: { type: 'string', default: '100' } } });
const top = Number(values.top);
const target = positionals[0];
if (!target) throw new Error('usage: node scripts/profile-top.mjs <folder or .cpuprofile> [--top N]');
const files = statSync(target).isDirectory() ? readdirSync(target).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(target, f)) : [target];

const where = (cf) => `${cf.functionName || '(anonymous)'} ${cf.url ? `${basename(cf.url)}:${cf.lineNumber + 1}` : ''}`.trim();
const IDLE = new Set(['(idle)']);

for (const file of files.sort()) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const total = (p.endTime - p.startTime) / 1000;
  console.log(`\n== ${basename(file)}: ${total.toFixed(0)} ms profiled, ${p.samples.length} samples`);

  // Self time per function and the longest busy runs.
  const self = new Map();
  const runs = [];
  let run;
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]);
    const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const name = where(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + ms);
    if (IDLE.has(node.callFrame.functionName)) {
      if (run) runs.push(run);
      run = undefined;
    } else {
      run ??= { ms: 0, at: (p.timeDeltas.slice(0, i + 1).reduce((a, b) => a + b, 0)) / 1000, by: new Map() };
      run.ms += ms;
      run.by.set(name, (run.by.get(name) ?? 0) + ms);
    }
  }
  if (run) runs.push(run);
  if (values.at) {
    // Sample i is taken at startTime + the deltas up to it; its time runs to the next sample.
    const end = Number(values.at);
    const start = end - Number(values.span) * 1000;
    const inWindow = new Map();
    let t = p.startTime;
    let gapMax = 0;
    for (let i = 0; i < p.samples.length; i++) {
      t += p.timeDeltas[i];
      const next = t + (p.timeDeltas[i + 1] ?? 0);
      if (next < start || t > end) continue;
      const ms = (Math.min(next, end) - Math.max(t, start)) / 1000;
      const name = where(byId.get(p.samples[i]).callFrame);
      inWindow.set(name, (inWindow.get(name) ?? 0) + ms);
      gapMax = Math.max(gapMax, (p.timeDeltas[i + 1] ?? 0) / 1000);
    }
    if (end < p.startTime || start > p.endTime) console.log(`--at ${end} is outside this profile (${p.startTime} to ${p.endTime})`);
    else {
      console.log(`the ${values.span} ms before ${end} µs: the longest time between two samples ${gapMax.toFixed(1)} ms; by self time:`);
      for (const [n, ms] of [...inWindow].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${n}`);
    }
  }
  console.log(`longest tasks (busy runs with no idle sample):`);
  for (const r of runs.sort((a, b) => b.ms - a.ms).slice(0, top)) {
    const mostly = [...r.by].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join('; ');
    console.log(`  ${r.ms.toFixed(1).padStart(7)} ms at +${r.at.toFixed(0)} ms: ${mostly}`);
  }
  console.log(`self time:`);
  for (const [n, ms] of [...self].filter(([n]) => n !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${n}`);

  const heapFile = file.replace(/\.cpuprofile$/, '.heapprofile');
  let heap;
  try { heap = JSON.parse(readFileSync(heapFile, 'utf8')); } catch { continue; }
  const alloc = new Map();
  const walk = (n) => {
    const name = where(n.callFrame);
    alloc.set(name, (alloc.get(name) ?? 0) + n.selfSize);
    for (const c of n.children ?? []) walk(c);
  };
  walk(heap.head);
  const sum = [...alloc.values()].reduce((a, b) => a + b, 0);
  console.log(`allocated (sampled, still live at the end or not: ${(sum / 1e6).toFixed(1)} MB):`);
  for (const [n, bytes] of [...alloc].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(bytes / 1e6).toFixed(2).padStart(7)} MB  ${n}`);
  if (!values.who) continue;
  const stacks = new Map();
  const climb = (n, chain) => {
    const here = [where(n.callFrame), ...chain];
    if (n.callFrame.functionName === values.who) {
      const key = here.slice(0, 10).join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + n.selfSize);
    }
    for (const c of n.children ?? []) climb(c, here);
  };
  climb(heap.head, []);
  console.log(`allocated by ${values.who}, by stack (innermost first):`);
  for (const [k, bytes] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 3)) console.log(`  ${(bytes / 1e6).toFixed(1).padStart(7)} MB  ${k}`);
}

// `npm run bench [-- --only <substring>] [-- --json FILE]`: runs every test/bench/*.bench.ts (see context.ts
// for the contract), prints one table of figures and, with --json, writes them all to FILE as
// { name: { value, unit, baseline?, ratio? } }. A bench that throws is reported and the others still run;
// the exit code is then 1.
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBenchContext, type BenchContext, type Figure } from './context';

interface Args { only?: string; json?: string }

function parseArgs(argv: string[]): Args {
  const args: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--only') args.only = value();
    else if (a === '--json') args.json = value();
    else if (a.startsWith('--only=')) args.only = a.slice(7);
    else if (a.startsWith('--json=')) args.json = a.slice(7);
    else throw new Error(`unknown argument ${a} (expected --only <substring>, --json FILE)`);
  }
  return args;
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3);
}

function printTable(figures: Map<string, Figure>): void {
  const rows = [['figure', 'value', 'unit', 'baseline', 'ratio']];
  for (const [name, f] of figures) {
    rows.push([name, formatValue(f.value), f.unit, f.baseline ? `${f.baseline.name} (${formatValue(f.baseline.value)})` : '', f.ratio !== undefined ? `${f.ratio.toFixed(2)}x` : '']);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 1 || c === 4 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(line(r));
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const benchDir = __dirname;
  const root = resolve(benchDir, '..', '..');
  const files = readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts') && (args.only === undefined || f.includes(args.only)))
    .sort();
  if (files.length === 0) {
    console.error(`no benchmarks${args.only ? ` matching "${args.only}"` : ''} in ${benchDir}`);
    return 1;
  }
  const figures = new Map<string, Figure>();
  const ctx: BenchContext = createBenchContext(root, figures);
  let failed = 0;
  for (const file of files) {
    process.stderr.write(`${file}\n`);
    try {
      const mod = (await import(pathToFileURL(join(benchDir, file)).href)) as { default?: unknown };
      // tsx may hand the ESM namespace of a CommonJS-compiled module with the function one level down.
      const fn = typeof mod.default === 'function' ? mod.default : (mod.default as { default?: unknown } | undefined)?.default;
      if (typeof fn !== 'function') throw new Error('no default export function (ctx: BenchContext) => Promise<void>');
      await (fn as (c: BenchContext) => Promise<void>)(ctx);
    } catch (e) {
      failed++;
      console.error(`  FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }
  printTable(figures);
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify(Object.fromEntries(figures), null, 2)}\n`);
    process.stderr.write(`wrote ${figures.size} figures to ${args.json}\n`);
  }
  if (failed) console.error(`${failed} benchmark file(s) failed`);
  return failed ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});

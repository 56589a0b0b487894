// host.activate (issue 11): how long `activate()` of the PACKAGED extension takes in a real editor, from its
// first line to its return (the extension logs it: "activate took N ms"), the median of 5 starts. Each start is
// a fresh code-server with the .vsix installed and only the activation suite run (test/editor-host/run.mjs
// --vsix --grep '^activation ' --keep); the log is read from the kept profile. The module's own load (require
// of dist/extension.js) happens before activate and is not in this figure; package.extension.js tracks its size.
// Needs the editor host, which it installs when missing (needs.ts: bash test/editor-host/setup.sh).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context';
import { EDITOR_HOST, ensure } from './needs';

const STARTS = 5;
const LOG_LINE = /activate took ([\d.]+) ms/;

function run(root: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** The extension's log files under a kept editor profile ("Serverless GPU.log", its output channel). */
function extensionLogs(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'Serverless GPU.log') found.push(p);
    }
  };
  walk(dir);
  return found;
}

export default async function activationBench(ctx: BenchContext): Promise<void> {
  await ensure(EDITOR_HOST, ctx.root, ctx.log);
  const dir = mkdtempSync(join(tmpdir(), 'serverless-gpu-bench-activate-'));
  try {
    const vsix = join(dir, 'bench.vsix');
    const pack = spawnSync(process.execPath, ['scripts/package.mjs', '--out', vsix], { cwd: ctx.root, encoding: 'utf8' });
    if (pack.status !== 0) throw new Error(`packaging failed:\n${pack.stdout}${pack.stderr}`);
    const times: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const { code, out } = await run(ctx.root, ['test/editor-host/run.mjs', '--vsix', vsix, '--grep', '^activation ', '--keep']);
      const kept = /editor tests: keeping (\S+)/.exec(out)?.[1];
      try {
        if (code !== 0 || !kept) throw new Error(`the activation run failed (exit ${code}):\n${out.slice(-2000)}`);
        const ms = extensionLogs(kept).map((f) => LOG_LINE.exec(readFileSync(f, 'utf8'))?.[1]).find((m) => m !== undefined);
        if (ms === undefined) throw new Error(`no "activate took" line in the extension's log under ${kept}`);
        times.push(Number(ms));
        ctx.log(`activation ${i + 1}/${STARTS}: ${ms} ms`);
      } finally {
        if (kept) rmSync(kept, { recursive: true, force: true });
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    ctx.report('host.activate', sorted[Math.floor(sorted.length / 2)]!, 'ms');
    ctx.report('host.activate.max', sorted[sorted.length - 1]!, 'ms');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

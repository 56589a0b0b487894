// Package figures (issue 6): the size of the .vsix and of the production dist/extension.js it carries, each
// against its budget. The "baseline" here is the budget, so the ratio reads as the share of the budget used
// (over 1.00x = over budget). Packaging happens in a staging folder (scripts/package.mjs), so the working
// tree's dist/ is left as it was.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context';

// Why these numbers: a user downloads the .vsix once and VS Code parses extension.js on every activation.
// The budgets leave room for the features, not for a second large library (the full zod build alone once
// took ~450 KiB of extension.js). extension.js holds what every session needs; the rooms a session may never
// open are dist/rooms.js, parsed on first use (issues 28, 30: at most 200 KiB for extension.js).
const VSIX_BUDGET_BYTES = 1024 * 1024;
const EXTENSION_JS_BUDGET_BYTES = 200 * 1024;

export default async function packageBench(ctx: BenchContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'serverless-gpu-bench-vsix-'));
  try {
    const vsix = join(dir, 'bench.vsix');
    const r = spawnSync(process.execPath, ['scripts/package.mjs', '--out', vsix], { cwd: ctx.root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run package failed:\n${r.stdout}${r.stderr}`);
    // The exact bytes package.mjs prints beside the rounded KiB.
    const extensionJs = /dist\/extension\.js [\d.]+ KiB \((\d+) bytes\)/.exec(r.stdout);
    const roomsJs = /dist\/rooms\.js [\d.]+ KiB \((\d+) bytes\)/.exec(r.stdout);
    if (!extensionJs) throw new Error(`package.mjs did not report the size of dist/extension.js:\n${r.stdout}`);

    ctx.report('package.vsixBudget', VSIX_BUDGET_BYTES, 'bytes');
    ctx.report('package.vsix', statSync(vsix).size, 'bytes', { name: 'package.vsixBudget', value: VSIX_BUDGET_BYTES });
    ctx.report('package.extensionJsBudget', EXTENSION_JS_BUDGET_BYTES, 'bytes');
    ctx.report('package.extension.js', Number(extensionJs[1]), 'bytes', { name: 'package.extensionJsBudget', value: EXTENSION_JS_BUDGET_BYTES });
    // Loaded on first use: no budget of its own (the .vsix's covers it), reported so its growth is seen.
    if (roomsJs) ctx.report('package.rooms.js', Number(roomsJs[1]), 'bytes');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Issue 23's `batch.resumeLoss`: a JSONL batch of 150 jobs in a real VS Code, its extension host SIGKILLed once
// the service accepted a third of them, the window loaded again and the batch resumed; jobs counted on the
// emulator's side. Runs test/editor-host/resume-kill.mjs (the same driver `npm test` runs with 45 jobs) with
// --jobs and --json, and reports what it wrote. `batch.resumeLoss` = lost + submitted twice (target 0); its parts
// and where the kill landed are figures of their own. Needs the editor host (needs.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context';
import { EDITOR_HOST, ensure } from './needs';

const JOBS = 150;

interface ResumeFigures {
  jobs: number;
  lost: number;
  submittedTwice: number;
  unknownRows: number;
  /** Rows a kill caught between their line and their /run's last byte: no job, by design (not in `lost`). */
  caughtAtLastByte: number;
  acceptedBeforeKill: number;
  jobsCreated: number;
  resumeSeconds: number;
}

export default async function batchResumeBench(ctx: BenchContext): Promise<void> {
  await ensure(EDITOR_HOST, ctx.root, ctx.log);
  const dir = mkdtempSync(join(tmpdir(), 'serverless-gpu-bench-resume-'));
  try {
    const out = join(dir, 'resume.json');
    const driver = spawn(process.execPath, [join(ctx.root, 'test/editor-host/resume-kill.mjs'), '--jobs', String(JOBS), '--json', out], { cwd: ctx.root, stdio: ['ignore', 'pipe', 'pipe'] });
    // The driver's lines go to the bench's progress (stderr), so the table on stdout stays clean.
    for (const stream of [driver.stdout, driver.stderr]) stream.on('data', (d: Buffer) => { for (const line of d.toString().split('\n')) if (line.trim()) ctx.log(`resume: ${line.trim()}`); });
    const code = await new Promise<number>((resolve, reject) => {
      driver.once('error', reject);
      driver.once('exit', (c) => resolve(c ?? 1));
    });
    if (!existsSync(out)) throw new Error(`resume-kill.mjs wrote no figures (exit ${code}); see its output above`);
    const f = JSON.parse(readFileSync(out, 'utf8')) as ResumeFigures;
    // Reported even when the driver failed (a job lost or sent twice is the figure, not a crash of the bench).
    ctx.report('batch.resumeLoss', f.lost + f.submittedTwice, 'jobs');
    ctx.report('batch.resumeLoss.lost', f.lost, 'jobs');
    ctx.report('batch.resumeLoss.submittedTwice', f.submittedTwice, 'jobs');
    ctx.report('batch.resumeLoss.unknownRows', f.unknownRows, 'jobs');
    ctx.report('batch.resumeLoss.caughtAtLastByte', f.caughtAtLastByte, 'jobs');
    ctx.report('batch.resumeLoss.acceptedBeforeKill', f.acceptedBeforeKill, 'jobs');
    if (code !== 0) throw new Error(`the resume run failed (exit ${code}); its figures are reported above`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

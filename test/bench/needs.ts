// What some benches need installed, installed the way `npm test` does it (scripts/test.mjs), so that on a fresh
// clone `npm run bench` measures every figure instead of skipping those of the real editor and the worker SDK:
// - the editor host (code-server + chromium): `bash test/editor-host/setup.sh`, for activation.bench.ts and
//   editorHost.bench.ts;
// - the worker venv (.venv-worker with runpod pinned): `node scripts/python-env.mjs`, for worker.bench.ts.
// Both commands are idempotent and return at once when everything is in place. Each runs at most once per bench
// run, when the first bench that needs it starts, so `--only emulator` installs nothing. Their output goes to
// stderr with the benches' progress; the table on stdout stays clean.
import { spawn } from 'node:child_process';

export interface Need {
  name: string;
  cmd: string;
  args: string[];
}

export const EDITOR_HOST: Need = { name: 'the editor host', cmd: 'bash', args: ['test/editor-host/setup.sh'] };
export const WORKER_VENV: Need = { name: 'the worker venv', cmd: process.execPath, args: ['scripts/python-env.mjs'] };

/** python-env.mjs's exit code for "no python3 on this machine" (with CI=true it exits 1 instead). */
const NO_PYTHON = 3;

export type Readiness = { ready: true } | { ready: false; why: string };

const runs = new Map<string, Promise<Readiness>>();

/**
 * Installs `need` (once per process) from the repository root `root`. Resolves ready, or not ready with the
 * reason when the machine has no python3 (the one case `npm test` also skips); any other failure rejects, so
 * the bench that needed it is reported FAILED with the command's exit code.
 */
export function ensure(need: Need, root: string, log: (line: string) => void): Promise<Readiness> {
  let run = runs.get(need.name);
  if (!run) {
    run = install(need, root, log);
    runs.set(need.name, run);
  }
  return run;
}

function install(need: Need, root: string, log: (line: string) => void): Promise<Readiness> {
  log(`installing ${need.name} if missing: ${need.cmd === process.execPath ? 'node' : need.cmd} ${need.args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(need.cmd, need.args, { cwd: root, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve({ ready: true });
      else if (need === WORKER_VENV && code === NO_PYTHON) resolve({ ready: false, why: 'no python3 on this machine (scripts/python-env.mjs)' });
      else reject(new Error(`${need.cmd} ${need.args.join(' ')} failed (exit ${code ?? signal}): ${need.name} could not be installed`));
    });
  });
}

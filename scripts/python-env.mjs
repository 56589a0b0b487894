// The project-local Python environment of issue 14: `.venv-worker/` (gitignored) with the platform's Python
// package `runpod`, pinned, which is both the worker SDK the emulated workers run on and the Python client of the
// client suite. Idempotent: when the venv already has the pinned version it only says so (one `python -c`).
// Called by scripts/test.mjs before the Python suites; CI starts from a clean clone, so this is what installs it.
//
// usage: node scripts/python-env.mjs [--print]   (--print: only print the venv's python path, or nothing)
// Exit codes: 0 ready (prints the venv's python on its last line); 3 no python3 on this machine (the suites are
// then skipped, except with CI=true, when it is a failure: exit 1); 1 anything else went wrong.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const RUNPOD_VERSION = '1.12.0';
export const VENV = resolve('.venv-worker');
export const VENV_PYTHON = process.platform === 'win32' ? join(VENV, 'Scripts', 'python.exe') : join(VENV, 'bin', 'python');

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { encoding: 'utf8', ...opts });
}

/** The venv's runpod version, or undefined when the venv or the package is missing. */
function installedVersion() {
  if (!existsSync(VENV_PYTHON)) return undefined;
  const r = run(VENV_PYTHON, ['-c', 'import importlib.metadata as m; print(m.version("runpod"))']);
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function findPython() {
  for (const cmd of [process.env.PYTHON, 'python3', 'python'].filter(Boolean)) {
    const r = run(cmd, ['-c', 'import sys; print(sys.version_info >= (3, 8))']);
    if (r.status === 0 && r.stdout.trim() === 'True') return cmd;
  }
  return undefined;
}

function main() {
  if (installedVersion() === RUNPOD_VERSION) {
    console.log(`python-env: ${VENV} has runpod ${RUNPOD_VERSION}`);
    console.log(VENV_PYTHON);
    return 0;
  }
  const python = findPython();
  if (!python) {
    console.log('python-env: no python3 (3.8 or later) on this machine, so the worker and Python client suites cannot run');
    return process.env.CI === 'true' ? 1 : 3;
  }
  if (!existsSync(VENV_PYTHON)) {
    console.log(`python-env: creating ${VENV} with ${python}`);
    const r = run(python, ['-m', 'venv', VENV], { stdio: 'inherit' });
    if (r.status !== 0) {
      console.log(`python-env: \`${python} -m venv\` failed (on Debian: apt-get install python3-venv)`);
      return 1;
    }
  }
  console.log(`python-env: pip install runpod==${RUNPOD_VERSION} (and pytest) into ${VENV}`);
  const r = run(VENV_PYTHON, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', `runpod==${RUNPOD_VERSION}`, 'pytest==8.3.4'], { stdio: 'inherit' });
  if (r.status !== 0 || installedVersion() !== RUNPOD_VERSION) {
    console.log('python-env: pip install failed');
    return 1;
  }
  console.log(VENV_PYTHON);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve('scripts/python-env.mjs')) process.exit(main());

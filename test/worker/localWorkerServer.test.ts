// The editor's two emulator launchers (src/localWorker/localWorkerServer.ts for Serve Worker Locally,
// src/connection/emulatorLauncher.ts for Use Local Emulator) run here without the editor, as the extension host
// runs them: the emulator they start, and the user's worker processes under it, end with the process that
// started it even when that process is SIGKILLed (--exit-with-stdin); both yield the cores to the editor (a
// session of their own, below-normal priority: src/connection/yieldToEditor.ts); and restarts of the local worker
// run one after the other, so two quick ones leave exactly one emulator and stop() leaves none.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { constants, getPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../../src/core/log';
import { LocalWorkerServer } from '../../src/localWorker/localWorkerServer';
import { LOCAL_WORKER_KEY } from '../../src/localWorker/workerFile';
import { FIXTURES, processesInGroup, ROOT, skipReason, VENV_PYTHON, waitFor } from './workerHarness';

const skip = skipReason();
if (skip) console.log(`# skipped: ${skip}`);
const HANDLER = resolve(FIXTURES, 'sleeping_handler.py');

/** Live (not zombie) processes whose parent is `ppid` and whose command line holds `needle` (Linux /proc). */
function childrenOf(ppid: number, needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== ppid || fields[0] === 'Z') continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The session a process leads or belongs to (field 6 of /proc/PID/stat). */
function sessionOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

/**
 * The emulator yields the cores to the editor (src/connection/yieldToEditor.ts): a session of its own (so a
 * scheduling group of its own where the kernel groups by session), below-normal priority for that group and for
 * every thread of `pid`.
 */
function assertYieldsToEditor(pid: number, starter: number, what: string): void {
  assert.notEqual(sessionOf(pid), sessionOf(starter), `${what} runs in a session of its own`);
  for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
    assert.equal(getPriority(tid), constants.priority.PRIORITY_BELOW_NORMAL, `${what}: thread ${tid} below normal priority`);
  }
  if (existsSync('/proc/sys/kernel/sched_autogroup_enabled') && readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1') {
    assert.match(readFileSync(`/proc/${pid}/autogroup`, 'utf8'), / nice 10\b/, `${what}: its scheduling group below normal priority`);
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function workerPids(origin: string, endpointId: string): Promise<number[] | undefined> {
  const r = await fetch(`${origin}/__emulator/endpoints/${endpointId}/workers`, { headers: { Authorization: `Bearer ${LOCAL_WORKER_KEY}` } });
  const pids = ((await r.json()) as { workers: Array<{ pid: number | null; status: string }> }).workers.filter((w) => w.pid && w.status !== 'unhealthy').map((w) => w.pid!);
  return pids.length ? pids : undefined;
}

/** Starts test/worker/launcherParent.ts (the extension host's stand-in) and waits for the line it prints. */
async function startParent(args: string[]): Promise<{ parent: ChildProcess; origin: string; endpointId?: string }> {
  const parent = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, 'launcherParent.ts'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  parent.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
  const line = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`the parent did not start the emulator: ${out}`)), 30_000);
    parent.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^\{.*\}$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        res(m[0]);
      }
    });
    parent.once('exit', (code) => rej(new Error(`the parent exited (${code}): ${out}`)));
  });
  return { parent, ...(JSON.parse(line) as { origin: string; endpointId?: string }) };
}

describe('the emulator ends with the process that started it, even one killed with SIGKILL', () => {
  const killed: number[] = [];
  // The parents too: a failed assertion before a test kills its parent would leave it (and the run) waiting.
  const parents: ChildProcess[] = [];
  after(() => {
    for (const p of parents) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    for (const pid of killed) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  test('Serve Worker Locally: the emulator and the worker processes under it exit within seconds', { skip }, async () => {
    const { parent, origin, endpointId } = await startParent(['local-worker', HANDLER, VENV_PYTHON]);
    parents.push(parent);
    const [emulator] = childrenOf(parent.pid!, 'emulator.js');
    assert.ok(emulator, 'the parent runs an emulator');
    killed.push(emulator);
    const workers = await waitFor('the warm worker to have a pid', () => workerPids(origin, endpointId!));
    assertYieldsToEditor(emulator, parent.pid!, 'the emulator');
    for (const pid of workers) assertYieldsToEditor(pid, parent.pid!, `the worker process ${pid}`);
    parent.kill('SIGKILL');
    await waitFor('the emulator to exit', async () => (alive(emulator) ? undefined : true), 8000);
    await waitFor('its worker processes to exit', async () => (workers.every((pgid) => processesInGroup(pgid).length === 0) ? true : undefined), 8000);
  });

  test('Use Local Emulator: the emulator exits within seconds', async () => {
    const { parent } = await startParent(['emulator']);
    parents.push(parent);
    const [emulator] = childrenOf(parent.pid!, 'emulator.js');
    assert.ok(emulator, 'the parent runs an emulator');
    killed.push(emulator);
    assertYieldsToEditor(emulator, parent.pid!, 'the emulator');
    parent.kill('SIGKILL');
    await waitFor('the emulator to exit', async () => (alive(emulator) ? undefined : true), 8000);
  });
});

describe('restarting the local worker', { skip }, () => {
  test('two restarts at once leave exactly one emulator, on the same port, and no stray exit; stop() leaves none', async () => {
    // A temp folder of this test's own: the server makes its config folder under os.tmpdir(), and another run of
    // the suites side by side (CI, the 10-run loops) makes its own there at the same time (this failed so).
    const ownTmp = mkdtempSync(join(tmpdir(), 'restart-test-'));
    const savedTmpdir = process.env['TMPDIR'];
    process.env['TMPDIR'] = ownTmp;
    const workerDirs = () => new Set(readdirSync(ownTmp).filter((n) => n.startsWith('serverless-gpu-worker-')));
    const before = workerDirs();
    let exits = 0;
    const server = new LocalWorkerServer(ROOT, silentLogger, () => { exits++; });
    try {
      assert.equal(tmpdir(), ownTmp, 'os.tmpdir() follows TMPDIR');
      const first = await server.start(HANDLER, VENV_PYTHON);
      const [a, b] = await Promise.all([server.start(HANDLER, VENV_PYTHON), server.start(HANDLER, VENV_PYTHON)]);
      assert.equal(a.origin, first.origin, 'a restart keeps the port');
      assert.equal(b.origin, first.origin);
      assert.deepEqual(childrenOf(process.pid, 'emulator.js'), [server.pid], 'one emulator runs, the one the server holds');
      assert.equal([...workerDirs()].filter((d) => !before.has(d)).length, 1, 'one config folder');
      await server.stop();
      assert.deepEqual(childrenOf(process.pid, 'emulator.js'), []);
      assert.deepEqual([...workerDirs()].filter((d) => !before.has(d)), [], 'no config folder left behind');
      assert.equal(exits, 0, 'an emulator the server stopped itself is not reported as stopped on its own');
    } finally {
      await server.stop();
      if (savedTmpdir === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = savedTmpdir;
      rmSync(ownTmp, { recursive: true, force: true });
    }
  });
});

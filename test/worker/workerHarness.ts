// Shared by the worker suites (issue 14): the project's Python venv (scripts/python-env.mjs makes it), the worker
// fixtures of test/fixtures/workers/, an emulator CLI with `worker` endpoints on them, and the processes of a
// worker's process group (read from /proc, so the heartbeat child the SDK forks is seen too).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { client, moveClock, startEmulator, type Emulator } from '../emulator/harness';

export const ROOT = resolve(__dirname, '../..');
export const VENV_PYTHON = resolve(ROOT, process.platform === 'win32' ? '.venv-worker/Scripts/python.exe' : '.venv-worker/bin/python');
export const FIXTURES = resolve(ROOT, 'test/fixtures/workers');
export const KEY = 'k-worker';

/**
 * Why these suites cannot run here, or undefined when they can. With CI=true a missing venv is a failure, never a
 * skip (the test command installs it first; CI starts from a clean clone).
 */
export function skipReason(): string | undefined {
  if (existsSync(VENV_PYTHON)) return undefined;
  const why = `no Python venv at ${VENV_PYTHON} (node scripts/python-env.mjs makes it; it needs python3)`;
  if (process.env.CI === 'true') throw new Error(`${why}: with CI=true the worker suites must run`);
  return why;
}

export function workerEndpoint(id: string, fixture: string, extra: Record<string, unknown> = {}, worker: Record<string, unknown> = {}) {
  return {
    id, kind: 'worker', queueMs: 0, workersMax: 1, idleTimeoutMs: 60_000,
    worker: { command: [VENV_PYTHON, resolve(FIXTURES, fixture)], cwd: FIXTURES, ...worker },
    ...extra,
  };
}

export function workerConfig(endpoints: unknown[]) {
  return { users: [{ id: 'dev', keys: [{ key: KEY, scopes: ['jobs:run', 'jobs:read', 'endpoints:read'] }], endpoints }] };
}

export async function startWorkerEmulator(endpoints: unknown[]): Promise<Emulator> {
  return startEmulator(workerConfig(endpoints), { admin: true });
}

export function api(emu: Emulator) {
  const c = client(emu.url, KEY);
  return {
    ...c,
    async submit(endpoint: string, input: unknown, extra: Record<string, unknown> = {}): Promise<string> {
      const r = await c.post(`/v2/${endpoint}/run`, { input, ...extra });
      if (r.status !== 200) throw new Error(`run: ${r.status} ${r.text}`);
      return r.json.id as string;
    },
    async status(endpoint: string, id: string) {
      return (await c.get(`/v2/${endpoint}/status/${id}`)).json;
    },
    /** Held until the job ends (status-sync), or `waitMs`. */
    async settle(endpoint: string, id: string, waitMs = 60_000) {
      return (await c.get(`/v2/${endpoint}/status-sync/${id}?wait=${waitMs}`, { timeoutMs: waitMs + 10_000 })).json;
    },
    async processes(endpoint: string): Promise<Array<{ id: string; status: string; pid: number | null; coldStartMs: number | null; jobs: string[]; exitCode?: number; unhealthyReason?: string }>> {
      const r = await c.get(`/__emulator/endpoints/${endpoint}/workers`);
      if (r.status !== 200) throw new Error(`workers: ${r.status} ${r.text}`);
      return r.json.workers;
    },
    async logs(endpoint: string, q = ''): Promise<Array<{ seq: number; workerId: string; jobId?: string; stream: string; text: string }>> {
      const r = await c.get(`/__emulator/endpoints/${endpoint}/logs${q}`);
      if (r.status !== 200) throw new Error(`logs: ${r.status} ${r.text}`);
      return r.json.lines;
    },
    advance: (ms: number) => moveClock(emu.url, { advanceMs: ms }),
  };
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Every live process whose process group is `pgid` (Linux /proc; elsewhere the group leader only). */
export function processesInGroup(pgid: number): number[] {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Decodes a `data:image/png;base64,...` URL's width and height from its IHDR. */
export function pngSize(dataUrl: string): { width: number; height: number } {
  const b = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  assertPng(b);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function assertPng(b: Buffer): void {
  if (b.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
}

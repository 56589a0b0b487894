// The conformance suite's only door to the emulator: the built CLI (dist/emulator.js) as a separate process,
// spoken to over real HTTP on 127.0.0.1, exactly as a user or the extension would (issue #3 "Done when").
// No in-process shortcut, no mocked fetch: a test that passes here passes against the real binary.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** EMULATOR_CLI points the suite at another build (for example a deliberately broken one, to see tests fail). */
export const CLI = resolve(process.env.EMULATOR_CLI ?? resolve(__dirname, '../../dist/emulator.js'));
/** Generous: the machine is a busy 2-core box shared by several engineers. */
const READY_TIMEOUT_MS = 30_000;

export interface Emulator {
  url: string;
  proc: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM and wait for the exit; resolves with the exit code (null if killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`node scripts/build.mjs\` first (npm run test:emulator does)`);
}

/** Writes `config` to a fresh temp file; returns its path and a cleanup function. */
export function writeConfig(config: unknown): { file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-test-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts `node dist/emulator.js --port 0 [--config tmp] [--admin]` and waits for its ready line. */
export async function startEmulator(config: unknown | undefined, opts: { admin?: boolean; extraArgs?: string[] } = {}): Promise<Emulator> {
  assertBuilt();
  const written = config === undefined ? undefined : writeConfig(config);
  const args = [CLI, '--port', '0'];
  if (written) args.push('--config', written.file);
  if (opts.admin ?? true) args.push('--admin');
  args.push(...(opts.extraArgs ?? []));
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.setEncoding('utf8');
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => { out += d; });
  const exited = once(proc, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // Never leave an emulator behind, even when a test file dies before its `after` hook runs.
  const killOnExit = (): void => { proc.kill('SIGKILL'); };
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator not ready after ${READY_TIMEOUT_MS} ms:\n${out}`)), READY_TIMEOUT_MS);
    proc.stdout!.on('data', (d: string) => {
      out += d;
      const m = /http:\/\/[^\s/]+:\d+/.exec(out);
      if (m) { clearTimeout(timer); resolveUrl(m[0]); }
    });
    void exited.then(([code, signal]) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited (code ${code}, signal ${signal}) before it was ready:\n${out}`));
    });
  });

  return {
    url,
    proc,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const [code, sig] = await exited;
      written?.cleanup();
      return { code, signal: sig };
    },
  };
}

/** Runs the CLI to completion (for configs it must refuse); resolves with its exit code and output. */
export async function runCli(args: string[], timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  assertBuilt();
  const proc = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
  proc.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(proc, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: any;
}

export interface RequestOptions {
  method?: string;
  key?: string;
  /** Sent as is when a string or Buffer, JSON-encoded otherwise. */
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One HTTP request on a fresh connection (no keep-alive, so nothing lingers between tests). */
export function request(base: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const url = new URL(path, base);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  let payload: Buffer | undefined;
  if (opts.body !== undefined) {
    payload = Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolveReply, reject) => {
    const req = http.request(url, { method: opts.method ?? (payload ? 'POST' : 'GET'), headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: unknown;
        try { json = text.length ? JSON.parse(text) : undefined; } catch { json = undefined; }
        resolveReply({ status: res.statusCode ?? 0, headers: res.headers, body, text, json });
      });
    });
    req.setTimeout(opts.timeoutMs ?? 120_000, () => req.destroy(new Error(`${req.method} ${path}: no answer in time`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A client bound to one emulator and (optionally) one key. */
export function client(base: string, key?: string) {
  return {
    get: (path: string, o: RequestOptions = {}) => request(base, path, { key, ...o, method: 'GET' }),
    post: (path: string, body: unknown, o: RequestOptions = {}) => request(base, path, { key, ...o, method: 'POST', body }),
  };
}

/** The admin clock (issue #3 "Admin"): move it by `advanceMs` or set it to `now`; returns the new time. */
export async function moveClock(base: string, move: { advanceMs: number } | { now: string }): Promise<Date> {
  const r = await request(base, '/__admin/clock', { method: 'POST', body: move });
  if (r.status !== 200) throw new Error(`admin clock answered ${r.status}: ${r.text}`);
  return new Date(r.json.now);
}

// One emulated worker's operating-system process (issue 14): the user's command, started through a small
// watchdog so that no worker outlives the emulator, whatever way the emulator ends.
//
// Why a watchdog: the platform's SDK forks (its heartbeat runs in a multiprocessing child), handlers may start
// their own children, and an emulator killed with SIGKILL runs no cleanup code. So every worker gets its own
// process group (the command is spawned `detached`, i.e. setsid: its pid is the group id), and a watchdog node
// process sits between the emulator and that group holding a pipe to the emulator on its stdin. The kernel
// closes that pipe when the emulator dies for any reason; the watchdog then SIGKILLs the whole group (heartbeat
// child included) and exits. When the worker exits on its own, the watchdog kills what is left of its group too
// and exits with the worker's code (128 + n for a signal). The emulator itself kills a group directly with
// process.kill(-pgid) when it retires a worker or closes. POSIX only (Linux, macOS): process groups.
import { spawn, type ChildProcess } from 'node:child_process';

// Run with `node -e`: argv[1] is the JSON command. The worker's pid goes to fd 3 (the emulator's side pipe),
// its stdout and stderr are the watchdog's own (pipes the emulator reads). Terminal signals are ignored: the
// emulator decides when its workers stop.
const WATCHDOG = `
const { spawn } = require('child_process');
const { writeSync, writeFileSync, constants: _c } = require('fs');
const os = require('os');
const [cmd, ...args] = JSON.parse(process.argv[1]);
let child;
const killGroup = () => { if (child && child.pid) { try { process.kill(-child.pid, 'SIGKILL'); } catch {} } };
child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
child.on('error', (e) => { process.stderr.write('cannot start ' + cmd + ': ' + e.message + '\\n'); process.exit(127); });
if (child.pid) { try { writeSync(3, child.pid + '\\n'); } catch {} }
// The worker's scheduling group (its session's, Linux) at the watchdog's priority: an emulator the extension
// started below the editor's (src/connection/yieldToEditor.ts) keeps a user's handler there too.
if (child.pid && process.platform === 'linux' && os.getPriority() > 0) { try { writeFileSync('/proc/' + child.pid + '/autogroup', String(os.getPriority())); } catch {} }
child.on('exit', (code, signal) => { killGroup(); process.exit(code !== null ? code : 128 + (os.constants.signals[signal] || 0)); });
const gone = () => { killGroup(); process.exit(0); };
process.stdin.on('data', () => {});
process.stdin.on('end', gone);
process.stdin.on('error', gone);
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
process.on('SIGTERM', gone);
`;

const MAX_LINE = 8192;

export interface WorkerProcessOptions {
  command: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** Each complete line the worker printed. */
  onLine: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Once, when the worker (and its watchdog) have exited: the worker's exit code (128 + n after signal n). */
  onExit: (code: number) => void;
}

export class WorkerProcess {
  /** The worker's pid, which is also its process group id; undefined until the watchdog has reported it. */
  pid: number | undefined;
  private readonly watchdog: ChildProcess;
  private exited = false;

  constructor(o: WorkerProcessOptions) {
    this.watchdog = spawn(process.execPath, ['-e', WATCHDOG, JSON.stringify(o.command)], {
      cwd: o.cwd,
      env: o.env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    const side = this.watchdog.stdio[3] as NodeJS.ReadableStream;
    side.setEncoding('utf8');
    side.on('data', (d: string) => {
      const pid = Number.parseInt(d, 10);
      if (Number.isInteger(pid) && pid > 0) this.pid = pid;
    });
    side.on('error', () => {});
    this.watchdog.stdin!.on('error', () => {}); // EPIPE once the watchdog is gone
    lines(this.watchdog.stdout!, (t) => o.onLine('stdout', t));
    lines(this.watchdog.stderr!, (t) => o.onLine('stderr', t));
    this.watchdog.on('error', (err) => {
      o.onLine('stderr', `cannot start the worker's watchdog: ${err.message}`);
      if (!this.exited) {
        this.exited = true;
        o.onExit(127);
      }
    });
    this.watchdog.on('exit', (code, signal) => {
      if (this.exited) return;
      this.exited = true;
      o.onExit(code ?? (signal ? 128 + 9 : 1));
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Kills the worker's whole process group at once (SIGKILL: the platform gives a stopped worker no grace either). */
  kill(): void {
    if (this.pid !== undefined) {
      try {
        process.kill(-this.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.watchdog.stdin!.end();
    if (this.pid === undefined) this.watchdog.kill('SIGTERM'); // not spawned yet: the watchdog kills it on its way out
  }
}

function lines(stream: NodeJS.ReadableStream, onLine: (text: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    rest += d;
    let i: number;
    while ((i = rest.indexOf('\n')) >= 0) {
      onLine(rest.slice(0, i).replace(/\r$/, '').slice(0, MAX_LINE));
      rest = rest.slice(i + 1);
    }
    if (rest.length > MAX_LINE) {
      onLine(rest.slice(0, MAX_LINE));
      rest = '';
    }
  });
  stream.on('end', () => {
    if (rest) onLine(rest.slice(0, MAX_LINE));
  });
  stream.on('error', () => {});
}

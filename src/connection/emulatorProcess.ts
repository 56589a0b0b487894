// The bundled emulator (dist/emulator.js, shipped in the .vsix) as a child process of the extension host: for
// "Use Local Emulator" (emulatorLauncher.ts) and for "Serve Worker Locally" (../localWorker/localWorkerServer.ts).
// `process.execPath` is Node in code-server and the Electron binary in desktop VS Code; ELECTRON_RUN_AS_NODE=1
// makes the latter behave as Node too. One place, so a fix (such as --exit-with-stdin) reaches both.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import * as path from 'node:path';
import type { Logger } from '../core/log';
import { SESSION_OF_ITS_OWN, yieldCoresToEditor } from './yieldToEditor';

/** The emulator prints one line containing its origin when it is ready (issue #3). */
const READY_LINE = /(http:\/\/[^\s/]+)/;
const START_TIMEOUT_MS = 20_000;

export interface EmulatorProcess {
  child: ChildProcess;
  /** Its origin once it listens; rejects (and kills it) when it fails, exits or is silent for 20 s first. */
  ready: Promise<string>;
}

export interface EmulatorProcessOptions {
  extensionPath: string;
  /** After `--host 127.0.0.1`: the port, a config file. */
  args: readonly string[];
  /** What it is called in errors: "the local emulator". */
  name: string;
  /** The prefix of its output in the log: "[emulator]". */
  logTag: string;
  logger: Logger;
  /** The process ended, at any time (after `ready` too). */
  onExit: () => void;
}

/**
 * Spawns the emulator with `args` (after `--host 127.0.0.1`), yielding the cores to the editor (yieldToEditor.ts).
 * The editor suites start theirs with it too, so what they measure is what the extension runs.
 */
export function spawnEmulator(extensionPath: string, args: readonly string[]): ChildProcessByStdio<Writable, Readable, Readable> {
  // stdin a pipe with --exit-with-stdin: the emulator (and any worker processes under it) ends with the
  // extension host, even one that was SIGKILLed or crashed and never stopped it (a session of its own, which
  // SESSION_OF_ITS_OWN gives it, is not ended with the host's).
  const child = spawn(process.execPath, [path.join(extensionPath, 'dist', 'emulator.js'), '--host', '127.0.0.1', ...args, '--exit-with-stdin'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: SESSION_OF_ITS_OWN,
  });
  yieldCoresToEditor(child.pid);
  // Again once it runs (its first output is its ready line): threads node made before the first call.
  child.stdout.once('data', () => yieldCoresToEditor(child.pid));
  return child;
}

export function startEmulatorProcess(o: EmulatorProcessOptions): EmulatorProcess {
  const child = spawnEmulator(o.extensionPath, o.args);
  const ready = new Promise<string>((resolve, reject) => {
    let buffered = '';
    let settled = false;
    const fail = (message: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill();
      reject(new Error(message));
    };
    const timer = setTimeout(() => fail(`${o.name} did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (settled) {
        o.logger.debug(`${o.logTag} ${chunk.trimEnd()}`);
        return;
      }
      buffered += chunk;
      const match = READY_LINE.exec(buffered);
      if (match?.[1]) {
        settled = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => o.logger.warn(`${o.logTag} ${chunk.trimEnd()}`));
    child.on('error', (e) => fail(`${o.name} could not be started: ${e.message}`));
    child.on('exit', (code, signal) => {
      fail(`${o.name} exited before it was ready (code ${code ?? signal})`);
      o.onExit();
    });
  });
  return { child, ready };
}

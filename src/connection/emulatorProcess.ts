// The bundled emulator (dist/emulator.js, shipped in the .vsix) as a child process of the extension host: for
// "Use Local Emulator" (emulatorLauncher.ts) and for "Serve Worker Locally" (../localWorker/localWorkerServer.ts).
// `process.execPath` is Node in code-server and the Electron binary in desktop VS Code; ELECTRON_RUN_AS_NODE=1
// makes the latter behave as Node too. One place, so a fix (such as --exit-with-stdin) reaches both.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Logger } from '../core/log';

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

export function startEmulatorProcess(o: EmulatorProcessOptions): EmulatorProcess {
  const script = path.join(o.extensionPath, 'dist', 'emulator.js');
  // stdin a pipe with --exit-with-stdin: the emulator (and any worker processes under it) ends with the
  // extension host, even one that was SIGKILLed or crashed and never stopped it.
  const child = spawn(process.execPath, [script, '--host', '127.0.0.1', ...o.args, '--exit-with-stdin'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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

// Starts the bundled emulator (dist/emulator.js, shipped in the .vsix) as a child process for "Use Local
// Emulator", and stops it when the extension goes away. `process.execPath` is Node in code-server and the
// Electron binary in desktop VS Code; ELECTRON_RUN_AS_NODE=1 makes the latter behave as Node too.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { Logger } from '../core/log';

/** The emulator prints one line containing its origin when it is ready (issue #3). */
const READY_LINE = /(http:\/\/[^\s/]+)/;
const START_TIMEOUT_MS = 20_000;

export class EmulatorLauncher {
  private child: ChildProcess | undefined;
  private starting: Promise<string> | undefined;
  private url: string | undefined;

  constructor(private readonly extensionPath: string, private readonly logger: Logger, private readonly onExit: () => void = () => {}) {}

  /** The origin of the running emulator, if this window started one. */
  get origin(): string | undefined {
    return this.url;
  }

  /** Starts the emulator once; concurrent callers share the same start. Resolves with its origin. */
  start(): Promise<string> {
    if (this.url) return Promise.resolve(this.url);
    this.starting ??= this.spawn().finally(() => { this.starting = undefined; });
    return this.starting;
  }

  private spawn(): Promise<string> {
    const script = path.join(this.extensionPath, 'dist', 'emulator.js');
    return new Promise<string>((resolve, reject) => {
      // stdin a pipe with --exit-with-stdin: the emulator ends with the extension host, even one that was
      // SIGKILLed or crashed and never called stop().
      const child = spawn(process.execPath, [script, '--host', '127.0.0.1', '--port', '0', '--exit-with-stdin'], {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.child = child;
      let buffered = '';
      let settled = false;
      const fail = (message: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill();
        reject(new Error(message));
      };
      const timer = setTimeout(() => fail(`the local emulator did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        if (settled) {
          this.logger.debug(`[emulator] ${chunk.trimEnd()}`);
          return;
        }
        buffered += chunk;
        const match = READY_LINE.exec(buffered);
        if (match?.[1]) {
          settled = true;
          clearTimeout(timer);
          this.url = match[1];
          this.logger.info(`Local emulator listening on ${this.url}`);
          resolve(this.url);
        }
      });
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.logger.warn(`[emulator] ${chunk.trimEnd()}`));
      child.on('error', (e) => fail(`the local emulator could not be started: ${e.message}`));
      child.on('exit', (code, signal) => {
        fail(`the local emulator exited before it was ready (code ${code ?? signal})`);
        if (this.child === child) {
          this.child = undefined;
          this.url = undefined;
          this.onExit();
        }
      });
    });
  }

  stop(): void {
    const child = this.child;
    this.child = undefined;
    this.url = undefined;
    if (child && child.exitCode === null) child.kill('SIGTERM');
  }

  dispose(): void {
    this.stop();
  }
}

// Starts the bundled emulator (emulatorProcess.ts) for "Use Local Emulator", once per window, and stops it when
// the extension goes away.
import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../core/log';
import type { startEmulatorProcess } from './emulatorProcess';

/** How the emulator's process is started: the room's (dist/rooms.js) in the extension, emulatorProcess.ts in tests. */
export type StartEmulatorProcess = typeof startEmulatorProcess;

export class EmulatorLauncher {
  private child: ChildProcess | undefined;
  private starting: Promise<string> | undefined;
  private url: string | undefined;

  constructor(
    private readonly extensionPath: string, private readonly logger: Logger,
    private readonly startProcess: StartEmulatorProcess, private readonly onExit: () => void = () => {},
  ) {}

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

  private async spawn(): Promise<string> {
    // In the extension, starting a process is in dist/rooms.js (src/rooms): most sessions never use a local emulator.
    const started = this.startProcess({
      extensionPath: this.extensionPath, args: ['--port', '0'], name: 'the local emulator', logTag: '[emulator]', logger: this.logger,
      onExit: () => {
        if (this.child !== started.child) return;
        this.child = undefined;
        this.url = undefined;
        this.onExit();
      },
    });
    this.child = started.child;
    this.url = await started.ready;
    this.logger.info(`Local emulator listening on ${this.url}`);
    return this.url;
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

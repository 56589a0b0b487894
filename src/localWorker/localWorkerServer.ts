// The emulator that serves one local worker (issue 14 item 3): the bundled CLI (dist/emulator.js) started with a
// config of one `worker` endpoint running the user's file. A restart keeps the port, so the "Local worker"
// connection's URL, and everything the editor holds for it, stays valid. The emulator's own watchdogs make sure
// no worker process outlives it, and --exit-with-stdin that it does not outlive the extension host (README
// "Develop a worker locally").
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../core/log';
import { localWorkerConfig } from './workerFile';
import { startEmulatorProcess } from '../connection/emulatorProcess';

export interface ServedWorker {
  file: string;
  python: string;
  endpointId: string;
  origin: string;
}

export class LocalWorkerServer {
  private child: ChildProcess | undefined;
  private dir: string | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  served: ServedWorker | undefined;

  constructor(private readonly extensionPath: string, private readonly logger: Logger, private readonly onExit: () => void) {}

  /**
   * Starts (or restarts, on the same port) the emulator serving `file` with `python`. Starts and stops run one
   * after the other on one chain: two quick restarts (Save All with restart on save) would otherwise both stop
   * the same old emulator and both spawn a new one, leaving one of them running with nobody holding it.
   */
  start(file: string, python: string): Promise<ServedWorker> {
    return this.serialized(() => this.startNow(file, python));
  }

  /** Stops the emulator (and so every worker process); resolves once it has exited. */
  stop(): Promise<void> {
    return this.serialized(async () => {
      // Here, not before the call: a start queued ahead of this stop sets `served` when it ends.
      this.served = undefined;
      await this.stopNow();
    });
  }

  /** The emulator's process id while one runs (tests kill it to see what the editor does when it dies). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private serialized<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async startNow(file: string, python: string): Promise<ServedWorker> {
    const port = this.served ? Number(new URL(this.served.origin).port) : 0;
    await this.stopNow();
    const { config, endpointId } = localWorkerConfig(python, file);
    this.dir = mkdtempSync(path.join(tmpdir(), 'serverless-gpu-worker-'));
    const configFile = path.join(this.dir, 'config.json');
    writeFileSync(configFile, JSON.stringify(config, null, 2));
    try {
      const origin = await this.spawn(configFile, port);
      this.served = { file, python, endpointId, origin };
      return this.served;
    } catch (err) {
      this.served = undefined;
      await this.stopNow();
      throw err;
    }
  }

  private spawn(configFile: string, port: number): Promise<string> {
    const started = startEmulatorProcess({
      extensionPath: this.extensionPath, args: ['--port', String(port), '--config', configFile],
      name: "the local worker's emulator", logTag: '[local worker emulator]', logger: this.logger,
      onExit: () => {
        if (this.child !== started.child) return;
        this.child = undefined;
        this.served = undefined;
        this.onExit();
      },
    });
    this.child = started.child;
    return started.ready;
  }

  private async stopNow(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  dispose(): void {
    this.served = undefined;
    void this.stop();
  }
}

// Worker Logs (issue 14 items 2 and 3): what the served worker's processes print, followed through the emulator's
// emulator-only logs route (a long poll: `after` the last line seen, `wait` up to 25 s) into an output channel.
// Each line says which worker printed it and, when known, for which job (the first 8 characters of its id).
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { LOCAL_WORKER_KEY } from './workerFile';

interface LogLine {
  seq: number;
  atMs: number;
  workerId: string;
  jobId?: string;
  stream: 'stdout' | 'stderr' | 'emulator';
  text: string;
}

export const WORKER_LOGS_CHANNEL = 'Serverless GPU: Worker Logs';
const MAX_SHOWN = 1000;

export class WorkerLogsChannel implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel(WORKER_LOGS_CHANNEL);
  private follow: AbortController | undefined;
  /** The last MAX_SHOWN lines shown (for tests): bounded, a worker that prints for hours must not fill memory. */
  readonly shown: string[] = [];
  private lastJob: string | undefined;

  constructor(private readonly logger: Logger) {}

  /** Follows the logs of `endpointId` on `origin` until stop() (a new call replaces the previous one). */
  start(origin: string, endpointId: string): void {
    this.stop();
    const ctl = new AbortController();
    this.follow = ctl;
    void this.loop(origin, endpointId, ctl.signal);
  }

  stop(): void {
    this.follow?.abort();
    this.follow = undefined;
  }

  /** Whether it is following an emulator's logs (between start() and stop()). */
  get following(): boolean {
    return this.follow !== undefined;
  }

  append(text: string): void {
    this.shown.push(text);
    if (this.shown.length > MAX_SHOWN) this.shown.splice(0, this.shown.length - MAX_SHOWN);
    this.channel.appendLine(text);
  }

  private async loop(origin: string, endpointId: string, signal: AbortSignal): Promise<void> {
    let after = 0;
    while (!signal.aborted) {
      try {
        const res = await fetch(`${origin}/__emulator/endpoints/${encodeURIComponent(endpointId)}/logs?after=${after}&wait=25000`, {
          headers: { Authorization: `Bearer ${LOCAL_WORKER_KEY}` },
          signal,
        });
        if (!res.ok) throw new Error(`logs route answered ${res.status}`);
        const body = (await res.json()) as { lines: LogLine[]; last: number };
        for (const l of body.lines) {
          // Following the running job: a rule where the lines of another job begin.
          if (l.jobId && l.jobId !== this.lastJob) this.append(`── job ${l.jobId} ──`);
          if (l.jobId) this.lastJob = l.jobId;
          this.append(formatLine(l));
        }
        after = body.last;
      } catch (err) {
        if (signal.aborted) return;
        this.logger.debug(`worker logs: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  dispose(): void {
    this.stop();
    this.channel.dispose();
  }
}

function formatLine(l: LogLine): string {
  const time = new Date(l.atMs).toISOString().slice(11, 23);
  const job = l.jobId ? ` ${l.jobId.replace(/^sync-/, '').slice(0, 8)}` : '';
  const where = l.stream === 'emulator' ? 'emulator' : l.stream === 'stderr' ? 'stderr' : 'stdout';
  return `${time} [${l.workerId}${job}] ${where === 'stdout' ? '' : `(${where}) `}${l.text}`;
}

// What an endpoint's worker processes printed (issue 14 "Worker logs"): every stdout and stderr line, kept per
// endpoint in arrival order with the worker that printed it and, when it can be told, the job it was running,
// plus the emulator's own lines about the worker (started, ready, exited). Read through the emulator-only route
// GET /__emulator/endpoints/<id>/logs (protocolRoutes.ts). Bounded: the oldest lines go first.
export type LogStream = 'stdout' | 'stderr' | 'emulator';

export interface LogLine {
  /** Increasing per endpoint: a reader asks for lines `after` the last one it has. */
  seq: number;
  /** Emulator clock, ms. */
  atMs: number;
  /** Emulator clock in microseconds, strictly increasing per endpoint: the REST log stream's event id and resume cursor. */
  atUs: number;
  workerId: string;
  jobId?: string;
  stream: LogStream;
  text: string;
}

export const MAX_LOG_LINES = 5000;

export class WorkerLogs {
  private readonly lines: LogLine[] = [];
  private seq = 0;
  private readonly waiters = new Set<() => void>();

  private lastUs = 0;

  add(line: Omit<LogLine, 'seq' | 'atUs'>): void {
    // Lines of one millisecond get distinct instants a microsecond apart, so a timestamp names one line.
    this.lastUs = Math.max(this.lastUs + 1, line.atMs * 1000);
    this.lines.push({ seq: ++this.seq, atUs: this.lastUs, ...line });
    if (this.lines.length > MAX_LOG_LINES) this.lines.splice(0, this.lines.length - MAX_LOG_LINES);
    for (const w of [...this.waiters]) w();
  }

  /** Lines after `after` (a seq), of one worker and/or one job when given. */
  read(filter: { after?: number; workerId?: string; jobId?: string; limit?: number }): LogLine[] {
    const out: LogLine[] = [];
    for (const l of this.lines) {
      if (filter.after !== undefined && l.seq <= filter.after) continue;
      if (filter.workerId !== undefined && l.workerId !== filter.workerId) continue;
      if (filter.jobId !== undefined && l.jobId !== filter.jobId) continue;
      out.push(l);
      if (filter.limit !== undefined && out.length >= filter.limit) break;
    }
    return out;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Calls `fn` at the next added line; returns a function that stops waiting. */
  onLine(fn: () => void): () => void {
    this.waiters.add(fn);
    return () => this.waiters.delete(fn);
  }
}

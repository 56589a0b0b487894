// Hosted worker logs (issue 28): while a job runs, the logs of the worker that runs it, from the REST v2 route
// GET /v2/serverless/{id}/workers/{workerId}/logs (Server-Sent Events, src/core/serverless/workerLogs.ts), into
// the job's panel and the Worker Logs channel. The same route serves hosted endpoints and the local worker's
// emulator, so both are followed the same way. A follow starts when the job's record first names its worker,
// from the job's start (`since`), and stops when the job ends (or its worker changes on a retry). Lines are kept
// per job in memory, bounded: the panel shows the last of them. A room of dist/rooms.js, reached through
// ./workerLogsDoor.ts once a job runs.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { followWorkerLogs } from '../core/serverless/workerLogs';
import type { WorkerLogEvent } from '../core/serverless/resourceSchemas';
import type { ServiceClient } from '../core/service';
import type { HistoryStore } from '../history/historyStore';
import type { JobRecord } from './jobRecord';

const MAX_LINES = 500;
const FIRE_MS = 200;
/** How long a busy worker's lines are read to see whether they name the job. */
const PROBE_MS = 1500;
/** Jobs whose worker is looked for at once (each asks the workers route every second). */
const MAX_LOCATING = 3;
/** After the job ends, its worker's last lines ("job … done") are still read this long, then the follow stops. */
const END_GRACE_MS = 2000;

export interface HostedWorkerLogsDeps {
  history: HistoryStore;
  isRunning(key: string): boolean;
  getClient(): Promise<ServiceClient | undefined>;
  /**
   * The Worker Logs channel for a job of `endpointId` on `service` (undefined: none, or the channel already
   * follows that worker itself: a locally served worker prints there through its own follower).
   */
  channel(service: string, endpointId: string): { append(text: string): void } | undefined;
  logger: Logger;
}

export class HostedWorkerLogs implements vscode.Disposable {
  private readonly follows = new Map<string, { workerId: string; ctl: AbortController; ending?: ReturnType<typeof setTimeout> }>();
  private readonly lines = new Map<string, string[]>();
  /** Workers found through the status route, by job key; jobs whose worker is being asked for. */
  private readonly located = new Map<string, string>();
  private readonly locating = new Set<string>();
  private disposed = false;
  private readonly emitter = new vscode.EventEmitter<string>();
  /** A job's lines changed (its key). */
  readonly onDidAppend = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  /** Jobs with lines not yet announced: the panel redraws at most every FIRE_MS, not on every line. */
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: HostedWorkerLogsDeps) {
    this.subscription = deps.history.onDidChange((record) => {
      if (record) this.look(record);
      else for (const key of [...this.follows.keys()]) this.lookKey(key);
    });
  }

  /** The lines of a job's worker seen so far (the panel shows them). */
  linesOf(key: string): readonly string[] | undefined {
    return this.lines.get(key);
  }

  /** Whether the worker of `key` is being followed now. */
  isFollowing(key: string): boolean {
    return this.follows.has(key);
  }

  private lookKey(key: string): void {
    const record = this.deps.history.get(key);
    if (record) this.look(record);
    else this.stop(key);
  }

  /** A record changed: its worker's follow starts, moves or ends (./workerLogsDoor.ts hands the first one). */
  look(record: JobRecord): void {
    const running = record.finishedAt === undefined && this.deps.isRunning(record.key);
    const current = this.follows.get(record.key);
    if (!running) {
      if (current && !current.ending) current.ending = setTimeout(() => this.stop(record.key), END_GRACE_MS);
      return;
    }
    if (!record.jobId) return;
    const workerId = record.workerId ?? this.located.get(record.key);
    if (!workerId) {
      if (!this.locating.has(record.key) && this.locating.size < MAX_LOCATING) void this.locate(record.key, record.endpointId, record.jobId);
      return;
    }
    if (current?.workerId === workerId) return;
    this.stop(record.key);
    this.start(record, workerId);
  }

  /**
   * The job's worker while it runs. The status route names it only once the job has ended (SPEC 4.2's job
   * table: "present on completed jobs"), so it is found among the endpoint's busy workers (GET .../workers): the
   * one busy worker, or of several the one whose lines since the job started name the job's id (the emulator's
   * workers and the platform's Python SDK both log it). Asked once a second until found or the job ends.
   */
  private async locate(key: string, endpointId: string, jobId: string): Promise<void> {
    this.locating.add(key);
    try {
      while (this.deps.isRunning(key) && !this.disposed) {
        const client = await this.deps.getClient();
        const record = this.deps.history.get(key);
        const busy = client ? (await client.listEndpointWorkers(endpointId).catch(() => undefined))?.workers.filter((w) => w.status === 'RUNNING') ?? [] : [];
        let found: string | undefined;
        for (const w of client && record ? busy : []) {
          if (await this.names(client!, endpointId, w.id, jobId, sinceOf(record!))) {
            found = w.id;
            break;
          }
        }
        if (found) {
          this.located.set(key, found);
          const current = this.deps.history.get(key);
          if (current) this.look(current);
          return;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    } finally {
      this.locating.delete(key);
    }
  }

  /** Whether the worker's lines since `since` name `jobId` (read for at most PROBE_MS). */
  private async names(client: ServiceClient, endpointId: string, workerId: string, jobId: string, since: string): Promise<boolean> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), PROBE_MS);
    let seen = false;
    await followWorkerLogs(client.settings, endpointId, workerId, { since }, (e) => {
      if (e.line.includes(jobId)) {
        seen = true;
        ctl.abort();
      }
    }, { signal: ctl.signal, maxReconnects: 0 }).catch(() => undefined);
    clearTimeout(timer);
    return seen;
  }

  private start(record: JobRecord, workerId: string): void {
    const ctl = new AbortController();
    this.follows.set(record.key, { workerId, ctl });
    const job = (record.jobId ?? '').replace(/^sync-/, '').slice(0, 8);
    const since = sinceOf(record);
    void (async () => {
      const client = await this.deps.getClient();
      if (!client || ctl.signal.aborted) return;
      this.append(record.key, `── worker ${workerId}, job ${job} ──`, client.settings.billingBaseUrl, record.endpointId);
      const onLine = (e: WorkerLogEvent): void => {
        const time = e.ts.slice(11, 19);
        this.append(record.key, `${time} [${workerId} ${job}] ${e.source === 'system' ? '(system) ' : ''}${e.line}`, client.settings.billingBaseUrl, record.endpointId);
      };
      await followWorkerLogs(client.settings, record.endpointId, workerId, { since }, onLine, { signal: ctl.signal });
    })().catch((e: unknown) => {
      if (!ctl.signal.aborted) this.deps.logger.debug(`worker logs of ${workerId}: ${e instanceof Error ? e.message : String(e)}`);
    }).finally(() => {
      if (this.follows.get(record.key)?.ctl === ctl) this.follows.delete(record.key);
    });
  }

  private append(key: string, text: string, service?: string, endpointId?: string): void {
    const lines = this.lines.get(key) ?? [];
    lines.push(text);
    if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
    this.lines.set(key, lines);
    if (service && endpointId) this.deps.channel(service, endpointId)?.append(text);
    this.pending.add(key);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const keys = [...this.pending];
      this.pending.clear();
      for (const k of keys) this.emitter.fire(k);
    }, FIRE_MS);
  }

  private stop(key: string): void {
    const f = this.follows.get(key);
    if (f?.ending) clearTimeout(f.ending);
    f?.ctl.abort();
    this.follows.delete(key);
  }

  dispose(): void {
    this.disposed = true;
    for (const key of [...this.follows.keys()]) this.stop(key);
    if (this.timer) clearTimeout(this.timer);
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** RFC 3339 (whole seconds, rounded down) of when the job started, or was submitted. */
function sinceOf(record: JobRecord): string {
  return new Date(Math.floor((record.startedAt ?? record.submittedAt) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

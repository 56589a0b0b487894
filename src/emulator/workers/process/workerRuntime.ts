// The runtime of a `worker` endpoint (issue 14): the same queue model as jobs/endpointRuntime.ts (one FIFO queue,
// the queueMs hand-off, workersMin/workersMax/idleTimeoutMs scaling, policy ttl and executionTimeout), but the
// workers are real processes running the user's handler on the platform's Python SDK, and a job runs for as long
// as the handler takes. JobQueue uses it exactly like an EndpointRuntime (same public methods).
//
// Time: the queue's instants are on the emulator clock, as everywhere; what workers do arrives over HTTP in real
// time and is stamped with the clock's now. Deadlines (hand-off, ttl, execution timeout, idle timeout) are
// replayed on every read like the simulation does, and also by a timer, since a real worker must be told to stop
// even when nobody is reading. The heartbeat is judged on real time: moving the admin clock does not make
// a live process miss its pings.
//
// A worker is `initializing` from its spawn until its first job take (the cold start is the handler's real
// start-up), then `idle` or `running`. It is `unhealthy` once its process exited (unless it was told to stop) or
// its heartbeat stopped; an unhealthy worker stays listed, and counts towards workersMax, for UNHEALTHY_LINGER_MS
// of emulator time, so a worker that crashes at start-up is not restarted in a tight loop. A job held by a worker
// that became unhealthy ends TIMED_OUT at once, with an error that says why: the docs' "Job states" say a job
// whose worker never reports back a result is TIMED_OUT; the platform can only find out at the timeout, the
// emulator knows when the process exits.
import { randomBytes } from 'node:crypto';
import type { EmulatorClock } from '../../clock';
import type { EndpointConfig } from '../../config';
import type { EmulatedJob } from '../../jobs/jobQueue';
import type { RuntimeEnd, WorkerCounts, WorkerSnapshot } from '../../jobs/endpointRuntime';
import { MISSED_PINGS_UNHEALTHY, type WorkerCommandConfig } from './workerConfig';
import { WorkerLogs } from './workerLogs';
import { WorkerProcess } from './workerProcess';
import { protocolEnv } from './protocolEnv';

export const UNHEALTHY_LINGER_MS = 10_000;
/** A stop signal the worker did not act on is sent again after this long (real time). */
export const STOP_RESEND_MS = 1000;

export type ProcessStatus = 'initializing' | 'idle' | 'running' | 'unhealthy';

interface PendingTake {
  max: number;
  answer: (jobs: EmulatedJob[] | undefined) => void;
}

export interface ProcessWorker {
  readonly id: string;
  readonly token: string;
  status: ProcessStatus;
  spawnedAtMs: number;
  readyAtMs?: number;
  /** Since when it has held no job (emulator clock). */
  idleSinceMs: number;
  /** Jobs given to it and not yet released by it (a cancelled job stays until the worker lets go of it). */
  readonly held: Map<string, EmulatedJob>;
  /** The last jobs it held, newest last: the SDK's closing lines of a job name it after the result was sent. */
  recent: string[];
  /** Job ids the worker is to stop, handed out by its stop channel. */
  stopQueue: string[];
  /** When each stop was last sent (real time). */
  stopSent: Map<string, number>;
  take?: PendingTake;
  stopPoll?: (ids: string[]) => void;
  /** Real time (Date.now()) of its last heartbeat. */
  lastPingReal?: number;
  /** It was told to stop (idle timeout, stopPod, emulator closing): its exit is not a crash. */
  stopping: boolean;
  exitCode?: number;
  unhealthyReason?: string;
  removeAtMs?: number;
  readonly proc: WorkerProcess;
}

/** Looks workers up by id for the protocol routes. */
export class WorkerRegistry {
  private readonly byId = new Map<string, { runtime: WorkerRuntime; worker: ProcessWorker }>();
  private readonly runtimes = new Set<WorkerRuntime>();
  constructor(readonly origin: () => string) {}

  add(runtime: WorkerRuntime, worker: ProcessWorker): void {
    this.byId.set(worker.id, { runtime, worker });
    this.runtimes.add(runtime);
  }

  remove(workerId: string): void {
    this.byId.delete(workerId);
  }

  /** The worker with this id whose token matches, or undefined. */
  find(workerId: string, token: string | null): { runtime: WorkerRuntime; worker: ProcessWorker } | undefined {
    const e = this.byId.get(workerId);
    return e && token !== null && e.worker.token === token ? e : undefined;
  }

  /** Kills every worker process of every runtime (the emulator is closing). */
  closeAll(): void {
    for (const r of this.runtimes) r.close();
  }
}

export interface WorkerRuntimeOptions {
  endpoint: EndpointConfig & { worker: WorkerCommandConfig };
  workerPrefix: string;
  clock: EmulatorClock;
  registry: WorkerRegistry;
  onEnd: (job: EmulatedJob) => void;
}

export class WorkerRuntime {
  private t: number;
  private readonly workers: ProcessWorker[] = [];
  private readonly queue: EmulatedJob[] = [];
  private readonly lowQueue: EmulatedJob[] = [];
  private workerCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private touchQueued = false;
  readonly logs = new WorkerLogs();

  constructor(private readonly o: WorkerRuntimeOptions) {
    this.t = o.clock.now();
    this.step();
  }

  get now(): number {
    return this.t;
  }

  get endpoint(): EndpointConfig {
    return this.o.endpoint;
  }

  advance(toMs: number): void {
    if (toMs > this.t) this.t = toMs;
    this.step();
  }

  nextEventAt(): number | undefined {
    let next = Number.POSITIVE_INFINITY;
    const consider = (at: number | undefined): void => {
      if (at !== undefined && at > this.t && at < next) next = at;
    };
    const s = this.o.endpoint;
    for (const q of [this.queue, this.lowQueue]) {
      for (const job of q) {
        consider(job.queuedAtMs + s.queueMs);
        consider(job.expiresAtMs);
      }
    }
    for (const w of this.workers) {
      for (const job of w.held.values()) if (runsOn(job, w)) consider(deadlineOf(job));
      if (w.status === 'idle' && this.workers.length > s.workersMin) consider(w.idleSinceMs + s.idleTimeoutMs);
      consider(w.removeAtMs);
    }
    return Number.isFinite(next) ? next : undefined;
  }

  enqueue(job: EmulatedJob): void {
    this.advance(this.o.clock.now());
    job.phase = 'queued';
    job.streamed = [];
    (job.lowPriority ? this.lowQueue : this.queue).push(job);
    this.step();
  }

  cancel(job: EmulatedJob): boolean {
    if (job.phase === 'queued') {
      this.unqueue(job);
      this.finish(job, this.t, 'CANCELLED');
    } else if (job.phase === 'running') {
      this.stopOnWorker(job, 'CANCELLED');
    } else {
      return false;
    }
    this.step();
    return true;
  }

  purge(): EmulatedJob[] {
    const removed = [...this.queue, ...this.lowQueue];
    this.queue.length = 0;
    this.lowQueue.length = 0;
    for (const job of removed) this.finish(job, this.t, 'CANCELLED');
    this.step();
    return removed;
  }

  queuedCount(): number {
    return this.queue.length + this.lowQueue.length;
  }

  snapshot(): WorkerSnapshot[] {
    return this.workers.map((w) => {
      const running = [...w.held.values()].find((j) => runsOn(j, w));
      return {
        id: w.id,
        state: w.status,
        ...(w.readyAtMs !== undefined && w.status !== 'initializing' ? { readyAtMs: w.readyAtMs } : {}),
        ...(running ? { jobId: running.id } : {}),
      };
    });
  }

  counts(): WorkerCounts {
    const c: WorkerCounts = { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 };
    for (const w of this.workers) {
      c[w.status]++;
      if (w.status === 'idle' || w.status === 'running') c.ready++;
    }
    return c;
  }

  /** The processes behind the workers, for the emulator-only workers route. */
  processes(): Array<Record<string, unknown>> {
    return this.workers.map((w) => ({
      id: w.id,
      status: w.status,
      pid: w.proc.pid ?? null,
      spawnedAtMs: w.spawnedAtMs,
      coldStartMs: w.readyAtMs !== undefined ? w.readyAtMs - w.spawnedAtMs : null,
      jobs: [...w.held.keys()],
      ...(w.exitCode !== undefined ? { exitCode: w.exitCode } : {}),
      ...(w.unhealthyReason ? { unhealthyReason: w.unhealthyReason } : {}),
    }));
  }

  /** Kills every worker process now (the emulator is closing). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeatTimer);
    for (const w of this.workers) {
      w.stopping = true;
      w.take?.answer(undefined);
      w.stopPoll?.([]);
      w.proc.kill();
    }
  }

  // ---- the worker protocol (protocolRoutes.ts) ----

  /**
   * A job take (GET job-take / job-take-batch): up to `max` jobs, held until one is visible or `signal` aborts.
   * `inProgress` is the SDK's job_in_progress flag: false means the worker holds nothing any more.
   */
  take(w: ProcessWorker, max: number, inProgress: boolean, signal: AbortSignal): Promise<EmulatedJob[] | undefined> {
    this.advance(this.o.clock.now());
    if (w.status === 'unhealthy' || this.closed) return Promise.resolve(undefined);
    if (w.status === 'initializing') {
      w.readyAtMs = this.t;
      w.status = 'idle';
      w.idleSinceMs = this.t;
      this.log(w, 'emulator', `ready: first job take after a cold start of ${this.t - w.spawnedAtMs} ms`);
    }
    if (!inProgress) for (const job of [...w.held.values()]) this.release(w, job, 'the worker took a new job without reporting a result for this one');
    w.take?.answer(undefined); // a newer take replaces one the worker gave up on
    return new Promise((resolve) => {
      const onAbort = (): void => answer(undefined);
      const answer = (jobs: EmulatedJob[] | undefined): void => {
        if (w.take === pending) w.take = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(jobs);
      };
      const pending: PendingTake = { max: Math.max(1, max), answer };
      w.take = pending;
      signal.addEventListener('abort', onAbort);
      this.step();
    });
  }

  /**
   * The stop channel (GET job-stop): the ids to stop, held until there are some or `signal` aborts. A job the
   * worker still holds after it was told is told again every STOP_RESEND_MS: the SDK ignores a stop for a job it
   * has taken but not yet started (rp_scale.py stop_job finds no task for it), and then runs it to its end.
   */
  stopSignals(w: ProcessWorker, signal: AbortSignal): Promise<string[]> {
    const due = (): string[] => {
      const now = Date.now();
      const ids = new Set(w.stopQueue.splice(0));
      for (const [id, job] of w.held) if (job.phase === 'ended' && now - (w.stopSent.get(id) ?? 0) >= STOP_RESEND_MS) ids.add(id);
      for (const id of ids) w.stopSent.set(id, now);
      return [...ids];
    };
    const now = due();
    if (now.length) return Promise.resolve(now);
    w.stopPoll?.([]);
    return new Promise((resolve) => {
      const timer = setInterval(() => {
        const ids = due();
        if (ids.length) answer(ids);
      }, STOP_RESEND_MS);
      const onAbort = (): void => answer([]);
      const answer = (ids: string[]): void => {
        clearInterval(timer);
        if (w.stopPoll === answer) w.stopPoll = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(ids);
      };
      w.stopPoll = answer;
      signal.addEventListener('abort', onAbort);
    });
  }

  /** A result (POST job-done): `{output}` completes the job, `{error}` fails it; a late one is dropped. */
  result(w: ProcessWorker, jobId: string, body: Record<string, unknown>): 'taken' | 'dropped' {
    this.advance(this.o.clock.now());
    const job = w.held.get(jobId);
    if (body.stopPod === true) w.stopping = true; // refresh_worker: the SDK exits after this job
    if (!job) return 'dropped';
    w.held.delete(jobId);
    this.afterRelease(w);
    if (!runsOn(job, w)) {
      this.log(w, 'emulator', `late result of ${jobId} dropped: the job had already ended ${job.phase === 'ended' ? job.end : '(and was retried)'}`, jobId);
      this.step();
      return 'dropped';
    }
    const error = body.error;
    job.result = error !== undefined && error !== null && error !== ''
      ? { status: 'FAILED', error: typeof error === 'string' ? error : JSON.stringify(error) }
      : { status: 'COMPLETED', output: body.output ?? null };
    this.finish(job, this.t, 'done');
    this.step();
    return 'taken';
  }

  /** A stream chunk (POST job-stream): `{output}` appended to what /stream hands out. */
  streamChunk(w: ProcessWorker, jobId: string, body: Record<string, unknown>): 'taken' | 'dropped' {
    this.advance(this.o.clock.now());
    const job = w.held.get(jobId);
    if (!job || !runsOn(job, w)) return 'dropped';
    (job.streamed ??= []).push({ output: body.output ?? null });
    this.touch();
    return 'taken';
  }

  /** A heartbeat (GET ping): the worker is alive; `jobIds` is what it says it is running. */
  ping(w: ProcessWorker): void {
    w.lastPingReal = Date.now();
  }

  // ---- internals ----

  private step(): void {
    if (this.closed) return;
    const t = this.t;
    const s = this.o.endpoint;
    for (const q of [this.queue, this.lowQueue]) {
      for (const job of q.filter((j) => j.expiresAtMs <= t)) {
        q.splice(q.indexOf(job), 1);
        this.finish(job, job.expiresAtMs, 'TIMED_OUT');
      }
    }
    for (const w of this.workers) {
      for (const job of [...w.held.values()]) {
        if (runsOn(job, w) && deadlineOf(job) <= t) this.stopOnWorker(job, 'TIMED_OUT', deadlineOf(job));
      }
    }
    for (const w of [...this.workers]) {
      if (w.removeAtMs !== undefined && w.removeAtMs <= t) this.drop(w);
    }
    this.dispatch();
    // Idle workers above workersMin stop after idleTimeoutMs, unless a queued job is waiting for one.
    for (const w of [...this.workers]) {
      if (w.status !== 'idle' || w.idleSinceMs + s.idleTimeoutMs > t) continue;
      if (this.liveCount() <= s.workersMin || this.comingCount() <= this.queue.length) continue;
      this.log(w, 'emulator', `stopped: idle for ${s.idleTimeoutMs} ms`);
      w.stopping = true;
      w.proc.kill();
      this.drop(w);
    }
    this.scale();
    this.schedule();
  }

  /** Pending takes get the visible jobs, normal ones first, low-priority ones only when no normal job is queued. */
  private dispatch(): void {
    for (const w of this.workers) {
      if (!w.take || w.status === 'unhealthy') continue;
      const given: EmulatedJob[] = [];
      while (given.length < w.take.max) {
        const job = this.nextFor(w);
        if (!job) break;
        job.phase = 'running';
        job.startsAtMs = this.t;
        job.workerId = w.id;
        w.held.set(job.id, job);
        w.recent = [...w.recent.slice(-7), job.id];
        given.push(job);
      }
      if (given.length) {
        w.status = 'running';
        this.log(w, 'emulator', `took ${given.map((j) => j.id).join(', ')}`, given.length === 1 ? given[0]!.id : undefined);
        w.take.answer(given);
        this.touch();
      }
    }
  }

  /**
   * Takes the first visible job `w` may run off its queue. Not a job whose earlier run `w` still holds (it timed
   * out or was cancelled, and the handler has not let go, as sync code or a handler that ignores the stop does):
   * the protocol names results and stream chunks by job id alone, so the earlier run's late result would be taken
   * for the retried run's. That job waits for another worker, or for `w` to report the earlier run.
   */
  private nextFor(w: ProcessWorker): EmulatedJob | undefined {
    const visible = (j: EmulatedJob): boolean => j.queuedAtMs + this.o.endpoint.queueMs <= this.t;
    const takeFrom = (q: EmulatedJob[]): EmulatedJob | undefined => {
      // Queues are in queuedAtMs order, so the visible jobs come first.
      for (let i = 0; i < q.length && visible(q[i]!); i++) if (!w.held.has(q[i]!.id)) return q.splice(i, 1)[0];
      return undefined;
    };
    return takeFrom(this.queue) ?? (this.queue.length === 0 ? takeFrom(this.lowQueue) : undefined);
  }

  /** Starts workers: up to workersMin always, and one per queued normal job that no worker is coming for. */
  private scale(): void {
    const s = this.o.endpoint;
    while (this.workers.length < s.workersMax && (this.liveCount() < s.workersMin || this.queue.length > this.comingCount())) {
      this.spawn();
    }
  }

  private liveCount(): number {
    return this.workers.filter((w) => w.status !== 'unhealthy').length;
  }

  /** Workers that will take a job: starting, idle, or running with a take open (concurrency above 1). */
  private comingCount(): number {
    return this.workers.filter((w) => w.status === 'initializing' || w.status === 'idle' || (w.status === 'running' && w.take)).length;
  }

  private spawn(): void {
    const id = `${this.o.workerPrefix}${(this.workerCount++).toString(36)}`;
    const token = randomBytes(18).toString('base64url');
    const cfg = this.o.endpoint.worker;
    // The SDK logs at DEBUG by default (rp_logger.py): INFO keeps Worker Logs readable; the config's env may say otherwise.
    const env = { ...process.env, RUNPOD_LOG_LEVEL: 'INFO', ...cfg.env, ...protocolEnv({ origin: this.o.registry.origin(), workerId: id, token, endpointId: this.o.endpoint.id, pingIntervalMs: cfg.pingIntervalMs }) };
    // Created before the process so that its first lines and an immediate exit find it.
    const w = {
      id, token, status: 'initializing', spawnedAtMs: this.t, idleSinceMs: this.t, held: new Map(), recent: [], stopQueue: [], stopSent: new Map(), stopping: false,
    } as unknown as ProcessWorker;
    (w as { proc: WorkerProcess }).proc = new WorkerProcess({
      command: cfg.command,
      cwd: cfg.cwd,
      env,
      onLine: (stream, text) => this.log(w, stream, text, this.jobOfLine(w, text)),
      onExit: (code) => this.onExit(w, code),
    });
    this.workers.push(w);
    this.o.registry.add(this, w);
    this.log(w, 'emulator', `starting: ${cfg.command.join(' ')}${cfg.cwd ? ` (in ${cfg.cwd})` : ''}`);
    this.heartbeatTimer ??= setInterval(() => this.checkHeartbeats(), 1000);
    this.heartbeatTimer.unref();
  }

  private onExit(w: ProcessWorker, code: number): void {
    w.exitCode = code;
    this.o.registry.remove(w.id);
    if (this.closed) return;
    this.advance(this.o.clock.now());
    this.log(w, 'emulator', `exited with code ${code}`);
    // Already unhealthy (its heartbeat stopped, so it was killed): it stays listed until its linger is over.
    if (!this.workers.includes(w) || w.status === 'unhealthy') return;
    if (w.stopping) {
      this.drop(w);
      this.step();
      return;
    }
    this.markUnhealthy(w, `its process exited with code ${code}`);
  }

  /** Heartbeats are judged on real time; a worker that never pinged is judged by its exit alone. */
  private checkHeartbeats(): void {
    if (this.closed) return;
    const limit = MISSED_PINGS_UNHEALTHY * this.o.endpoint.worker.pingIntervalMs;
    const now = Date.now();
    for (const w of [...this.workers]) {
      if (w.status === 'unhealthy' || w.stopping || w.lastPingReal === undefined || now - w.lastPingReal <= limit) continue;
      this.advance(this.o.clock.now());
      this.markUnhealthy(w, `no heartbeat for ${Math.round((now - w.lastPingReal) / 1000)} s`);
      w.stopping = true;
      w.proc.kill();
    }
    if (!this.workers.length) {
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
    }
  }

  private markUnhealthy(w: ProcessWorker, reason: string): void {
    w.status = 'unhealthy';
    w.unhealthyReason = reason;
    w.removeAtMs = this.t + UNHEALTHY_LINGER_MS;
    w.take?.answer(undefined);
    w.stopPoll?.([]);
    this.log(w, 'emulator', `unhealthy: ${reason}`);
    for (const job of [...w.held.values()]) {
      w.held.delete(job.id);
      if (!runsOn(job, w)) continue;
      job.endReason = `Worker ${w.id} became unhealthy (${reason}) before it reported a result; a job whose worker never reports back ends TIMED_OUT.`;
      this.finish(job, this.t, 'TIMED_OUT');
    }
    this.step();
  }

  /** Ends a running job now (cancel, timeout) and tells its worker through the stop channel. */
  private stopOnWorker(job: EmulatedJob, end: RuntimeEnd, at = this.t): void {
    const w = this.workers.find((x) => x.id === job.workerId && x.held.has(job.id));
    this.finish(job, at, end);
    if (!w) return;
    w.stopQueue.push(job.id);
    w.stopSent.set(job.id, Date.now());
    this.log(w, 'emulator', `${end === 'CANCELLED' ? 'cancelled' : 'timed out'}: asking the worker to stop ${job.id}`, job.id);
    if (w.stopPoll) w.stopPoll(w.stopQueue.splice(0));
  }

  /** The worker no longer holds `job`; one still running ends FAILED with `why`. */
  private release(w: ProcessWorker, job: EmulatedJob, why: string): void {
    w.held.delete(job.id);
    if (runsOn(job, w)) {
      job.result = { status: 'FAILED', error: why };
      this.finish(job, this.t, 'done');
    }
    this.afterRelease(w);
  }

  private afterRelease(w: ProcessWorker): void {
    for (const id of w.stopSent.keys()) if (!w.held.has(id)) w.stopSent.delete(id);
    if (w.status === 'running' && w.held.size === 0) {
      w.status = 'idle';
      w.idleSinceMs = this.t;
    }
  }

  private drop(w: ProcessWorker): void {
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    if (w.proc.alive) {
      w.stopping = true;
      w.proc.kill();
    }
  }

  private finish(job: EmulatedJob, at: number, end: RuntimeEnd): void {
    job.phase = 'ended';
    job.endsAtMs = at;
    job.end = end;
    this.o.onEnd(job);
    this.touch();
  }

  private unqueue(job: EmulatedJob): void {
    for (const q of [this.queue, this.lowQueue]) {
      const i = q.indexOf(job);
      if (i >= 0) q.splice(i, 1);
    }
  }

  /** A line names a job the worker holds (the SDK's logger prefixes job ids), or the worker runs exactly one. */
  private jobOfLine(w: ProcessWorker, text: string): string | undefined {
    for (const id of w.recent) if (text.includes(id)) return id;
    const running = [...w.held.values()].filter((j) => runsOn(j, w));
    return running.length === 1 ? running[0]!.id : undefined;
  }

  private log(w: ProcessWorker, stream: 'stdout' | 'stderr' | 'emulator', text: string, jobId?: string): void {
    this.logs.add({ atMs: this.o.clock.now(), workerId: w.id, stream, text, ...(jobId ? { jobId } : {}) });
  }

  /** Wakes held requests (runsync, status-sync, stream) after something a process did; never re-entrant. */
  private touch(): void {
    if (this.touchQueued) return;
    this.touchQueued = true;
    setImmediate(() => {
      this.touchQueued = false;
      this.o.clock.touch();
    });
  }

  /** A timer for the next deadline, so a timed-out job's worker is told even when nobody reads. */
  private schedule(): void {
    clearTimeout(this.timer);
    const next = this.nextEventAt();
    if (next === undefined || this.closed) return;
    this.timer = setTimeout(() => this.advance(this.o.clock.now()), Math.min(2_147_483_647, Math.max(1, next - this.o.clock.now())));
    this.timer.unref();
  }
}

/**
 * The job is running, and on this worker: a job that ended here (timed out, its worker died) and was retried may
 * be running on another worker under the same id, and what this worker still says about it is stale.
 */
function runsOn(job: EmulatedJob, w: ProcessWorker): boolean {
  return job.phase === 'running' && job.workerId === w.id;
}

/** When a running job must end: its execution timeout, or its ttl, whichever comes first. */
function deadlineOf(job: EmulatedJob): number {
  const timeout = job.executionTimeoutMs > 0 ? job.startsAtMs! + job.executionTimeoutMs : Number.POSITIVE_INFINITY;
  return Math.min(timeout, job.expiresAtMs);
}

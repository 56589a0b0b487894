// Process workers (issue 14): each worker of a `worker` endpoint is a real process running the user's handler
// on the platform's Python SDK, and a job runs for as long as the handler takes. The queue, scaling, deadlines
// and job states are the engine's (jobs/engine.ts), as for simulated workers; this is only how such a worker
// runs a job: it takes jobs over HTTP (a long poll), reports results, progress and stream chunks, is told to
// stop jobs through its stop channel, and sends heartbeats.
//
// Time: what workers do arrives in real time and is stamped with the emulator clock's now. The heartbeat is
// judged on real time: moving the admin clock does not make a live process miss its pings. A worker is
// `initializing` from its spawn until its first job take (the cold start is the handler's real start-up). It is
// `unhealthy` once its process exited (unless it was told to stop) or its heartbeat stopped: the docs' "Job
// states" say a job whose worker never reports back a result is TIMED_OUT; the platform can only find out at the
// timeout, the emulator knows when the process exits.
import { randomBytes } from 'node:crypto';
import type { EmulatorClock } from '../../clock';
import type { EndpointConfig } from '../../config';
import type { Engine } from '../../jobs/engine';
import { runsOn, type EngineWorker, type WorkerDriver } from '../../jobs/workerDriver';
import type { EmulatedJob, RuntimeEnd } from '../../jobs/job';
import { protocolEnv } from './protocolEnv';
import { MISSED_PINGS_UNHEALTHY, type WorkerCommandConfig } from './workerConfig';
import { WorkerLogs } from './workerLogs';
import { WorkerProcess } from './workerProcess';

/** A stop signal the worker did not act on is sent again after this long (real time). */
export const STOP_RESEND_MS = 1000;

interface PendingTake {
  max: number;
  answer: (jobs: EmulatedJob[] | undefined) => void;
}

export interface ProcessWorker {
  readonly w: EngineWorker;
  readonly token: string;
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
  /** It was told to stop (idle timeout, refresh_worker, emulator closing): its exit is not a crash. */
  stopping: boolean;
  exitCode?: number;
  proc?: WorkerProcess;
}

/** Where workers are found by id for the protocol's routes (workerRegistry.ts). */
export interface WorkerDirectory {
  origin(): string;
  add(driver: ProcessWorkers, pw: ProcessWorker): void;
  remove(workerId: string): void;
}

export interface ProcessWorkersOptions {
  endpoint: EndpointConfig & { worker: WorkerCommandConfig };
  clock: EmulatorClock;
  registry: WorkerDirectory;
}

export class ProcessWorkers implements WorkerDriver {
  readonly holdsEndedJobs = true;
  readonly logs = new WorkerLogs();
  private engine!: Engine;
  private readonly byWorker = new Map<EngineWorker, ProcessWorker>();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private touchQueued = false;

  constructor(private readonly o: ProcessWorkersOptions) {}

  /** The engine this driver runs jobs for (made with this driver, so set once right after). */
  attach(engine: Engine): void {
    this.engine = engine;
  }

  // ---- WorkerDriver ----

  start(w: EngineWorker): undefined {
    const token = randomBytes(18).toString('base64url');
    const cfg = this.o.endpoint.worker;
    // The SDK logs at DEBUG by default (rp_logger.py): INFO keeps Worker Logs readable; the config's env may say otherwise.
    const env = { ...process.env, RUNPOD_LOG_LEVEL: 'INFO', ...cfg.env, ...protocolEnv({ origin: this.o.registry.origin(), workerId: w.id, token, endpointId: this.o.endpoint.id, pingIntervalMs: cfg.pingIntervalMs }) };
    // Registered before the process starts, so that its first lines and an immediate exit find it.
    const pw: ProcessWorker = { w, token, recent: [], stopQueue: [], stopSent: new Map(), stopping: false };
    this.byWorker.set(w, pw);
    this.o.registry.add(this, pw);
    this.log(pw, 'emulator', `starting: ${cfg.command.join(' ')}${cfg.cwd ? ` (in ${cfg.cwd})` : ''}`);
    pw.proc = new WorkerProcess({
      command: cfg.command, cwd: cfg.cwd, env,
      onLine: (stream, text) => this.log(pw, stream, text, this.jobOfLine(pw, text)),
      onExit: (code) => this.onExit(pw, code),
    });
    this.heartbeatTimer ??= setInterval(() => this.checkHeartbeats(), 1000);
    this.heartbeatTimer.unref();
    return undefined; // ready at its first job take
  }

  capacity(w: EngineWorker): number {
    const pw = this.byWorker.get(w);
    return pw?.take && !pw.stopping ? pw.take.max : 0;
  }

  give(w: EngineWorker, jobs: EmulatedJob[]): void {
    const pw = this.byWorker.get(w)!;
    for (const job of jobs) {
      job.streamed = [];
      pw.recent = [...pw.recent.slice(-7), job.id];
    }
    this.log(pw, 'emulator', `took ${jobs.map((j) => j.id).join(', ')}`, jobs.length === 1 ? jobs[0]!.id : undefined);
    pw.take!.answer(jobs);
    this.touch();
  }

  stopJob(w: EngineWorker, job: EmulatedJob, end: RuntimeEnd): void {
    const pw = this.byWorker.get(w);
    if (!pw) return;
    pw.stopQueue.push(job.id);
    pw.stopSent.set(job.id, Date.now());
    this.log(pw, 'emulator', `${end === 'CANCELLED' ? 'cancelled' : 'timed out'}: asking the worker to stop ${job.id}`, job.id);
    if (pw.stopPoll) pw.stopPoll(pw.stopQueue.splice(0));
  }

  stop(w: EngineWorker, why: string): void {
    const pw = this.byWorker.get(w);
    if (!pw) return;
    if (!pw.stopping && pw.proc?.alive) this.log(pw, 'emulator', `stopped: ${why}`);
    pw.stopping = true;
    pw.take?.answer(undefined);
    pw.stopPoll?.([]);
    pw.proc?.kill();
    if (!pw.proc?.alive) this.byWorker.delete(w); // already gone: nothing will report its exit
  }

  // ---- the worker protocol (protocolRoutes.ts) ----

  /**
   * A job take (GET job-take / job-take-batch): up to `max` jobs, held until one is visible or `signal` aborts.
   * `inProgress` is the SDK's job_in_progress flag: false means the worker holds nothing any more.
   */
  take(pw: ProcessWorker, max: number, inProgress: boolean, signal: AbortSignal): Promise<EmulatedJob[] | undefined> {
    this.engine.advance(this.o.clock.now());
    if (pw.w.status === 'unhealthy' || pw.stopping || this.closed) return Promise.resolve(undefined);
    if (!inProgress) for (const job of [...pw.w.jobs]) this.engine.release(pw.w, job, 'the worker took a new job without reporting a result for this one');
    pw.take?.answer(undefined); // a newer take replaces one the worker gave up on
    return new Promise((resolve) => {
      const onAbort = (): void => answer(undefined);
      const answer = (jobs: EmulatedJob[] | undefined): void => {
        if (pw.take === pending) pw.take = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(jobs);
      };
      const pending: PendingTake = { max: Math.max(1, max), answer };
      pw.take = pending;
      signal.addEventListener('abort', onAbort);
      if (pw.w.status === 'initializing') {
        this.log(pw, 'emulator', `ready: first job take after a cold start of ${this.engine.now - pw.w.spawnedAtMs} ms`);
        this.engine.ready(pw.w);
      } else {
        this.engine.poke();
      }
    });
  }

  /**
   * The stop channel (GET job-stop): the ids to stop, held until there are some or `signal` aborts. A job the
   * worker still holds after it was told is told again every STOP_RESEND_MS: the SDK ignores a stop for a job it
   * has taken but not yet started (rp_scale.py stop_job finds no task for it), and then runs it to its end.
   */
  stopSignals(pw: ProcessWorker, signal: AbortSignal): Promise<string[]> {
    const due = (): string[] => {
      const now = Date.now();
      const ids = new Set(pw.stopQueue.splice(0));
      for (const job of pw.w.jobs) if (job.phase === 'ended' && now - (pw.stopSent.get(job.id) ?? 0) >= STOP_RESEND_MS) ids.add(job.id);
      for (const id of ids) pw.stopSent.set(id, now);
      return [...ids];
    };
    const now = due();
    if (now.length) return Promise.resolve(now);
    pw.stopPoll?.([]);
    return new Promise((resolve) => {
      const timer = setInterval(() => {
        const ids = due();
        if (ids.length) answer(ids);
      }, STOP_RESEND_MS);
      const onAbort = (): void => answer([]);
      const answer = (ids: string[]): void => {
        clearInterval(timer);
        if (pw.stopPoll === answer) pw.stopPoll = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(ids);
      };
      pw.stopPoll = answer;
      signal.addEventListener('abort', onAbort);
    });
  }

  /**
   * A post to the job's result URL (POST job-done): `{status: "IN_PROGRESS", output}` is a progress update
   * (rp_progress.py progress_update) and the job runs on; otherwise `{output}` completes the job and `{error}`
   * fails it. `stopPod: true` (refresh_worker) retires the worker: it gets no more jobs and its process group is
   * stopped at once, instead of lingering until its next job poll. A late post is dropped.
   */
  result(pw: ProcessWorker, jobId: string, body: Record<string, unknown>): 'taken' | 'dropped' {
    this.engine.advance(this.o.clock.now());
    const job = [...pw.w.jobs].find((j) => j.id === jobId);
    if (body.status === 'IN_PROGRESS' && body.stopPod === undefined) {
      if (!job || !runsOn(job, pw.w)) return 'dropped';
      job.progress = body.output ?? null;
      this.touch();
      return 'taken';
    }
    if (body.stopPod === true) {
      this.log(pw, 'emulator', 'refresh_worker: this worker takes no more jobs and is stopped', jobId);
      this.engine.retire(pw.w);
    }
    if (!job) return 'dropped';
    const error = body.error;
    const taken = this.engine.complete(pw.w, job, error !== undefined && error !== null && error !== ''
      ? { status: 'FAILED', error: typeof error === 'string' ? error : JSON.stringify(error) }
      : { status: 'COMPLETED', output: body.output ?? null });
    this.afterRelease(pw);
    if (!taken) this.log(pw, 'emulator', `late result of ${jobId} dropped: the job had already ended ${job.phase === 'ended' ? job.end : '(and was retried)'}`, jobId);
    return taken ? 'taken' : 'dropped';
  }

  /** A stream chunk (POST job-stream): `{output}` appended to what /stream hands out. */
  streamChunk(pw: ProcessWorker, jobId: string, body: Record<string, unknown>): 'taken' | 'dropped' {
    this.engine.advance(this.o.clock.now());
    const job = [...pw.w.jobs].find((j) => j.id === jobId);
    if (!job || !runsOn(job, pw.w)) return 'dropped';
    (job.streamed ??= []).push({ output: body.output ?? null });
    this.touch();
    return 'taken';
  }

  /** A heartbeat (GET ping): the worker is alive. */
  ping(pw: ProcessWorker): void {
    pw.lastPingReal = Date.now();
  }

  /** The processes behind the workers, for the emulator-only workers route. */
  processes(): Array<Record<string, unknown>> {
    return this.engine.list().map((w) => {
      const pw = this.byWorker.get(w)!;
      return {
        id: w.id,
        status: w.status,
        pid: pw.proc?.pid ?? null,
        spawnedAtMs: w.spawnedAtMs,
        coldStartMs: w.readyAtMs !== undefined ? w.readyAtMs - w.spawnedAtMs : null,
        jobs: [...w.jobs].map((j) => j.id),
        ...(pw.exitCode !== undefined ? { exitCode: pw.exitCode } : {}),
        ...(w.unhealthyReason ? { unhealthyReason: w.unhealthyReason } : {}),
      };
    });
  }

  /** Kills every worker process now (the emulator is closing). */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeatTimer);
    for (const w of this.byWorker.keys()) this.stop(w, 'the emulator is closing');
  }

  // ---- internals ----

  private onExit(pw: ProcessWorker, code: number): void {
    pw.exitCode = code;
    this.o.registry.remove(pw.w.id);
    if (this.closed) return;
    this.engine.advance(this.o.clock.now());
    this.log(pw, 'emulator', `exited with code ${code}`);
    // Told to stop (the engine has dropped it), or already unhealthy (killed after its heartbeat stopped).
    if (pw.stopping || pw.w.status === 'unhealthy') {
      if (!this.engine.list().includes(pw.w)) this.byWorker.delete(pw.w);
      return;
    }
    this.markUnhealthy(pw, `its process exited with code ${code}`);
  }

  /** Heartbeats are judged on real time; a worker that never pinged is judged by its exit alone. */
  private checkHeartbeats(): void {
    if (this.closed) return;
    const limit = MISSED_PINGS_UNHEALTHY * this.o.endpoint.worker.pingIntervalMs;
    const now = Date.now();
    for (const pw of [...this.byWorker.values()]) {
      if (pw.w.status === 'unhealthy' || pw.stopping || pw.lastPingReal === undefined || now - pw.lastPingReal <= limit) continue;
      this.engine.advance(this.o.clock.now());
      this.markUnhealthy(pw, `no heartbeat for ${Math.round((now - pw.lastPingReal) / 1000)} s`);
      pw.stopping = true;
      pw.proc?.kill();
    }
    if (!this.byWorker.size) {
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
    }
  }

  private markUnhealthy(pw: ProcessWorker, reason: string): void {
    pw.take?.answer(undefined);
    pw.stopPoll?.([]);
    this.log(pw, 'emulator', `unhealthy: ${reason}`);
    this.engine.markUnhealthy(pw.w, reason);
    this.touch();
  }

  private afterRelease(pw: ProcessWorker): void {
    for (const id of pw.stopSent.keys()) if (![...pw.w.jobs].some((j) => j.id === id)) pw.stopSent.delete(id);
  }

  /** A line names a job the worker holds (the SDK's logger prefixes job ids), or the worker runs exactly one. */
  private jobOfLine(pw: ProcessWorker, text: string): string | undefined {
    for (const id of pw.recent) if (text.includes(id)) return id;
    const running = [...pw.w.jobs].filter((j) => runsOn(j, pw.w));
    return running.length === 1 ? running[0]!.id : undefined;
  }

  private log(pw: ProcessWorker, stream: 'stdout' | 'stderr' | 'emulator', text: string, jobId?: string): void {
    this.logs.add({ atMs: this.o.clock.now(), workerId: pw.w.id, stream, text, ...(jobId ? { jobId } : {}) });
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
}

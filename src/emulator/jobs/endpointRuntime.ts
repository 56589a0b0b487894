// One endpoint's workers and queue (issue 9 "Workers and a real queue per endpoint"): a discrete-event
// simulation on the emulator clock. Nothing ticks: every read first calls `advance(clock.now())`, which replays
// the events (a job becomes visible to workers, a worker finishes its cold start, a job ends, a queued job's
// TTL runs out, an idle worker times out) in time order up to that instant. Time only moves forward here, so
// moving the admin clock back never un-finishes a job, and a jump forward plays out everything in between.
//
// The model: a job is visible to workers `queueMs` after it is queued (the platform's hand-off latency, the
// whole delay when a worker is free). Workers take visible jobs in FIFO order, low-priority jobs only after
// every normal one. Scaling reacts at once: each queued normal job without a worker coming for it starts a new
// worker (up to workersMax), which is `initializing` for coldStartMs, then `idle`. Low-priority jobs never
// start a worker (docs "Execution policies": "won't trigger worker scaling"). An idle worker above workersMin
// stops after idleTimeoutMs, unless a queued job is waiting for it.
import type { RuntimeSettings } from './runtimeSettings';

export type WorkerStatus = 'initializing' | 'idle' | 'running' | 'throttled' | 'unhealthy';
/** How a job left the runtime: ran to its end (its output says COMPLETED or FAILED), or was ended early. */
export type RuntimeEnd = 'done' | 'CANCELLED' | 'TIMED_OUT';

export interface RuntimeJob {
  readonly id: string;
  /** When it was (last) queued: submission, or a retry. */
  queuedAtMs: number;
  /** How long it runs once a worker has it. */
  executionMs: number;
  lowPriority: boolean;
  /** Ends a running job TIMED_OUT after this long; 0 = never. */
  executionTimeoutMs: number;
  /** Ends the job TIMED_OUT at this instant, queued or running (policy.ttl, counted from queuedAtMs). */
  expiresAtMs: number;
  phase: 'queued' | 'running' | 'ended';
  startsAtMs?: number;
  endsAtMs?: number;
  end?: RuntimeEnd;
  workerId?: string;
}

interface Worker {
  id: string;
  status: 'initializing' | 'idle' | 'running';
  /** Ready at (initializing) or idle since (idle). */
  at: number;
  readyAtMs: number;
  job?: RuntimeJob;
  /** For a running job: when it ends, and how. */
  endsAt?: number;
  endsAs?: RuntimeEnd;
}

/** One live worker, as GET /v2/serverless/<id>/workers needs it (src/emulator/serverless/workersView.ts). */
export interface WorkerSnapshot {
  id: string;
  /** Throttled workers do not happen in the emulator; unhealthy ones only on `worker` endpoints (real processes). */
  state: 'initializing' | 'idle' | 'running' | 'unhealthy';
  /** When its cold start ended (undefined while initializing). */
  readyAtMs?: number;
  /** The job a running worker has. */
  jobId?: string;
}

export interface WorkerCounts {
  idle: number;
  initializing: number;
  /** Workers past their cold start: idle or running. */
  ready: number;
  running: number;
  throttled: number;
  unhealthy: number;
}

export class EndpointRuntime {
  private t: number;
  private readonly workers: Worker[] = [];
  /** Normal and low-priority queues, each in the order jobs were queued. */
  private readonly queue: RuntimeJob[] = [];
  private readonly lowQueue: RuntimeJob[] = [];
  private workerCount = 0;

  /** `onEnd` is told of every job that ends, at the step that ends it; it must not call back into the runtime. */
  constructor(
    private readonly s: RuntimeSettings, private readonly workerPrefix: string, nowMs: number,
    private readonly onEnd: (job: RuntimeJob) => void = () => {},
  ) {
    this.t = nowMs;
    // Active (min) workers are up from the start, already warm.
    for (let i = 0; i < Math.min(s.workersMin, s.workersMax); i++) this.addWorker(true);
  }

  /** Simulation time: the latest instant the runtime has been advanced to. */
  get now(): number {
    return this.t;
  }

  /** Replays every event up to `toMs` (never backwards). */
  advance(toMs: number): void {
    this.step();
    for (;;) {
      const next = this.nextEventAt();
      if (next === undefined || next > toMs) break;
      this.t = next;
      this.step();
    }
    if (toMs > this.t) {
      this.t = toMs;
      this.step();
    }
  }

  /** The next instant something changes (undefined: nothing will until a request comes). */
  nextEventAt(): number | undefined {
    let next = Number.POSITIVE_INFINITY;
    const consider = (at: number): void => {
      if (at > this.t && at < next) next = at;
    };
    for (const w of this.workers) {
      if (w.status === 'running') consider(w.endsAt!);
      else if (w.status === 'initializing') consider(w.at);
      else if (this.canRetire()) consider(w.at + this.s.idleTimeoutMs);
    }
    for (const q of [this.queue, this.lowQueue]) {
      for (const job of q) {
        consider(job.queuedAtMs + this.s.queueMs);
        consider(job.expiresAtMs);
      }
    }
    return Number.isFinite(next) ? next : undefined;
  }

  enqueue(job: RuntimeJob): void {
    job.phase = 'queued';
    (job.lowPriority ? this.lowQueue : this.queue).push(job);
    this.step();
  }

  /** Ends a queued or running job CANCELLED now; false if it had already ended. */
  cancel(job: RuntimeJob): boolean {
    if (job.phase === 'queued') {
      this.unqueue(job);
      this.finish(job, this.t, 'CANCELLED');
    } else if (job.phase === 'running') {
      const w = this.workers.find((x) => x.job === job)!;
      this.release(w, this.t, 'CANCELLED');
    } else {
      return false;
    }
    this.step();
    return true;
  }

  /** Cancels every queued job (running ones go on); returns them. */
  purge(): RuntimeJob[] {
    const removed = [...this.queue, ...this.lowQueue];
    this.queue.length = 0;
    this.lowQueue.length = 0;
    for (const job of removed) this.finish(job, this.t, 'CANCELLED');
    this.step();
    return removed;
  }

  /** Jobs waiting for a worker (for the platform's queue-size 429). */
  queuedCount(): number {
    return this.queue.length + this.lowQueue.length;
  }

  snapshot(): WorkerSnapshot[] {
    return this.workers.map((w) => ({
      id: w.id,
      state: w.status,
      ...(w.status === 'initializing' ? {} : { readyAtMs: w.readyAtMs }),
      ...(w.job ? { jobId: w.job.id } : {}),
    }));
  }

  counts(): WorkerCounts {
    const c: WorkerCounts = { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 };
    for (const w of this.workers) {
      c[w.status]++;
      if (w.status !== 'initializing') c.ready++;
    }
    return c;
  }

  /** Applies every event due at or before the current instant, then hands out work and scales. */
  private step(): void {
    const t = this.t;
    for (const w of this.workers) {
      if (w.status === 'running' && w.endsAt! <= t) this.release(w, w.endsAt!, w.endsAs!);
      else if (w.status === 'initializing' && w.at <= t) w.status = 'idle';
    }
    this.dispatch();
    for (const q of [this.queue, this.lowQueue]) {
      for (const job of q.filter((j) => j.expiresAtMs <= t)) {
        q.splice(q.indexOf(job), 1);
        this.finish(job, job.expiresAtMs, 'TIMED_OUT'); // expired before a worker picked it up (docs "Job states")
      }
    }
    for (const w of [...this.workers]) {
      if (w.status === 'idle' && w.at + this.s.idleTimeoutMs <= t && this.canRetire()) {
        this.workers.splice(this.workers.indexOf(w), 1);
      }
    }
  }

  /** Idle workers take visible jobs; then workers are started for normal jobs that have none coming. */
  private dispatch(): void {
    const t = this.t;
    for (const w of this.workers) {
      if (w.status !== 'idle') continue;
      const normal = this.queue[0];
      let job: RuntimeJob | undefined;
      if (normal && normal.queuedAtMs + this.s.queueMs <= t) job = this.queue.shift();
      // A low-priority job only gets a worker that no queued normal job is waiting for.
      else if (this.lowQueue[0] && this.lowQueue[0].queuedAtMs + this.s.queueMs <= t && this.idleCount() > this.queue.length) job = this.lowQueue.shift();
      if (job) this.start(w, job, t);
    }
    let coming = this.workers.filter((w) => w.status !== 'running').length;
    while (this.queue.length > coming && this.workers.length < this.s.workersMax) {
      this.addWorker(false);
      coming++;
    }
    // A worker with no cold start is idle at once: let it take a job that is already visible.
    if (this.s.coldStartMs === 0 && this.workers.some((w) => w.status === 'idle') && this.hasVisibleWork(t)) this.dispatch();
  }

  private hasVisibleWork(t: number): boolean {
    const n = this.queue[0];
    const l = this.lowQueue[0];
    return (n !== undefined && n.queuedAtMs + this.s.queueMs <= t) || (l !== undefined && l.queuedAtMs + this.s.queueMs <= t && this.idleCount() > this.queue.length);
  }

  private idleCount(): number {
    return this.workers.filter((w) => w.status === 'idle').length;
  }

  /** An idle worker may stop: above workersMin, and more idle/starting workers than queued normal jobs. */
  private canRetire(): boolean {
    if (this.workers.length <= this.s.workersMin) return false;
    return this.workers.filter((w) => w.status !== 'running').length > this.queue.length;
  }

  private addWorker(warm: boolean): void {
    const readyAtMs = warm ? this.t : this.t + this.s.coldStartMs;
    const w: Worker = {
      id: `${this.workerPrefix}${(this.workerCount++).toString(36)}`,
      status: readyAtMs <= this.t ? 'idle' : 'initializing',
      at: readyAtMs,
      readyAtMs,
    };
    this.workers.push(w);
  }

  private start(w: Worker, job: RuntimeJob, t: number): void {
    w.status = 'running';
    w.job = job;
    job.phase = 'running';
    job.startsAtMs = t;
    job.workerId = w.id;
    const natural = t + job.executionMs;
    const timeout = job.executionTimeoutMs > 0 ? t + job.executionTimeoutMs : Number.POSITIVE_INFINITY;
    const cutoff = Math.min(timeout, job.expiresAtMs);
    // A job that would end exactly at its limit still counts as done: it reported back in time.
    w.endsAt = Math.min(natural, cutoff);
    w.endsAs = natural <= cutoff ? 'done' : 'TIMED_OUT';
  }

  private release(w: Worker, at: number, end: RuntimeEnd): void {
    const job = w.job!;
    w.status = 'idle';
    w.at = at;
    w.job = undefined;
    w.endsAt = undefined;
    w.endsAs = undefined;
    this.finish(job, at, end);
  }

  private finish(job: RuntimeJob, at: number, end: RuntimeEnd): void {
    job.phase = 'ended';
    job.endsAtMs = at;
    job.end = end;
    this.onEnd(job);
  }

  private unqueue(job: RuntimeJob): void {
    for (const q of [this.queue, this.lowQueue]) {
      const i = q.indexOf(job);
      if (i >= 0) q.splice(i, 1);
    }
  }
}

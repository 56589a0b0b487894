// One endpoint's queue and workers (issue 9's model; issue 21: one engine for every endpoint kind). A
// discrete-event simulation on the emulator clock: `advance(clock.now())` replays the events (a job becomes
// visible to workers, a cold start ends, a job ends by itself or at its deadline, a queued job's TTL runs out,
// an idle worker times out, an unhealthy worker's linger ends) in time order up to that instant; a timer does
// the same at the next event, so jobs end, webhooks go and real workers are told to stop even when nobody
// reads. Time only moves forward here: moving the admin clock back never un-finishes a job.
//
// The model: a job is visible to workers `queueMs` after it is queued (the platform's hand-off latency).
// Workers take visible jobs first in, first out, low-priority jobs only when no normal job is waiting for the
// room (waitingLine.ts). Scaling reacts at once: each waiting normal job without a worker coming for it starts a
// new worker (up to workersMax), which is `initializing` until its cold start ends. Low-priority jobs never start
// a worker (docs "Execution policies"). An idle worker above workersMin stops after idleTimeoutMs, unless a
// waiting job needs it. What differs between endpoint kinds is only how a worker runs a job: the WorkerDriver.
import type { EmulatorClock } from '../clock';
import type { RuntimeSettings } from './runtimeSettings';
import type { EmulatedJob, RuntimeEnd, WorkerCounts, WorkerSnapshot } from './job';
import { WaitingLine } from './waitingLine';
import { billIdleTime, cycleWorkers } from './workerCycle';
import { endOf, runsOn, UNHEALTHY_LINGER_MS, type EngineHooks, type EngineWorker, type WorkerDriver } from './workerDriver';

export class Engine {
  private t: number;
  private readonly workers: EngineWorker[] = [];
  private readonly line: WaitingLine;
  private workerCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt: number | undefined;
  private closed = false;
  private readonly offClock: () => void;

  constructor(
    private readonly s: RuntimeSettings, private readonly workerPrefix: string, private readonly clock: EmulatorClock,
    readonly driver: WorkerDriver, private readonly hooks: EngineHooks,
  ) {
    this.t = clock.now();
    this.line = new WaitingLine(s.queueMs);
    // A clock move changes how far away the next event is.
    this.offClock = clock.onChange(() => this.schedule(true));
    // Active (min) workers are up from the start, warm where the kind allows it.
    for (let i = 0; i < Math.min(s.workersMin, s.workersMax); i++) this.spawn(true);
    this.step();
  }

  /** Simulation time: the latest instant the engine has been advanced to. */
  get now(): number { return this.t; }

  /** Replays every event up to `toMs` (never backwards). */
  advance(toMs: number): void {
    if (this.closed) return;
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

  /** The next instant something changes by itself (undefined: nothing will until a request or a worker acts). */
  nextEventAt(): number | undefined {
    let next = this.line.nextEventAfter(this.t) ?? Number.POSITIVE_INFINITY;
    const consider = (at: number | undefined): void => {
      if (at !== undefined && at > this.t && at < next) next = at;
    };
    const retirable = this.canRetire();
    for (const w of this.workers) {
      if (w.status === 'initializing') consider(w.readyAtMs);
      else if (w.status === 'idle' && retirable) consider(w.idleSinceMs + this.s.idleTimeoutMs);
      for (const job of w.jobs) if (runsOn(job, w)) consider(endOf(job).at);
      consider(w.removeAtMs);
    }
    return Number.isFinite(next) ? next : undefined;
  }

  enqueue(job: EmulatedJob): void {
    job.phase = 'queued';
    this.line.add(job);
    this.step();
  }

  /** Ends a queued or running job CANCELLED now; false if it had already ended. */
  cancel(job: EmulatedJob): boolean {
    if (job.phase === 'queued') {
      this.line.remove(job);
      this.finish(job, this.t, 'CANCELLED');
    } else if (job.phase === 'running') {
      this.endOnWorker(job, this.t, 'CANCELLED');
    } else {
      return false;
    }
    this.step();
    return true;
  }

  /** Cancels every queued job (running ones go on); returns them. */
  purge(): EmulatedJob[] {
    const removed = this.line.drain();
    for (const job of removed) this.finish(job, this.t, 'CANCELLED');
    this.step();
    return removed;
  }

  /** Jobs waiting for a worker (for the platform's queue-size 429). */
  queuedCount(): number {
    return this.line.count;
  }

  snapshot(): WorkerSnapshot[] {
    return this.workers.map((w) => {
      const running = [...w.jobs].find((j) => runsOn(j, w));
      return {
        id: w.id,
        state: w.status,
        ...(w.status !== 'initializing' && w.readyAtMs !== undefined ? { readyAtMs: w.readyAtMs } : {}),
        ...(running ? { jobId: running.id } : {}),
        version: w.version,
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

  /** The workers, for a driver's own views (the process list). */
  list(): readonly EngineWorker[] {
    return this.workers;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.offClock();
    for (const w of this.workers) this.driver.stop(w, 'the emulator is closing');
  }

  // ---- what a driver reports ----

  /** The worker's cold start is over now (a process worker's first job take). */
  ready(w: EngineWorker): void {
    if (w.status !== 'initializing') return;
    w.readyAtMs = this.t;
    this.becomeReady(w);
    this.step();
  }

  /** The worker finished `job` with this result (a late result of a job that already ended is dropped: false). */
  complete(w: EngineWorker, job: EmulatedJob, result: NonNullable<EmulatedJob['result']>): boolean {
    const current = runsOn(job, w);
    if (current) {
      job.result = result;
      this.finish(job, this.t, 'done');
    }
    this.letGo(w, job);
    this.step();
    return current;
  }

  /** The worker no longer holds `job` without having reported it: one still running ends FAILED with `why`. */
  release(w: EngineWorker, job: EmulatedJob, why: string): void {
    if (runsOn(job, w)) {
      job.result = { status: 'FAILED', error: why };
      this.finish(job, this.t, 'done');
    }
    this.letGo(w, job);
    this.step();
  }

  /** The worker takes no more jobs, and stops as soon as it holds none (refresh_worker). */
  retire(w: EngineWorker): void {
    w.retiring = true;
    this.step();
  }

  /** The worker died or went silent: its running jobs end TIMED_OUT (docs "Job states": no result came back). */
  markUnhealthy(w: EngineWorker, reason: string): void {
    if (w.status === 'unhealthy' || !this.workers.includes(w)) return;
    w.status = 'unhealthy';
    w.unhealthyReason = reason;
    w.removeAtMs = this.t + UNHEALTHY_LINGER_MS;
    for (const job of [...w.jobs]) {
      w.jobs.delete(job);
      if (!runsOn(job, w)) continue;
      job.endReason = `Worker ${w.id} became unhealthy (${reason}) before it reported a result; a job whose worker never reports back ends TIMED_OUT.`;
      this.finish(job, this.t, 'TIMED_OUT');
    }
    this.step();
  }

  /** Re-runs the scheduling now (a process worker opened a take, the endpoint's settings changed). */
  poke(): void { this.step(); }

  // ---- internals ----

  /** Applies every event due at or before the current instant, then hands out work and scales. */
  private step(): void {
    if (this.closed) return;
    const t = this.t;
    billIdleTime(this.workers, this.s.billAlwaysOn ? this.s.workersMin : 0, t, this.hooks.onIdleBilled);
    for (const w of this.workers) {
      if (w.status === 'initializing' && w.readyAtMs !== undefined && w.readyAtMs <= t) this.becomeReady(w);
      for (const job of [...w.jobs]) {
        if (!runsOn(job, w)) continue;
        const e = endOf(job);
        if (e.at <= t) this.endOnWorker(job, e.at, e.end);
      }
    }
    for (const w of [...this.workers]) {
      if (w.removeAtMs !== undefined && w.removeAtMs <= t) this.drop(w, 'its linger as unhealthy is over');
      else if (w.retiring && w.jobs.size === 0) this.drop(w, w.retireReason ?? 'refresh_worker: the handler asked for a fresh worker');
    }
    cycleWorkers(this.workers, this.s.workersMax, this.hooks.versionNow?.() ?? 1, (w, why) => this.drop(w, why));
    this.dispatch();
    // Expired before a worker picked it up (docs "Job states").
    for (let job = this.line.expiredBy(t); job; job = this.line.expiredBy(t)) this.finish(job, job.expiresAtMs, 'TIMED_OUT');
    for (const w of [...this.workers]) {
      if (w.status === 'idle' && w.idleSinceMs + this.s.idleTimeoutMs <= t && this.canRetire()) this.drop(w, `idle for ${this.s.idleTimeoutMs} ms`);
    }
    if (this.scale()) this.dispatch();
    this.schedule();
  }

  /** Workers with room take visible jobs. */
  private dispatch(): void {
    const t = this.t;
    if (!this.line.hasVisible(t)) return;
    const open = this.workers.filter((w) => this.takesJobs(w));
    const room = open.map((w) => this.driver.capacity(w));
    let free = room.reduce((a, b) => a + b, 0);
    open.forEach((w, i) => {
      const given: EmulatedJob[] = [];
      // Not a job whose earlier run this worker still holds: results are named by job id alone (retry after a timeout).
      const accept = (job: EmulatedJob): boolean => !w.jobs.has(job);
      while (given.length < room[i]!) {
        const job = this.line.take(t, free, accept);
        if (!job) break;
        free--;
        job.phase = 'running';
        job.startsAtMs = t;
        job.workerId = w.id;
        w.jobs.add(job);
        given.push(job);
      }
      if (!given.length) return;
      w.status = 'running';
      this.driver.give(w, given);
    });
  }

  private takesJobs(w: EngineWorker): boolean {
    return (w.status === 'idle' || w.status === 'running') && !w.retiring;
  }

  /** Starts workers up to workersMin, and one per waiting normal job no worker is coming for; true if one is ready at once. */
  private scale(): boolean {
    let readyNow = false;
    let live = this.workers.filter((w) => w.status !== 'unhealthy' && !w.retiring).length;
    let coming = this.workers.filter((w) => this.isComing(w)).length;
    while (this.workers.length < this.s.workersMax && (live < this.s.workersMin || this.line.normalCount > coming)) {
      if (this.spawn(false).status === 'idle') readyNow = true;
      live++;
      coming++;
    }
    return readyNow;
  }

  /** A worker that will take a job: starting, idle, or running with room for more (concurrency above 1). */
  private isComing(w: EngineWorker): boolean {
    if (w.retiring || w.status === 'unhealthy') return false;
    return w.status !== 'running' || this.driver.capacity(w) > 0;
  }

  /** An idle worker may stop: above workersMin, and more workers coming than normal jobs waiting. */
  private canRetire(): boolean {
    const live = this.workers.filter((w) => w.status !== 'unhealthy' && !w.retiring).length;
    if (live <= this.s.workersMin) return false;
    return this.workers.filter((w) => this.isComing(w)).length > this.line.normalCount;
  }

  private spawn(warm: boolean): EngineWorker {
    const w: EngineWorker = {
      id: `${this.workerPrefix}${(this.workerCount++).toString(36)}`,
      status: 'initializing', spawnedAtMs: this.t, idleSinceMs: this.t, jobs: new Set(), retiring: false, version: this.hooks.versionNow?.() ?? 1,
    };
    this.workers.push(w);
    w.readyAtMs = this.driver.start(w, warm);
    if (w.readyAtMs !== undefined && w.readyAtMs <= this.t) this.becomeReady(w);
    return w;
  }

  private becomeReady(w: EngineWorker): void {
    w.status = 'idle';
    w.idleSinceMs = w.readyAtMs!;
    this.hooks.onWorkerReady(w, w.readyAtMs! - w.spawnedAtMs);
  }

  /** A running job ends at `at`: by itself ('done'), or early (its worker is told to stop it). */
  private endOnWorker(job: EmulatedJob, at: number, end: RuntimeEnd): void {
    const w = this.workers.find((x) => x.id === job.workerId && x.jobs.has(job));
    this.finish(job, at, end);
    if (!w) return;
    if (end !== 'done') this.driver.stopJob(w, job, end);
    if (end === 'done' || !this.driver.holdsEndedJobs) this.letGo(w, job, at);
  }

  /** The worker holds `job` no more; with nothing left it is idle from `at`. */
  private letGo(w: EngineWorker, job: EmulatedJob, at = this.t): void {
    if (!w.jobs.delete(job)) return;
    if (w.status === 'running' && w.jobs.size === 0) {
      w.status = 'idle';
      w.idleSinceMs = at;
    }
  }

  private finish(job: EmulatedJob, at: number, end: RuntimeEnd): void {
    job.phase = 'ended';
    job.endsAtMs = at;
    job.end = end;
    job.doneAtMs = undefined;
    this.hooks.onJobEnd(job);
  }

  private drop(w: EngineWorker, why: string): void {
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    this.driver.stop(w, why);
  }

  /** A timer for the next event, so jobs end (webhooks, stop signals) even when nobody reads. */
  private schedule(clockMoved = false): void {
    const next = this.nextEventAt();
    if (!clockMoved && this.timer && next === this.timerAt) return; // most reads change nothing: keep the timer
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = next;
    if (next === undefined || this.closed) return;
    this.timer = setTimeout(() => { this.timer = undefined; this.advance(this.clock.now()); }, Math.min(2_147_483_647, Math.max(1, next - this.clock.now())));
    this.timer.unref();
  }
}

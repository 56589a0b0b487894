// One endpoint's queue and workers (issues 9, 21, 29): a discrete-event simulation. `advance(now)` replays the
// events (a job becomes visible, a cold start ends, a job ends or times out, a TTL runs out, the scaler looks, an
// idle worker times out, an unhealthy worker's linger ends) in time order; a timer (eventTimer.ts) does the same
// at the next event, so jobs end even when nobody reads. Time only moves forward. A job is visible `queueMs`
// after it is queued; workers take visible jobs FIFO, low-priority ones only when no normal job waits
// (waitingLine.ts). The scaler (scaler.ts) starts workers by the endpoint's scaler type up to workersMax; a new
// worker is `initializing` for its cold start (shorter with FlashBoot once the endpoint has booted). An idle
// worker above workersMin stops after idleTimeoutMs. Each worker life is counted and billed (workerLives.ts).
// The WorkerDriver says how a worker runs a job. A replay (core tune) runs this engine with no timers.
import type { EmulatorClock } from '../clock';
import type { RuntimeSettings, SettingsChange } from './runtimeSettings';
import { EventTimer } from './eventTimer';
import { aboveMax, nextLookAt, scaleViewOf, workersToAdd, type ScaleView } from './scaler';
import { WorkerLives } from './workerLives';
import type { EmulatedJob, RuntimeEnd } from './job';
import { WaitingLine } from './waitingLine';
import { cycleWorkers } from './workerCycle';
import { endOf, isComing, runsOn, UNHEALTHY_LINGER_MS, type EngineHooks, type EngineWorker, type WorkerDriver } from './workerDriver';

/** What the engine reads of a clock: the emulator's, or a replay's own. */
export type EngineClock = Pick<EmulatorClock, 'now' | 'onChange'>;

export class Engine {
  /** Every worker's life: its start, execution and idle time (the admin route and the replay read it). */
  readonly lives: WorkerLives;
  private readonly s: RuntimeSettings;
  private t: number;
  private readonly workers: EngineWorker[] = [];
  private readonly line: WaitingLine;
  private workerCount = 0;
  private readonly timer: EventTimer | undefined;
  private closed = false;
  private readonly offClock: () => void;
  /** FlashBoot: the endpoint has booted a worker, and its state stays cached until this instant while none is up. */
  private booted = false;
  private cachedUntilMs = Number.NEGATIVE_INFINITY;
  private lastLookAt: number | undefined; // the scaler looks once per instant

  /** `timers: false`: nothing happens unless advance() is called (a replay drives it). */
  constructor(
    settings: RuntimeSettings, private readonly workerPrefix: string, clock: EngineClock,
    readonly driver: WorkerDriver, private readonly hooks: EngineHooks, timers = true,
  ) {
    this.s = { ...settings };
    this.lives = new WorkerLives(hooks.onWorkerTime);
    this.t = clock.now();
    this.line = new WaitingLine(settings.queueMs);
    this.timer = timers ? new EventTimer(clock, () => this.advance(clock.now())) : undefined;
    // A clock move changes how far away the next event is.
    this.offClock = clock.onChange(() => this.schedule(true));
    // Active (min) workers are up from the start, warm where the kind allows it.
    for (let i = 0; i < Math.min(settings.workersMin, settings.workersMax); i++) this.spawn(true);
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
    consider(nextLookAt(this.s, this.scaleView()));
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

  /**
   * Settings change while the endpoint runs (a PATCH). workersMax lowered: idle and starting workers above it stop
   * now, running ones finish their jobs first. workersMin raised: workers start now. The rest apply from now on.
   */
  updateSettings(next: SettingsChange): void {
    for (const [k, v] of Object.entries(next)) if (v !== undefined) (this.s as unknown as Record<string, unknown>)[k] = v;
    for (const w of aboveMax(this.workers, this.s.workersMax)) {
      if (w.status === 'running') w.retiring = true;
      else this.drop(w, `workersMax lowered to ${this.s.workersMax}`);
    }
    this.step();
  }

  /** Counts every worker's time up to now into its life (and the bill): before a billing query or a read of lives. */
  accrueAll(): void {
    for (const w of this.workers) this.lives.accrue(w, this.t);
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

  /** The workers, for a driver's own views (the process list) and /health (workerViews.ts). */
  list(): readonly EngineWorker[] {
    return this.workers;
  }

  close(): void {
    this.closed = true;
    this.timer?.clear();
    this.offClock();
    for (const w of this.workers) this.driver.stop(w, 'the emulator is closing');
  }

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
    this.lives.close(w, this.t, `unhealthy: ${reason}`);
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
      else if (w.retiring && w.jobs.size === 0) this.drop(w, w.retireReason ?? 'it was retiring (refresh_worker, or workersMax lowered)');
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
      this.lives.accrue(w, t);
      w.status = 'running';
      this.driver.give(w, given);
    });
  }

  private takesJobs(w: EngineWorker): boolean {
    return (w.status === 'idle' || w.status === 'running') && !w.retiring;
  }

  /** Starts the workers the scaler asks for (workersMin first); true if one is ready at once. */
  private scale(): boolean {
    let readyNow = false;
    const view = this.scaleView();
    for (let n = workersToAdd(this.s, view); n > 0; n--) if (this.spawn(false).status === 'idle') readyNow = true;
    if (view.inQueue > view.coming) this.lastLookAt = this.t;
    return readyNow;
  }

  private scaleView(): ScaleView {
    return scaleViewOf(this.t, this.s, this.workers, this.line, this.driver, this.lastLookAt);
  }

  /** An idle worker may stop: above workersMin, and more workers coming than normal jobs waiting. */
  private canRetire(): boolean {
    const live = this.workers.filter((w) => w.status !== 'unhealthy' && !w.retiring).length;
    if (live <= this.s.workersMin) return false;
    return this.workers.filter((w) => isComing(w, this.driver)).length > this.line.normalCount;
  }

  private spawn(warm: boolean): EngineWorker {
    const w: EngineWorker = {
      id: `${this.workerPrefix}${(this.workerCount++).toString(36)}`,
      status: 'initializing', spawnedAtMs: this.t, idleSinceMs: this.t, jobs: new Set(), retiring: false, version: this.hooks.versionNow?.() ?? 1,
    };
    this.workers.push(w);
    const flash = !warm && this.s.flashboot && this.booted && (this.cachedUntilMs >= this.t || this.workers.some((x) => x.status === 'idle' || x.status === 'running'));
    this.lives.open(w, this.t, flash, warm);
    w.readyAtMs = this.driver.start(w, warm ? 0 : flash ? Math.min(this.s.coldStartMs, this.s.flashbootColdStartMs) : this.s.coldStartMs, warm);
    if (w.readyAtMs !== undefined && w.readyAtMs <= this.t) this.becomeReady(w);
    return w;
  }

  private becomeReady(w: EngineWorker): void {
    this.lives.accrue(w, w.readyAtMs!);
    this.booted = true;
    w.status = 'idle';
    w.idleSinceMs = w.readyAtMs!;
    this.hooks.onWorkerReady?.(w, w.readyAtMs! - w.spawnedAtMs);
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
      this.lives.accrue(w, at);
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
    this.lives.close(w, this.t, why);
    if (this.booted) this.cachedUntilMs = this.t + this.s.flashbootWindowMs;
    this.driver.stop(w, why);
  }

  /** A timer for the next event, so jobs end (webhooks, stop signals) even when nobody reads. */
  private schedule(clockMoved = false): void {
    if (this.timer && !this.closed) this.timer.set(this.nextEventAt(), clockMoved);
  }
}

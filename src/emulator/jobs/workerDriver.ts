// What the engine (jobs/engine.ts) asks of a kind of worker, and what it keeps about each worker: the one seam
// between the shared queue and job lifecycle and the two ways a job runs (a simulated worker, or a process on
// the platform's worker protocol).
import type { EmulatedJob, RuntimeEnd } from './job';
import type { LifeBill } from './workerLives';

/** An unhealthy worker stays listed (and counts towards workersMax) this long, so a crash is not restarted in a tight loop. */
export const UNHEALTHY_LINGER_MS = 10_000;

export interface EngineWorker {
  readonly id: string;
  status: 'initializing' | 'idle' | 'running' | 'unhealthy';
  spawnedAtMs: number;
  /** When its cold start ends or ended; undefined while a process worker has not said it is ready. */
  readyAtMs?: number;
  idleSinceMs: number;
  /** Jobs it holds. A process worker keeps a job it was told to stop until it lets go of it. */
  readonly jobs: Set<EmulatedJob>;
  /** It takes no more jobs and stops once it holds none (refresh_worker, a new release, workersMax lowered). */
  retiring: boolean;
  retireReason?: string;
  unhealthyReason?: string;
  removeAtMs?: number;
  /** The endpoint configuration version it was started with (workers roll over to a new release as they cycle). */
  version: number;
}

/** How a kind of worker runs jobs: a simulated worker, or a process on the platform's worker protocol. */
export interface WorkerDriver {
  /** True: a job ended early (cancel, timeout) stays held by its worker until the worker lets go of it. */
  readonly holdsEndedJobs: boolean;
  /**
   * A new worker whose cold start should take `coldStartMs` (0: a warm worker min; shorter with FlashBoot): returns
   * when it ends if that is known now, else undefined (a process worker: engine.ready() later).
   */
  start(w: EngineWorker, coldStartMs: number, warm?: boolean): number | undefined;
  /** How many more jobs the worker takes right now. */
  capacity(w: EngineWorker): number;
  /** Hands it jobs, already marked running on it. */
  give(w: EngineWorker, jobs: EmulatedJob[]): void;
  /** A job running on it ended early: tell the worker to stop it. */
  stopJob(w: EngineWorker, job: EmulatedJob, end: RuntimeEnd): void;
  /** The worker leaves the endpoint (idle timeout, refresh, its linger is over, the emulator closes). */
  stop(w: EngineWorker, why: string): void;
}

export interface EngineHooks {
  /** Told of every job that ends, at the step that ends it; it must not call back into the engine. */
  onJobEnd(job: EmulatedJob): void;
  /** A worker's cold start ended. */
  onWorkerReady?(w: EngineWorker, coldStartMs: number): void;
  /** A span of a worker's life to bill (docs "Pricing": start, execution and idle, rounded up per life). */
  onWorkerTime?: LifeBill;
  /** The endpoint's current configuration version (a new worker starts on it); default 1. */
  versionNow?(): number;
}

/**
 * The job is running, and on this worker: a job that ended here (timed out, its worker died) and was retried may
 * be running on another worker under the same id, and what this worker still says about it is stale.
 */
export function runsOn(job: EmulatedJob, w: EngineWorker): boolean {
  return job.phase === 'running' && job.workerId === w.id;
}

/** When and how a running job ends if nothing else happens: by itself, or at its execution timeout or ttl. */
export function endOf(job: EmulatedJob): { at: number; end: RuntimeEnd } {
  const timeout = job.executionTimeoutMs > 0 ? job.startsAtMs! + job.executionTimeoutMs : Number.POSITIVE_INFINITY;
  const cutoff = Math.min(timeout, job.expiresAtMs);
  // A job that would end exactly at its limit still counts as done: it reported back in time.
  if (job.doneAtMs !== undefined && job.doneAtMs <= cutoff) return { at: job.doneAtMs, end: 'done' };
  return { at: cutoff, end: 'TIMED_OUT' };
}

/** A worker that will take a job: starting, idle, or running with room for more (concurrency above 1). */
export function isComing(w: EngineWorker, driver: WorkerDriver): boolean {
  if (w.retiring || w.status === 'unhealthy') return false;
  return w.status !== 'running' || driver.capacity(w) > 0;
}

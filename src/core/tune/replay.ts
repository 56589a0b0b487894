// A replay (issue 29 "Core: a replay"): the arrivals of some traffic (submit time, execution time) run through
// the emulator's own engine (src/emulator/jobs/engine.ts) in virtual time, under a given set of endpoint
// settings: one engine, not a second model of it, so the replay scales and bills exactly as the emulator does.
// Out: the cost split into start, execution and idle (per worker life, rounded up to the second), p50/p95/max
// queue wait, cold starts and peak workers. Synchronous and CPU-bound: the editor runs it in a worker thread
// (replayWorker.ts), never on the extension host's thread.
import { Engine } from '../../emulator/jobs/engine';
import type { EmulatedJob } from '../../emulator/jobs/job';
import type { RuntimeSettings, ScalerType } from '../../emulator/jobs/runtimeSettings';
import type { LifePart } from '../../emulator/jobs/workerLives';
import type { EngineWorker } from '../../emulator/jobs/workerDriver';
import { SimulatedWorkers } from '../../emulator/workers/simulated/simulatedDriver';

/** Simulated workers that count starts (a cold start is one that takes time) and the most up at once. */
class CountedWorkers extends SimulatedWorkers {
  live = 0;
  peak = 0;
  coldStarts = 0;

  override start(w: EngineWorker, coldStartMs: number): number {
    this.peak = Math.max(this.peak, ++this.live);
    if (coldStartMs > 0) this.coldStarts++;
    return super.start(w, coldStartMs);
  }

  override stop(): void {
    this.live--;
  }
}

export interface Arrival {
  /** When the job was submitted (ms since the epoch). */
  submitMs: number;
  /** How long it ran on its worker (the service's executionTime). */
  executionMs: number;
}

export interface ReplayTraffic {
  arrivals: readonly Arrival[];
  /** The endpoint's cold start (ms). */
  coldStartMs: number;
  /** The hand-off from queue to worker (ms, the service's part of delayTime; default 0). */
  queueMs?: number;
  /** USD per second of one worker (every GPU of it, and the rest of its prices). */
  pricePerWorkerSecond: number;
  /** The end of the window the arrivals come from: workers min are billed up to it (default: the last event). */
  windowEndMs?: number;
}

/** The settings a replay varies: the endpoint's, in the emulator's units. */
export interface ReplaySettings {
  workersMin: number;
  workersMax: number;
  idleTimeoutMs: number;
  scalerType: ScalerType;
  scalerValue: number;
  executionTimeoutMs?: number;
  flashboot?: boolean;
  flashbootColdStartMs?: number;
}

export interface ReplayResult {
  settings: ReplaySettings;
  jobs: number;
  costUsd: number;
  /** The cost split by the part of the worker lives it paid for (round-up to the second counted as idle). */
  startUsd: number;
  executionUsd: number;
  idleUsd: number;
  waitP50Ms: number;
  waitP95Ms: number;
  waitMaxMs: number;
  coldStarts: number;
  peakWorkers: number;
  timedOut: number;
}

export interface ReplayOptions {
  /** Told every `progressEvery` arrivals (default 1000). */
  onProgress?: (doneArrivals: number) => void;
  progressEvery?: number;
  /** Asked with each progress: true stops the replay (it throws ReplayCancelled). */
  cancelled?: () => boolean;
}

export class ReplayCancelled extends Error {
  constructor() { super('The replay was cancelled.'); }
}

/** p in [0, 1] of sorted values (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function replay(traffic: ReplayTraffic, settings: ReplaySettings, options: ReplayOptions = {}): ReplayResult {
  const arrivals = [...traffic.arrivals].sort((a, b) => a.submitMs - b.submitMs);
  const start = arrivals[0]?.submitMs ?? 0;
  let now = start;
  const runtime: RuntimeSettings = {
    queueMs: traffic.queueMs ?? 0, coldStartMs: traffic.coldStartMs,
    workersMin: settings.workersMin, workersMax: settings.workersMax, idleTimeoutMs: settings.idleTimeoutMs,
    scalerType: settings.scalerType, scalerValue: settings.scalerValue,
    flashboot: settings.flashboot ?? false, flashbootColdStartMs: settings.flashbootColdStartMs ?? 1000, flashbootWindowMs: 600_000,
  };
  const waits: number[] = [];
  let timedOut = 0;
  // Summed from the bill as it passes, not from the lives kept (a long replay has more lives than are kept).
  const ms: Record<LifePart, number> = { start: 0, execution: 0, idle: 0 };
  const driver = new CountedWorkers();
  const engine = new Engine(runtime, 'r', { now: () => now, onChange: () => () => {} }, driver, {
    onWorkerTime: (_life, part, fromMs, toMs) => { ms[part] += toMs - fromMs; },
    onJobEnd: (job) => {
      if (job.startsAtMs !== undefined) waits.push(job.startsAtMs - job.queuedAtMs);
      if (job.end === 'TIMED_OUT') timedOut++;
    },
  }, false);
  const every = options.progressEvery ?? 1000;
  arrivals.forEach((a, i) => {
    now = Math.max(now, a.submitMs);
    engine.advance(now);
    engine.enqueue(jobOf(i, now, a.executionMs, settings.executionTimeoutMs ?? 600_000));
    if ((i + 1) % every === 0) {
      options.onProgress?.(i + 1);
      if (options.cancelled?.()) throw new ReplayCancelled();
    }
  });
  // Run out every job and every idle timeout (workers min never stop: they are counted up to the last event).
  for (let next = engine.nextEventAt(); next !== undefined; next = engine.nextEventAt()) {
    now = next;
    engine.advance(now);
  }
  if (traffic.windowEndMs !== undefined && traffic.windowEndMs > now) {
    now = traffic.windowEndMs;
    engine.advance(now);
  }
  engine.accrueAll();
  const price = traffic.pricePerWorkerSecond / 1000;
  waits.sort((a, b) => a - b);
  engine.close(); // the peak and the bill are counted already
  return {
    settings, jobs: arrivals.length,
    costUsd: (ms.start + ms.execution + ms.idle) * price, startUsd: ms.start * price, executionUsd: ms.execution * price, idleUsd: ms.idle * price,
    waitP50Ms: percentile(waits, 0.5), waitP95Ms: percentile(waits, 0.95), waitMaxMs: waits[waits.length - 1] ?? 0,
    coldStarts: driver.coldStarts, peakWorkers: driver.peak, timedOut,
  };
}

/** A job as the engine needs it: no account, input or webhook (the replay reads only times). */
function jobOf(i: number, atMs: number, executionMs: number, executionTimeoutMs: number): EmulatedJob {
  return {
    id: `r${i}`, queuedAtMs: atMs, executionMs, lowPriority: false, executionTimeoutMs,
    expiresAtMs: Number.MAX_SAFE_INTEGER, phase: 'queued', retentionMs: 0, retries: 0, streamCursor: 0,
  } as unknown as EmulatedJob;
}

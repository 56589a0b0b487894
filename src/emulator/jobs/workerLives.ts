// Each worker's life as the platform bills it (issue 29; docs "Pricing": "billed from when a worker starts
// until it fully stops, rounded up to the nearest second", covering its start, its execution and its idle
// timeout). The engine tells this ledger each time a worker changes state; the time since the last change is
// counted to the part the worker was in, and handed to the bill. When the worker stops, what rounds its whole
// life up to the next second is billed too (to the part it was in last, idle as a rule). Workers min are
// workers like any other: billed while they wait.

export type LifePart = 'start' | 'execution' | 'idle';

/** What the ledger reads of a worker: its id, and its state now. */
export interface LivingWorker {
  readonly id: string;
  readonly status: 'initializing' | 'idle' | 'running' | 'unhealthy';
}

export interface WorkerLife {
  readonly workerId: string;
  readonly startedAtMs: number;
  stoppedAtMs?: number;
  /** Milliseconds spent starting (the cold start), executing jobs, and idle, counted up to `accruedToMs`. */
  startMs: number;
  executionMs: number;
  idleMs: number;
  /** What rounding the stopped life up to the second added (billed at the stop). */
  roundUpMs: number;
  accruedToMs: number;
  /** Its cold start was a FlashBoot one. */
  flashboot: boolean;
  /** It was one of the workers min started with the endpoint, warm. */
  warm: boolean;
  stopReason?: string;
}

/** Told of every span of worker time to bill: `toMs - fromMs` of `part`, for the worker of `life`. */
export type LifeBill = (life: WorkerLife, part: LifePart, fromMs: number, toMs: number) => void;

/** The part of its life a worker in this state is in (an unhealthy worker's life is already over). */
export function partOf(status: LivingWorker['status']): LifePart | undefined {
  if (status === 'initializing') return 'start';
  if (status === 'running') return 'execution';
  if (status === 'idle') return 'idle';
  return undefined;
}

export class WorkerLives {
  private readonly byWorker = new Map<string, WorkerLife>();
  private readonly ended: WorkerLife[] = [];

  /** `keep`: how many stopped lives stay listed (a long-running emulator forgets the oldest). */
  constructor(private readonly bill: LifeBill | undefined, private readonly keep = 10_000) {}

  open(w: LivingWorker, atMs: number, flashboot: boolean, warm: boolean): void {
    this.byWorker.set(w.id, {
      workerId: w.id, startedAtMs: atMs, startMs: 0, executionMs: 0, idleMs: 0, roundUpMs: 0, accruedToMs: atMs, flashboot, warm,
    });
  }

  /** Counts the worker's time up to `atMs` to the part its current state is; call before its state changes. */
  accrue(w: LivingWorker, atMs: number): void {
    const life = this.byWorker.get(w.id);
    const part = partOf(w.status);
    if (!life || !part || atMs <= life.accruedToMs) return;
    const from = life.accruedToMs;
    life.accruedToMs = atMs;
    if (part === 'start') life.startMs += atMs - from;
    else if (part === 'execution') life.executionMs += atMs - from;
    else life.idleMs += atMs - from;
    this.bill?.(life, part, from, atMs);
  }

  /** The worker stopped at `atMs` (or its life is over: it became unhealthy): bill the round-up to the second. */
  close(w: LivingWorker, atMs: number, reason: string): void {
    const life = this.byWorker.get(w.id);
    if (!life) return;
    this.accrue(w, atMs);
    this.byWorker.delete(w.id);
    life.stoppedAtMs = Math.max(atMs, life.accruedToMs);
    life.stopReason = reason;
    const lived = life.stoppedAtMs - life.startedAtMs;
    life.roundUpMs = Math.ceil(lived / 1000) * 1000 - lived;
    const part = partOf(w.status) ?? 'idle';
    if (life.roundUpMs > 0) this.bill?.(life, part, life.stoppedAtMs, life.stoppedAtMs + life.roundUpMs);
    this.ended.push(life);
    if (this.ended.length > this.keep) this.ended.splice(0, this.ended.length - this.keep);
  }

  /** Every life, stopped ones first (oldest first), then the open ones as counted so far. */
  list(): WorkerLife[] {
    return [...this.ended, ...this.byWorker.values()];
  }

  /** Drops the stopped lives kept so far (a replay reads them once per run). */
  clearEnded(): void {
    this.ended.length = 0;
  }
}

/** Seconds a life is billed for: the whole of it, rounded up to the second (open lives: so far, unrounded). */
export function billedSeconds(life: WorkerLife): number {
  return (life.startMs + life.executionMs + life.idleMs + life.roundUpMs) / 1000;
}

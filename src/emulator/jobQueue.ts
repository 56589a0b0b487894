// The jobs of every user (SPEC 2.7, 3, 4.2-4.4, issue 3 "Jobs"). A job's state is a function of the emulator
// clock: IN_QUEUE for queueMs after submission, IN_PROGRESS for executionMs (status echoes `input`), then
// COMPLETED or FAILED. Nothing ticks: state is computed when asked, so moving the admin clock moves every job
// at once. When a job is first seen finished it is "settled": its output is built once and its cost is added
// to the owner's usage at its finish time (billing then shows the jobs run against the emulator). Finished
// jobs stay readable for retentionMinutes from their finish time (SPEC 8 rule 6), then are forgotten.
import { randomUUID } from 'node:crypto';
import type { Account } from './auth';
import type { Amounts } from './billingStore';
import type { EmulatorClock } from './clock';
import type { EndpointConfig } from './config';
import type { FileStore } from './fileStore';
import { buildOutput } from './outputs';
import { hashString } from './prng';

export interface EmulatedJob {
  id: string;
  account: Account;
  endpoint: EndpointConfig;
  input: Record<string, unknown>;
  submittedAtMs: number;
  startsAtMs: number;
  finishesAtMs: number;
  result?: { status: 'COMPLETED'; output: unknown } | { status: 'FAILED'; error: string };
}

/** The job object of SPEC 2.7 as the status, run and runsync routes return it. */
export type JobView = Record<string, unknown> & { id: string; status: string };

export interface JobQueueOptions {
  clock: EmulatorClock;
  retentionMs: number;
  files: FileStore;
  origin: () => string;
}

export class JobQueue {
  private readonly jobs = new Map<string, EmulatedJob>();
  private readonly unsettled = new Set<EmulatedJob>();

  constructor(private readonly o: JobQueueOptions) {}

  submit(account: Account, endpoint: EndpointConfig, input: Record<string, unknown>, sync: boolean): EmulatedJob {
    const now = this.o.clock.now();
    // SPEC 2.7: synchronous jobs carry a sync- prefix. Every job runs on its own worker (no shared queue), so
    // queueMs and executionMs are exactly what the endpoint's config says.
    const id = `${sync ? 'sync-' : ''}${randomUUID()}`;
    const job: EmulatedJob = {
      id, account, endpoint, input,
      submittedAtMs: now,
      startsAtMs: now + endpoint.queueMs,
      finishesAtMs: now + endpoint.queueMs + endpoint.executionMs,
    };
    this.jobs.set(id, job);
    this.unsettled.add(job);
    return job;
  }

  /** The job if `account` owns it on `endpointId` and it is still retained; else undefined (a 404). */
  find(account: Account, endpointId: string, jobId: string): EmulatedJob | undefined {
    const job = this.jobs.get(jobId);
    if (!job || job.account !== account || job.endpoint.id !== endpointId) return undefined;
    if (this.o.clock.now() >= job.finishesAtMs + this.o.retentionMs) {
      this.charge(job); // its cost still counts even if nobody looked at it in time
      this.jobs.delete(jobId);
      return undefined;
    }
    return job;
  }

  /** Finished on the clock, or already seen finished (moving the clock back does not un-finish a job). */
  isFinished(job: EmulatedJob): boolean {
    return job.result !== undefined || !this.unsettled.has(job) || this.o.clock.now() >= job.finishesAtMs;
  }

  view(job: EmulatedJob): JobView {
    const now = this.o.clock.now();
    const finished = this.isFinished(job);
    if (!finished && now < job.startsAtMs) return { id: job.id, status: 'IN_QUEUE' };
    const delayTime = job.startsAtMs - job.submittedAtMs;
    if (!finished) return { id: job.id, status: 'IN_PROGRESS', delayTime, input: job.input };
    const r = this.settle(job);
    const executionTime = job.finishesAtMs - job.startsAtMs;
    const workerId = workerIdOf(job);
    return r.status === 'COMPLETED'
      ? { id: job.id, status: 'COMPLETED', delayTime, executionTime, output: r.output, workerId }
      : { id: job.id, status: 'FAILED', delayTime, executionTime, error: r.error, workerId };
  }

  /** Charges every job that has finished by now (before a billing query, so it includes their cost). */
  settleFinished(): void {
    const now = this.o.clock.now();
    for (const job of this.unsettled) if (now >= job.finishesAtMs) this.charge(job);
  }

  /** Forgets jobs past retention (memory only: `find` checks retention itself). */
  sweep(): void {
    this.settleFinished();
    const now = this.o.clock.now();
    for (const [id, job] of this.jobs) if (now >= job.finishesAtMs + this.o.retentionMs) this.jobs.delete(id);
  }

  /**
   * Resolves when the job has finished on the emulator clock, after `waitMs` of real time, or on `signal`.
   * Real time bounds the wait because it is how long an HTTP request is held; a clock jump re-checks at once.
   */
  waitForEnd(job: EmulatedJob, waitMs: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const deadline = Date.now() + waitMs;
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        offClock();
        signal.removeEventListener('abort', check);
        resolve();
      };
      function check(this: void): void {
        clearTimeout(timer);
        if (signal.aborted || Date.now() >= deadline || isDone()) return done();
        timer = setTimeout(check, Math.max(1, Math.min(job.finishesAtMs - clock.now(), deadline - Date.now())));
      }
      const clock = this.o.clock;
      const isDone = (): boolean => this.isFinished(job);
      const offClock = clock.onChange(check);
      signal.addEventListener('abort', check);
      check();
    });
  }

  /** Builds the output once (lazily: a finished job nobody reads never draws its PNGs) and charges the job. */
  private settle(job: EmulatedJob): NonNullable<EmulatedJob['result']> {
    this.charge(job);
    if (job.result) return job.result;
    const r = buildOutput({
      jobId: job.id, endpoint: job.endpoint, input: job.input, cost: costOf(job),
      finishedAtMs: job.finishesAtMs, origin: this.o.origin(), files: this.o.files,
    });
    job.result = r.ok ? { status: 'COMPLETED', output: r.output } : { status: 'FAILED', error: r.error };
    return job.result;
  }

  /** Adds a finished job's cost to its owner's usage at its finish time, once. */
  private charge(job: EmulatedJob): void {
    if (!this.unsettled.has(job)) return;
    // A failed job still held a GPU for its execution time, so it is billed too.
    const a = amountsOf(job);
    job.account.usage.add(job.endpoint.id, job.finishesAtMs, a);
    this.unsettled.delete(job);
  }
}

function amountsOf(job: EmulatedJob): Amounts {
  const seconds = (job.finishesAtMs - job.startsAtMs) / 1000;
  const p = job.endpoint.prices;
  return { gpu: seconds * p.gpuPerSecond, cpu: seconds * p.cpuPerSecond, disk: seconds * p.diskPerSecond, fee: seconds * p.feePerSecond };
}

export function costOf(job: EmulatedJob): number {
  const a = amountsOf(job);
  return a.gpu + a.cpu + a.disk + a.fee;
}

/** Three emulated workers per endpoint; a job lands on one by its id. */
function workerIdOf(job: EmulatedJob): string {
  const n = hashString(job.id) % 3;
  return `${(hashString(job.endpoint.id) >>> 0).toString(36).padStart(7, '0')}w${n}`;
}

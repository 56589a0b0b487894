// The jobs of every user (SPEC 2.7, 3, 4.2-4.4; issue 9 for workers, cancel, retry, health, purge, stream).
// Each endpoint has an EndpointRuntime (jobs/endpointRuntime.ts): its workers and its queue, advanced to the
// emulator clock before every read, so moving the admin clock moves every job, cold start and idle timeout at
// once. When a job ends its cost (the time it ran x the endpoint's prices) is added to the owner's usage at the
// end time, and its webhook is called. A finished job's output is built once, lazily. Finished jobs stay
// readable for retentionMinutes from their end (SPEC 8 rule 6), or less when a status read set `?ttl=`.
import { randomUUID } from 'node:crypto';
import type { Account } from '../http/auth';
import type { Amounts } from '../billing/billingStore';
import type { EmulatorClock } from '../clock';
import type { EndpointConfig } from '../config';
import type { FileStore } from '../fileStore';
import { EndpointRuntime, type RuntimeJob, type WorkerCounts, type WorkerSnapshot } from './endpointRuntime';
import { llmExecutionMs } from '../workers/simulated/llm';
import type { RunBody } from './runBody';
import { streamBatches } from './streamView';
import { WebhookSender } from './webhooks';
import { buildOutput } from '../demo/outputs';
import { hashString } from '../prng';
import { HttpProblem } from '../http/respond';
import { WorkerRuntime, type WorkerRegistry } from '../workers/process/workerRuntime';

/** An endpoint's runtime: the simulated workers, or (kind `worker`) real worker processes with the same surface. */
type Runtime = EndpointRuntime | WorkerRuntime;

/** Default policy.ttl (docs "Execution policies"): a job not ended after 24 h is TIMED_OUT. */
export const DEFAULT_JOB_TTL_MS = 86_400_000;
/** The platform refuses a submit while the queue holds more than 50 jobs and more than workersMax x 500. */
const QUEUE_LIMIT_FLOOR = 50;
const QUEUE_LIMIT_PER_WORKER = 500;

export interface EmulatedJob extends RuntimeJob {
  account: Account;
  endpoint: EndpointConfig;
  input: Record<string, unknown>;
  webhook?: string;
  policy: RunBody['policy'];
  /** Readable this long after it ended. */
  retentionMs: number;
  /** How many times /retry requeued it. */
  retries: number;
  /** Stream batches already handed out by /stream. */
  streamCursor: number;
  result?: { status: 'COMPLETED'; output: unknown } | { status: 'FAILED'; error: string };
  /** Kind `worker`: the chunks its generator handler streamed, in order. */
  streamed?: Array<{ output: unknown }>;
  /** Why it ended TIMED_OUT when that was not a timeout (kind `worker`: its worker died). */
  endReason?: string;
}

/** The job object of SPEC 2.7 as the status, run and runsync routes return it. */
export type JobView = Record<string, unknown> & { id: string; status: string };

export interface JobQueueOptions {
  clock: EmulatorClock;
  retentionMs: number;
  files: FileStore;
  origin: () => string;
  log?: (line: string) => void;
  /** Where `worker` endpoints register their processes for the worker protocol's routes. */
  workers?: WorkerRegistry;
}

export interface EndpointHealth {
  jobs: { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: WorkerCounts;
}

export class JobQueue {
  private readonly jobs = new Map<string, EmulatedJob>();
  private readonly runtimes = new Map<EndpointConfig, Runtime>();
  /** Unended jobs with a webhook: their runtimes are advanced by a timer, since nobody may read them. */
  private readonly watched = new Set<EmulatedJob>();
  private readonly webhooks: WebhookSender;
  private watchTimer: NodeJS.Timeout | undefined;
  private readonly offClock: () => void;

  constructor(private readonly o: JobQueueOptions) {
    this.webhooks = new WebhookSender(o.clock, o.log);
    this.offClock = o.clock.onChange(() => this.pump());
  }

  close(): void {
    clearTimeout(this.watchTimer);
    this.offClock();
    this.webhooks.close();
    this.o.workers?.closeAll();
  }

  /** The endpoint's runtime, advanced to now. */
  runtime(endpoint: EndpointConfig): Runtime {
    let r = this.runtimes.get(endpoint);
    if (!r) {
      const prefix = `${(hashString(endpoint.id) >>> 0).toString(36).padStart(7, '0')}w`;
      const onEnd = (job: RuntimeJob): void => this.onEnded(job as EmulatedJob);
      r = endpoint.kind === 'worker' && endpoint.worker && this.o.workers
        ? new WorkerRuntime({ endpoint: { ...endpoint, worker: endpoint.worker }, workerPrefix: prefix, clock: this.o.clock, registry: this.o.workers, onEnd })
        : new EndpointRuntime(endpoint, prefix, this.o.clock.now(), onEnd);
      this.runtimes.set(endpoint, r);
    }
    r.advance(this.o.clock.now());
    return r;
  }

  submit(account: Account, endpoint: EndpointConfig, body: RunBody, sync: boolean): EmulatedJob {
    const runtime = this.runtime(endpoint);
    const queued = runtime.queuedCount();
    if (queued > QUEUE_LIMIT_FLOOR && queued > endpoint.workersMax * QUEUE_LIMIT_PER_WORKER) {
      throw new HttpProblem(429, `The queue of endpoint "${endpoint.id}" is full (${queued} jobs waiting, more than 50 and more than ${QUEUE_LIMIT_PER_WORKER} per max worker); retry later.`, undefined, { 'Retry-After': '10' });
    }
    // The runtime's own instant (it was just advanced to the clock): a later clock read could be a millisecond on,
    // and the job would seem queued after the worker its arrival started.
    const now = runtime.now;
    // SPEC 2.7: synchronous jobs carry a sync- prefix.
    const id = `${sync ? 'sync-' : ''}${randomUUID()}`;
    const job: EmulatedJob = {
      id, account, endpoint, input: body.input, webhook: body.webhook, policy: body.policy,
      queuedAtMs: now,
      executionMs: endpoint.kind === 'llm' ? llmExecutionMs(body.input) : endpoint.executionMs,
      lowPriority: body.policy.lowPriority,
      executionTimeoutMs: body.policy.executionTimeout ?? endpoint.executionTimeoutMs,
      expiresAtMs: now + (body.policy.ttl ?? DEFAULT_JOB_TTL_MS),
      phase: 'queued',
      retentionMs: this.o.retentionMs,
      retries: 0,
      streamCursor: 0,
    };
    this.jobs.set(id, job);
    if (job.webhook) this.watch(job);
    runtime.enqueue(job);
    return job;
  }

  /** The job if `account` owns it on `endpointId` and it is still retained; else undefined (a 404). */
  find(account: Account, endpointId: string, jobId: string): EmulatedJob | undefined {
    const job = this.jobs.get(jobId);
    if (!job || job.account !== account || job.endpoint.id !== endpointId) return undefined;
    this.runtime(job.endpoint);
    if (this.expired(job)) {
      this.jobs.delete(jobId);
      return undefined;
    }
    return job;
  }

  /** Ended on the emulator clock (completed, failed, cancelled or timed out). */
  isFinished(job: EmulatedJob): boolean {
    this.runtime(job.endpoint);
    return job.phase === 'ended';
  }

  /** When the job's state may next change (for held requests). */
  nextChangeAt(job: EmulatedJob): number | undefined {
    return this.runtime(job.endpoint).nextEventAt();
  }

  view(job: EmulatedJob): JobView {
    this.runtime(job.endpoint);
    if (job.phase === 'queued') return { id: job.id, status: 'IN_QUEUE' };
    const delayTime = (job.startsAtMs ?? job.endsAtMs!) - job.queuedAtMs;
    if (job.phase === 'running') return { id: job.id, status: 'IN_PROGRESS', delayTime, input: job.input };
    const executionTime = ranMs(job);
    const worker = job.workerId !== undefined ? { workerId: job.workerId } : {};
    if (job.end === 'CANCELLED') return { id: job.id, status: 'CANCELLED', delayTime, executionTime, ...worker };
    if (job.end === 'TIMED_OUT') return { id: job.id, status: 'TIMED_OUT', delayTime, executionTime, error: job.endReason ?? timeoutReason(job), ...worker };
    const r = this.settle(job);
    return r.status === 'COMPLETED'
      ? { id: job.id, status: 'COMPLETED', delayTime, executionTime, output: r.output, ...worker }
      : { id: job.id, status: 'FAILED', delayTime, executionTime, error: r.error, ...worker };
  }

  /** Starts the runtimes of `worker` endpoints, so their workersMin processes boot with the emulator. */
  startWorkers(endpoints: Iterable<EndpointConfig>): void {
    for (const e of endpoints) if (e.kind === 'worker') this.runtime(e);
  }

  /** /cancel: a queued or running job ends CANCELLED now (billed for the time it ran); an ended one is left as it is. */
  cancel(job: EmulatedJob): JobView {
    this.runtime(job.endpoint).cancel(job);
    return this.view(job);
  }

  /** /retry: a FAILED or TIMED_OUT job is queued again under the same id, with the same input and policy. */
  retry(job: EmulatedJob): JobView {
    const status = this.view(job).status;
    if (status !== 'FAILED' && status !== 'TIMED_OUT') {
      throw new HttpProblem(400, `Only a FAILED or TIMED_OUT job can be retried; job "${job.id}" is ${status}.`);
    }
    const runtime = this.runtime(job.endpoint);
    const now = runtime.now;
    Object.assign(job, {
      queuedAtMs: now, expiresAtMs: now + (job.policy.ttl ?? DEFAULT_JOB_TTL_MS), retries: job.retries + 1, streamCursor: 0,
      startsAtMs: undefined, endsAtMs: undefined, end: undefined, workerId: undefined, result: undefined, streamed: undefined, endReason: undefined,
    });
    if (job.webhook) this.watch(job);
    runtime.enqueue(job);
    return { id: job.id, status: 'IN_QUEUE' };
  }

  /** /purge-queue: every queued job of the endpoint ends CANCELLED; returns how many. */
  purge(endpoint: EndpointConfig): number {
    return this.runtime(endpoint).purge().length;
  }

  /** /health: retained jobs by state, and the workers by status. */
  health(account: Account, endpoint: EndpointConfig): EndpointHealth {
    const runtime = this.runtime(endpoint);
    const jobs = { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 };
    for (const job of this.jobs.values()) {
      if (job.account !== account || job.endpoint !== endpoint || this.expired(job)) continue;
      jobs.retried += job.retries;
      if (job.phase === 'queued') jobs.inQueue++;
      else if (job.phase === 'running') jobs.inProgress++;
      else if (job.end === 'TIMED_OUT') jobs.failed++;
      else if (job.end === 'done') jobs[this.settle(job).status === 'COMPLETED' ? 'completed' : 'failed']++;
    }
    return { jobs, workers: runtime.counts() };
  }

  /**
   * The workers of one of `account`'s endpoints, now: each with its id and status (initializing, idle, running;
   * throttled and unhealthy never happen here), and the counts by status. Undefined for an endpoint the account
   * does not have. (For GET /v2/serverless/<id>/workers.)
   */
  workersOf(account: Account, endpointId: string): { workers: WorkerSnapshot[]; counts: WorkerCounts } | undefined {
    const endpoint = account.endpoints.get(endpointId);
    if (!endpoint) return undefined;
    const runtime = this.runtime(endpoint);
    return { workers: runtime.snapshot(), counts: runtime.counts() };
  }

  /** /stream: the batches produced since the last call, and the job's status. */
  stream(job: EmulatedJob): { status: string; stream: Array<{ output: unknown }> } {
    const view = this.view(job);
    const { batches, cursor } = streamBatches(job, view, this.runtime(job.endpoint).now);
    job.streamCursor = cursor;
    return { status: view.status, stream: batches };
  }

  /** Brings every runtime up to now (before a billing query, so it includes the cost of jobs that ended). */
  settleFinished(): void {
    for (const endpoint of this.runtimes.keys()) this.runtime(endpoint);
  }

  /** Forgets jobs past retention (memory only: `find` checks retention itself). */
  sweep(): void {
    this.settleFinished();
    for (const [id, job] of this.jobs) if (this.expired(job)) this.jobs.delete(id);
  }

  private expired(job: EmulatedJob): boolean {
    return job.phase === 'ended' && this.o.clock.now() >= job.endsAtMs! + job.retentionMs;
  }

  /** Called by a runtime the moment (in emulator time) a job ends: bill it, call its webhook. */
  private onEnded(job: EmulatedJob): void {
    const seconds = ranMs(job) / 1000;
    if (seconds > 0) job.account.usage.add(job.endpoint.id, job.endsAtMs!, amountsOf(job.endpoint, seconds));
    // The view is built after the runtime's step is over (it reads the runtime again).
    if (job.webhook && this.watched.delete(job)) queueMicrotask(() => this.webhooks.send(job.webhook!, this.view(job)));
  }

  private watch(job: EmulatedJob): void {
    this.watched.add(job);
    this.pump();
  }

  /** Advances the runtimes of watched jobs to now, then sleeps until the next event of any of them. */
  private pump(): void {
    clearTimeout(this.watchTimer);
    if (this.watched.size === 0) return;
    const runtimes = new Set([...this.watched].map((j) => j.endpoint));
    let next = Number.POSITIVE_INFINITY;
    for (const endpoint of runtimes) next = Math.min(next, this.runtime(endpoint).nextEventAt() ?? Number.POSITIVE_INFINITY);
    if (this.watched.size === 0 || !Number.isFinite(next)) return;
    this.watchTimer = setTimeout(() => this.pump(), Math.min(2_147_483_647, Math.max(1, next - this.o.clock.now())));
    this.watchTimer.unref();
  }

  /** Builds the output once (lazily: a finished job nobody reads never draws its PNGs). */
  private settle(job: EmulatedJob): NonNullable<EmulatedJob['result']> {
    if (job.result) return job.result;
    const r = buildOutput({
      jobId: job.id, endpoint: job.endpoint, input: job.input, cost: costOf(job),
      finishedAtMs: job.endsAtMs!, origin: this.o.origin(), files: this.o.files,
    });
    job.result = r.ok ? { status: 'COMPLETED', output: r.output } : { status: 'FAILED', error: r.error };
    return job.result;
  }
}

/** How long the job held a worker (0 if it never got one). */
function ranMs(job: RuntimeJob): number {
  return job.startsAtMs !== undefined && job.endsAtMs !== undefined ? job.endsAtMs - job.startsAtMs : 0;
}

function timeoutReason(job: EmulatedJob): string {
  if (job.startsAtMs === undefined) return `Job expired: its TTL (${job.expiresAtMs - job.queuedAtMs} ms) ran out before a worker picked it up.`;
  if (job.endsAtMs === job.expiresAtMs) return `Job expired: its TTL (${job.expiresAtMs - job.queuedAtMs} ms) ran out while it was running.`;
  return `Job timed out: it ran longer than its execution timeout (${job.executionTimeoutMs} ms).`;
}

function amountsOf(endpoint: EndpointConfig, seconds: number): Amounts {
  const p = endpoint.prices;
  return { gpu: seconds * p.gpuPerSecond, cpu: seconds * p.cpuPerSecond, disk: seconds * p.diskPerSecond, fee: seconds * p.feePerSecond };
}

export function costOf(job: EmulatedJob): number {
  const a = amountsOf(job.endpoint, ranMs(job) / 1000);
  return a.gpu + a.cpu + a.disk + a.fee;
}

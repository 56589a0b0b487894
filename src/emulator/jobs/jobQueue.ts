// The jobs of every user (SPEC 2.7, 3, 4.2-4.4; issue 9 for workers, cancel, retry, health, purge, stream;
// issue 21 for one engine behind every kind). Each endpoint has an Engine (jobs/engine.ts): its queue and
// workers, advanced to the emulator clock before every read and by its own timer, so moving the admin clock
// moves every job, cold start and idle timeout at once. The engine's workers are simulated
// (workers/simulated/) or real processes (workers/process/, kind `worker`); nothing here depends on which.
// Every worker's life (start, execution, idle; rounded up to the second when it stops) is billed to the
// endpoint's owner as it passes (billing/jobBilling.ts, issue 29). When a job ends its webhook is called and held
// requests are woken. A finished simulated job's output is built once, lazily. Finished jobs stay readable for
// retentionMinutes from their end (SPEC 8 rule 6), a /runsync job for 1 minute, or less when a status read
// set `?ttl=`.
import { randomUUID } from 'node:crypto';
import type { Account } from '../http/auth';
import type { EmulatorClock } from '../clock';
import type { EndpointConfig } from '../config';
import type { FileStore } from '../fileStore';
import { amountsOf, billWorkerSpan } from '../billing/jobBilling';
import { buildOutput } from '../demo/outputs';
import { HttpProblem } from '../http/respond';
import { hashString } from '../prng';
import { SimulatedWorkers } from '../workers/simulated/simulatedDriver';
import { llmExecutionMs } from '../workers/simulated/llm';
import { ProcessWorkers } from '../workers/process/processWorkers';
import type { WorkerRegistry } from '../workers/process/workerRegistry';
import type { WorkerLogs } from '../workers/process/workerLogs';
import { Engine } from './engine';
import type { EmulatedJob, JobView, WorkerCounts, WorkerSnapshot } from './job';
import type { RunBody } from './runBody';
import { RUNTIME_FIELDS, type SettingsChange } from './runtimeSettings';
import { streamBatches } from './streamView';
import { WebhookSender } from './webhooks';
import { countsOf, snapshotOf } from './workerViews';

/** Default policy.ttl (docs "Execution policies"): a job not ended after 24 h is TIMED_OUT. */
export const DEFAULT_JOB_TTL_MS = 86_400_000;
/** docs "Send API requests", /runsync: "results are available for 1 minute by default" after completion. */
export const RUNSYNC_RETENTION_MS = 60_000;
/** The platform refuses a submit while the queue holds more than 50 jobs and more than workersMax x 500. */
const QUEUE_LIMIT_FLOOR = 50;
const QUEUE_LIMIT_PER_WORKER = 500;

export interface JobQueueOptions {
  clock: EmulatorClock;
  retentionMs: number;
  files: FileStore;
  origin: () => string;
  log?: (line: string) => void;
  /** Where `worker` endpoints register their processes for the worker protocol's routes. */
  workers?: WorkerRegistry;
  /** The account an endpoint belongs to (its workers' cold starts are billed to it). */
  ownerOf?: (endpoint: EndpointConfig) => Account | undefined;
  /** The endpoint's configuration version (serverless/endpointStore.ts); new workers start on it. */
  versionOf?: (endpoint: EndpointConfig) => number;
}

export interface EndpointHealth {
  jobs: { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: WorkerCounts;
}

export class JobQueue {
  private readonly jobs = new Map<string, EmulatedJob>();
  private readonly engines = new Map<EndpointConfig, Engine>();
  private readonly webhooks: WebhookSender;
  private wakeQueued = false;
  private closed = false;

  constructor(private readonly o: JobQueueOptions) {
    this.webhooks = new WebhookSender(o.clock, o.log);
  }

  close(): void {
    this.closed = true;
    for (const e of this.engines.values()) e.close();
    this.webhooks.close();
    this.o.workers?.closeAll();
  }

  /** The endpoint's engine, advanced to now. */
  runtime(endpoint: EndpointConfig): Engine {
    let e = this.engines.get(endpoint);
    if (!e) {
      const prefix = `${(hashString(endpoint.id) >>> 0).toString(36).padStart(7, '0')}w`;
      const processes = endpoint.kind === 'worker' && endpoint.worker && this.o.workers
        ? new ProcessWorkers({ endpoint: { ...endpoint, worker: endpoint.worker }, clock: this.o.clock, registry: this.o.workers })
        : undefined;
      e = new Engine(endpoint, prefix, this.o.clock, processes ?? new SimulatedWorkers(() => this.o.clock.now()), {
        onJobEnd: (job) => this.onEnded(job),
        // The one billing model (issue 29): every worker life, start + execution + idle, workersMin ones included.
        onWorkerTime: (_life, _part, fromMs, toMs) => {
          const owner = this.o.ownerOf?.(endpoint);
          if (owner) billWorkerSpan(owner.usage, endpoint, fromMs, toMs);
        },
        versionNow: () => this.o.versionOf?.(endpoint) ?? 1,
      });
      // Before any process can call back (its workers were spawned in the engine's constructor, and talk over HTTP).
      processes?.attach(e);
      this.engines.set(endpoint, e);
    }
    e.advance(this.o.clock.now());
    return e;
  }

  /** The endpoint's settings changed (PATCH /v2/serverless/<id>): the engine applies them now. */
  reconfigure(endpoint: EndpointConfig): void {
    // The engine runs on its own copy of the settings: hand it the config's (min/max/idle, scaler, FlashBoot, timeouts).
    const change: Record<string, unknown> = {};
    for (const k of Object.keys(RUNTIME_FIELDS)) if (k !== 'queueMs') change[k] = (endpoint as unknown as Record<string, unknown>)[k];
    this.runtime(endpoint).updateSettings(change as SettingsChange);
  }

  /** DELETE /v2/serverless/<id>: its queued and running jobs end CANCELLED, its workers stop, the engine goes. */
  remove(endpoint: EndpointConfig): void {
    const engine = this.runtime(endpoint);
    for (const job of this.jobs.values()) if (job.endpoint === endpoint && job.phase !== 'ended') engine.cancel(job);
    engine.close();
    this.engines.delete(endpoint);
  }

  /** What the endpoint's workers wrote (simulated or real processes), for the worker logs route. */
  logsOf(endpoint: EndpointConfig): WorkerLogs {
    return (this.runtime(endpoint).driver as SimulatedWorkers | ProcessWorkers).logs;
  }

  /** The process workers of a `worker` endpoint (for the emulator-only workers and logs routes). */
  processesOf(endpoint: EndpointConfig): ProcessWorkers | undefined {
    const d = this.runtime(endpoint).driver;
    return d instanceof ProcessWorkers ? d : undefined;
  }

  submit(account: Account, endpoint: EndpointConfig, body: RunBody, sync: boolean): EmulatedJob {
    const engine = this.runtime(endpoint);
    const queued = engine.queuedCount();
    const full = endpoint.maxQueued !== undefined ? queued >= endpoint.maxQueued : queued > QUEUE_LIMIT_FLOOR && queued > endpoint.workersMax * QUEUE_LIMIT_PER_WORKER;
    if (full) {
      const rule = endpoint.maxQueued !== undefined ? `its maxQueued is ${endpoint.maxQueued}` : `more than 50 and more than ${QUEUE_LIMIT_PER_WORKER} per max worker`;
      throw new HttpProblem(429, `The queue of endpoint "${endpoint.id}" is full (${queued} jobs waiting, ${rule}); retry later.`, undefined, { 'Retry-After': '10' });
    }
    // The engine's own instant (it was just advanced to the clock): a later clock read could be a millisecond on,
    // and the job would seem queued after the worker its arrival started.
    const now = engine.now;
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
      retentionMs: sync ? Math.min(RUNSYNC_RETENTION_MS, this.o.retentionMs) : this.o.retentionMs,
      retries: 0,
      streamCursor: 0,
    };
    this.jobs.set(id, job);
    engine.enqueue(job);
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

  /** Ended on the emulator clock (completed, failed, cancelled, purged or timed out). */
  isFinished(job: EmulatedJob): boolean {
    this.runtime(job.endpoint);
    return job.phase === 'ended';
  }

  /** When the job's state may next change by itself (for held requests). */
  nextChangeAt(job: EmulatedJob): number | undefined {
    return this.runtime(job.endpoint).nextEventAt();
  }

  view(job: EmulatedJob): JobView {
    this.runtime(job.endpoint);
    if (job.phase === 'queued') return { id: job.id, status: 'IN_QUEUE' };
    const delayTime = (job.startsAtMs ?? job.endsAtMs!) - job.queuedAtMs;
    if (job.phase === 'running') {
      // docs "Send API requests": "Progress updates will be available when the status is polled".
      const progress = job.progress !== undefined ? { output: job.progress } : {};
      return { id: job.id, status: 'IN_PROGRESS', delayTime, input: job.input, ...progress };
    }
    const executionTime = ranMs(job);
    const worker = job.workerId !== undefined ? { workerId: job.workerId } : {};
    if (job.end === 'CANCELLED') return { id: job.id, status: 'CANCELLED', delayTime, executionTime, ...worker };
    if (job.end === 'TIMED_OUT') return { id: job.id, status: 'TIMED_OUT', delayTime, executionTime, error: job.endReason ?? timeoutReason(job), ...worker };
    const r = this.settle(job);
    return r.status === 'COMPLETED'
      ? { id: job.id, status: 'COMPLETED', delayTime, executionTime, output: r.output, ...worker }
      : { id: job.id, status: 'FAILED', delayTime, executionTime, error: r.error, ...worker };
  }

  /** Starts the engines of `worker` endpoints and of any with workersMin: those workers are up (and billed) from the start. */
  startWorkers(endpoints: Iterable<EndpointConfig>): void {
    for (const e of endpoints) if (e.kind === 'worker' || e.workersMin > 0) this.runtime(e);
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
    const engine = this.runtime(job.endpoint);
    const now = engine.now;
    Object.assign(job, {
      queuedAtMs: now, expiresAtMs: now + (job.policy.ttl ?? DEFAULT_JOB_TTL_MS), retries: job.retries + 1, streamCursor: 0,
      startsAtMs: undefined, doneAtMs: undefined, endsAtMs: undefined, end: undefined, workerId: undefined, result: undefined,
      progress: undefined, streamed: undefined, endReason: undefined,
    });
    engine.enqueue(job);
    return { id: job.id, status: 'IN_QUEUE' };
  }

  /** /purge-queue: every queued job of the endpoint ends CANCELLED; returns how many. */
  purge(endpoint: EndpointConfig): number {
    return this.runtime(endpoint).purge().length;
  }

  /** /health: retained jobs by state, and the workers by status. */
  health(account: Account, endpoint: EndpointConfig): EndpointHealth {
    const engine = this.runtime(endpoint);
    const jobs = { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 };
    for (const job of this.jobs.values()) {
      if (job.account !== account || job.endpoint !== endpoint || this.expired(job)) continue;
      jobs.retried += job.retries;
      if (job.phase === 'queued') jobs.inQueue++;
      else if (job.phase === 'running') jobs.inProgress++;
      else if (job.end === 'TIMED_OUT') jobs.failed++;
      else if (job.end === 'done') jobs[this.settle(job).status === 'COMPLETED' ? 'completed' : 'failed']++;
    }
    return { jobs, workers: countsOf(engine.list()) };
  }

  /** The workers of one of `account`'s endpoints, now (GET /v2/serverless/<id>/workers); undefined if not its endpoint. */
  workersOf(account: Account, endpointId: string): { workers: WorkerSnapshot[]; counts: WorkerCounts } | undefined {
    const endpoint = account.endpoints.get(endpointId);
    if (!endpoint) return undefined;
    const engine = this.runtime(endpoint);
    return { workers: snapshotOf(engine.list()), counts: countsOf(engine.list()) };
  }

  /** /stream: the batches produced since the last call, and the job's status. */
  stream(job: EmulatedJob): { status: string; stream: Array<{ output: unknown }> } {
    const view = this.view(job);
    const { batches, cursor } = streamBatches(job, view, this.runtime(job.endpoint).now);
    job.streamCursor = cursor;
    return { status: view.status, stream: batches };
  }

  /** Brings every engine up to now, its workers' time billed so far (before a billing query). */
  settleFinished(): void {
    for (const endpoint of this.engines.keys()) this.runtime(endpoint).accrueAll();
  }

  /** The endpoint's worker lives up to now (the admin route; issue 29). */
  livesOf(endpoint: EndpointConfig): ReturnType<Engine['lives']['list']> {
    const engine = this.runtime(endpoint);
    engine.accrueAll();
    return engine.lives.list();
  }

  /** The endpoint's settings change on its running engine (an endpoint PATCH; see Engine.updateSettings). */
  updateSettings(endpoint: EndpointConfig, next: SettingsChange): void {
    this.runtime(endpoint).updateSettings(next);
  }

  /** Forgets jobs past retention (memory only: `find` checks retention itself). */
  sweep(): void {
    this.settleFinished();
    for (const [id, job] of this.jobs) if (this.expired(job)) this.jobs.delete(id);
  }

  private expired(job: EmulatedJob): boolean {
    return job.phase === 'ended' && this.o.clock.now() >= job.endsAtMs! + job.retentionMs;
  }

  /** Called by an engine the moment (in emulator time) a job ends: bill it, call its webhook, wake held requests. */
  private onEnded(job: EmulatedJob): void {
    const driver = this.engines.get(job.endpoint)?.driver;
    if (driver instanceof SimulatedWorkers) driver.ended(job, job.end!, ranMs(job));
    // The view is built after the engine's step is over (it reads the engine again).
    if (job.webhook) queueMicrotask(() => this.webhooks.send(job.webhook!, this.view(job)));
    this.wake();
  }

  /** Held /runsync and /status-sync answer as soon as their job ends in any way, not only at the clock's events. */
  private wake(): void {
    if (this.wakeQueued || this.closed) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      if (!this.closed) this.o.clock.touch();
    });
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
function ranMs(job: EmulatedJob): number {
  return job.startsAtMs !== undefined && job.endsAtMs !== undefined ? job.endsAtMs - job.startsAtMs : 0;
}

function timeoutReason(job: EmulatedJob): string {
  if (job.startsAtMs === undefined) return `Job expired: its TTL (${job.expiresAtMs - job.queuedAtMs} ms) ran out before a worker picked it up.`;
  if (job.endsAtMs === job.expiresAtMs) return `Job expired: its TTL (${job.expiresAtMs - job.queuedAtMs} ms) ran out while it was running.`;
  return `Job timed out: it ran longer than its execution timeout (${job.executionTimeoutMs} ms).`;
}

export function costOf(job: EmulatedJob): number {
  const a = amountsOf(job.endpoint, ranMs(job) / 1000);
  return a.gpu + a.cpu + a.disk + a.fee;
}

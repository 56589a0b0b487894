// One job's record as the engine keeps it (SPEC 2.7; issue 9 for workers, cancel, retry; issue 21 for one engine
// behind every endpoint kind). Types only: the engine (jobs/engine.ts), the job routes, the stream view and the
// two kinds of worker (workers/simulated, workers/process) all read this record, so none of them imports another
// to learn its shape.
import type { EndpointConfig } from '../config';
import type { Account } from '../http/auth';
import type { RunBody } from './runBody';

/** How a job left its worker: ran to its end (its result says COMPLETED or FAILED), or was ended early. */
export type RuntimeEnd = 'done' | 'CANCELLED' | 'TIMED_OUT';

export interface EmulatedJob {
  readonly id: string;
  account: Account;
  endpoint: EndpointConfig;
  input: Record<string, unknown>;
  webhook?: string;
  policy: RunBody['policy'];
  /** When it was (last) queued: submission, or a retry. */
  queuedAtMs: number;
  /** Simulated workers: how long it runs once a worker has it. */
  executionMs: number;
  lowPriority: boolean;
  /** Ends a running job TIMED_OUT after this long; 0 = never. */
  executionTimeoutMs: number;
  /** Ends the job TIMED_OUT at this instant, queued or running (policy.ttl, counted from queuedAtMs). */
  expiresAtMs: number;
  phase: 'queued' | 'running' | 'ended';
  startsAtMs?: number;
  /** When a running job ends by itself, if its worker knows in advance (simulated workers do). */
  doneAtMs?: number;
  endsAtMs?: number;
  end?: RuntimeEnd;
  workerId?: string;
  /** Readable this long after it ended (/runsync 1 minute, /run the retention period, or a status `?ttl=`). */
  retentionMs: number;
  /** How many times /retry requeued it. */
  retries: number;
  /** Stream batches already handed out by /stream. */
  streamCursor: number;
  result?: { status: 'COMPLETED'; output: unknown } | { status: 'FAILED'; error: string };
  /** Process workers: the latest progress update (runpod's progress_update), shown as IN_PROGRESS output. */
  progress?: unknown;
  /** Process workers: the chunks a generator handler streamed, in order. */
  streamed?: Array<{ output: unknown }>;
  /** Why it ended TIMED_OUT when that was not a timeout (process workers: its worker died). */
  endReason?: string;
}

/** The job object of SPEC 2.7 as the status, run and runsync routes return it. */
export type JobView = Record<string, unknown> & { id: string; status: string };

/** One live worker, as GET /v2/serverless/<id>/workers needs it (serverless/workersView.ts). */
export interface WorkerSnapshot {
  id: string;
  /** Throttled workers do not happen in the emulator; unhealthy ones only with real processes. */
  state: 'initializing' | 'idle' | 'running' | 'unhealthy';
  /** When its cold start ended (undefined while initializing). */
  readyAtMs?: number;
  /** The job a running worker has. */
  jobId?: string;
  /** The endpoint configuration version it runs (issue 28: a container change cuts a release). */
  version: number;
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

// An endpoint's worker and timeout settings (issue 9 "Workers and a real queue"), as config fields with the
// platform's own defaults where its docs give one (docs.runpod.io, "Endpoint settings": active/min workers 0,
// max workers 3, idle timeout 5 s, execution timeout 600 s). The cold start has no platform default (it is the
// worker's own start-up time); 0 keeps a job's delay exactly `queueMs`, as before workers existed.
import * as z from 'zod/mini';

export const DEFAULT_WORKERS_MIN = 0;
export const DEFAULT_WORKERS_MAX = 3;
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
export const DEFAULT_COLD_START_MS = 0;
export const DEFAULT_EXECUTION_TIMEOUT_MS = 600_000;
const DAY_MS = 86_400_000;

/** Spread into the endpoint schema of config.ts. */
export const RUNTIME_FIELDS = {
  /** Workers kept up at all times ("active workers"); they never idle out and start warm. */
  workersMin: z._default(z.int().check(z.gte(0), z.lte(1000)), DEFAULT_WORKERS_MIN),
  /** At most this many workers at once; 0 is an endpoint that never runs anything (its jobs only queue). */
  workersMax: z._default(z.int().check(z.gte(0), z.lte(1000)), DEFAULT_WORKERS_MAX),
  /** An idle worker above workersMin stops after this long without a job. */
  idleTimeoutMs: z._default(z.int().check(z.gte(0), z.lte(DAY_MS)), DEFAULT_IDLE_TIMEOUT_MS),
  /** A new worker is `initializing` this long before it can take a job. */
  coldStartMs: z._default(z.int().check(z.gte(0), z.lte(DAY_MS)), DEFAULT_COLD_START_MS),
  /** A running job is ended TIMED_OUT after this long (0: never); a job's policy.executionTimeout overrides it. */
  executionTimeoutMs: z._default(z.int().check(z.gte(0), z.lte(DAY_MS)), DEFAULT_EXECUTION_TIMEOUT_MS),
  /**
   * Our addition: a submit is 429 while this many jobs wait. Default: the platform's own rule (more than 50 and
   * more than workersMax x 500); a benchmark or a local batch may lift it.
   */
  maxQueued: z.optional(z.int().check(z.gte(0), z.lte(10_000_000))),
  /**
   * Our addition (issue 28): the idle time of always-on (workersMin) workers is billed as it passes, as the
   * platform bills active workers. Off for config endpoints unless set (the emulator's billing before: cold
   * starts and executions only); set on every endpoint created or changed through the REST API.
   */
  billAlwaysOn: z._default(z.boolean(), false),
};

export interface RuntimeSettings {
  queueMs: number;
  workersMin: number;
  workersMax: number;
  idleTimeoutMs: number;
  coldStartMs: number;
  billAlwaysOn?: boolean;
}

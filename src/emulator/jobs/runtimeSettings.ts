// An endpoint's worker and timeout settings (issue 9 "Workers and a real queue"), as config fields with the
// platform's own defaults where its docs give one (docs.runpod.io, "Endpoint settings": active/min workers 0,
// max workers 3, idle timeout 5 s, execution timeout 600 s). The cold start has no platform default (it is the
// worker's own start-up time); 0 keeps a job's delay exactly `queueMs`, as before workers existed.
// Issue 29: the scaler (type and value, how often it looks and how many workers one look adds), FlashBoot and
// the GPUs per worker; the rules and the sources behind each default are in docs/emulator.md, "Scaling and
// billing".
import * as z from 'zod/mini';

export const DEFAULT_WORKERS_MIN = 0;
export const DEFAULT_WORKERS_MAX = 3;
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
export const DEFAULT_COLD_START_MS = 0;
export const DEFAULT_EXECUTION_TIMEOUT_MS = 600_000;
export const SCALER_TYPES = ['QUEUE_DELAY', 'REQUEST_COUNT'] as const;
export type ScalerType = (typeof SCALER_TYPES)[number];
/**
 * The platform's default is QUEUE_DELAY 4 s (REST reference, QueueDelayScaling). The emulator's config default
 * stays REQUEST_COUNT 1, the one-worker-per-waiting-job scaling it always had, so existing configs keep their
 * timings; an endpoint created through the REST API gets the platform's default.
 */
export const DEFAULT_SCALER_TYPE: ScalerType = 'REQUEST_COUNT';
export const DEFAULT_SCALER_VALUE = 1;
/** Our choice (the docs say nothing): QUEUE_DELAY looks once a second and adds one worker per look. */
export const QUEUE_DELAY_LOOK_MS = 1000;
export const QUEUE_DELAY_STEP = 1;
/** Our choice: a FlashBoot start takes 1 s, while the endpoint's state is cached (10 minutes after a worker was up). */
export const DEFAULT_FLASHBOOT_COLD_START_MS = 1000;
export const DEFAULT_FLASHBOOT_WINDOW_MS = 600_000;
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
  /** REQUEST_COUNT: workers = ceil((inQueue + inProgress) / scalerValue); QUEUE_DELAY: add one when a job waited scalerValue s. */
  scalerType: z._default(z.enum(SCALER_TYPES), DEFAULT_SCALER_TYPE),
  /** Requests per worker (REQUEST_COUNT, rounded up to a whole number) or seconds of queue wait (QUEUE_DELAY, from 0.5). */
  scalerValue: z._default(z.number().check(z.gte(0.5), z.lte(3600)), DEFAULT_SCALER_VALUE),
  /** How often the scaler looks, in ms (0: at every change). Default: 0 for REQUEST_COUNT, 1000 for QUEUE_DELAY. */
  scalerLookMs: z.optional(z.int().check(z.gte(0), z.lte(600_000))),
  /** At most this many workers added per look. Default: no limit for REQUEST_COUNT, 1 for QUEUE_DELAY. */
  scaleUpStep: z.optional(z.int().check(z.gte(1), z.lte(1000))),
  /** FlashBoot: a repeated cold start takes flashbootColdStartMs instead of coldStartMs. */
  flashboot: z._default(z.boolean(), false),
  flashbootColdStartMs: z._default(z.int().check(z.gte(0), z.lte(DAY_MS)), DEFAULT_FLASHBOOT_COLD_START_MS),
  /** How long after the endpoint last had a worker up its cached state still makes a start a FlashBoot one. */
  flashbootWindowMs: z._default(z.int().check(z.gte(0), z.lte(DAY_MS)), DEFAULT_FLASHBOOT_WINDOW_MS),
  /** GPUs per worker: a worker's GPU time is billed once per GPU (docs "Pricing"). */
  gpuCount: z._default(z.int().check(z.gte(1), z.lte(16)), 1),
};

export interface RuntimeSettings {
  queueMs: number;
  workersMin: number;
  workersMax: number;
  idleTimeoutMs: number;
  coldStartMs: number;
  scalerType: ScalerType;
  scalerValue: number;
  scalerLookMs?: number;
  scaleUpStep?: number;
  flashboot: boolean;
  flashbootColdStartMs: number;
  flashbootWindowMs: number;
}

/** The settings Engine.updateSettings may change while the endpoint runs (an endpoint PATCH). */
export type SettingsChange = Partial<Omit<RuntimeSettings, 'queueMs'>>;

/** How often the scaler looks (0: at every change) and how many workers one look may add. */
export function scalerPace(s: RuntimeSettings): { lookMs: number; step: number } {
  const queueDelay = s.scalerType === 'QUEUE_DELAY';
  return {
    lookMs: s.scalerLookMs ?? (queueDelay ? QUEUE_DELAY_LOOK_MS : 0),
    step: s.scaleUpStep ?? (queueDelay ? QUEUE_DELAY_STEP : Number.POSITIVE_INFINITY),
  };
}

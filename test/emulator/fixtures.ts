// Emulator configurations for the conformance suite, in the config format of issue #3, with a fixed `now` so
// that every window, bucket and amount is known in advance. Amounts are multiples of 1/4: they add up exactly in
// binary floating point, so totals can be compared with `equal`, not "close to".

/** Monday 2026-06-15, noon UTC: the default clock of every suite unless a test moves it. */
export const NOW = '2026-06-15T12:00:00Z';
/** Quotas high enough that only the rate-limit suite ever meets them. */
export const GENEROUS_LIMITS = { minute: 100_000, hour: 1_000_000, day: 10_000_000 };

export interface UsageEvent {
  serverlessId: string;
  time: string;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
  feeAmount: number;
}

export function usage(serverlessId: string, time: string, gpuAmount: number, cpuAmount = 0.25, diskAmount = 0.25, feeAmount = 0.5): UsageEvent {
  return { serverlessId, time, gpuAmount, cpuAmount, diskAmount, feeAmount };
}

export const KEYS = {
  full: 'k-full',
  billing: 'k-billing',
  ep1Only: 'k-ep1',
  expired: 'k-old',
  runOnly: 'k-run-only',
  readOnly: 'k-read-only',
  /** Valid until 13:00 on the suite's day: expiry must follow the emulator clock. */
  expiresAt1pm: 'k-until-1pm',
  bob: 'k-bob',
} as const;

export const ENDPOINTS = {
  image: 'ep1',
  failing: 'ep-bad',
  publicImage: 'black-forest-labs-flux-1-schnell',
  video: 'video-model',
  audio: 'tts',
  echo: 'echo',
  /** Long queue and run: only the admin clock moves it along. */
  slow: 'slow',
  bobs: 'bob-ep',
} as const;

export interface ConfigOptions {
  now?: string;
  rateLimits?: { minute: number; hour: number; day: number };
  retentionMinutes?: number;
  aliceUsage?: UsageEvent[];
  bobUsage?: UsageEvent[];
  /** Extra endpoints for alice (after the standard ones). */
  aliceEndpoints?: Array<Record<string, unknown>>;
}

/** Alice owns every kind of endpoint and has one key per scope combination; Bob exists to be someone else. */
export function config(o: ConfigOptions = {}) {
  return {
    now: o.now ?? NOW,
    rateLimits: o.rateLimits ?? GENEROUS_LIMITS,
    retentionMinutes: o.retentionMinutes ?? 30,
    users: [
      {
        id: 'alice',
        keys: [
          { key: KEYS.full, scopes: ['billing:read', 'jobs:run', 'jobs:read'] },
          { key: KEYS.billing, scopes: ['billing:read'] },
          { key: KEYS.ep1Only, scopes: ['jobs:run', 'jobs:read'], endpoints: [ENDPOINTS.image] },
          { key: KEYS.expired, scopes: ['billing:read'], expiresAt: '2020-01-01T00:00:00Z' },
          { key: KEYS.runOnly, scopes: ['jobs:run'] },
          { key: KEYS.readOnly, scopes: ['jobs:read'] },
          { key: KEYS.expiresAt1pm, scopes: ['billing:read'], expiresAt: '2026-06-15T13:00:00Z' },
        ],
        endpoints: [
          // Ten-second queue, thirty-second run: long enough that real time never moves a job on by itself
          // between two requests of a test, short enough for /runsync on a loaded machine.
          { id: ENDPOINTS.image, kind: 'image', queueMs: 10_000, executionMs: 30_000 },
          { id: ENDPOINTS.failing, kind: 'image', queueMs: 1_000, executionMs: 2_000, fail: 'CUDA out of memory' },
          { id: ENDPOINTS.publicImage, kind: 'public-image', queueMs: 1_000, executionMs: 2_000 },
          { id: ENDPOINTS.video, kind: 'public-video', queueMs: 1_000, executionMs: 2_000 },
          { id: ENDPOINTS.audio, kind: 'public-audio', queueMs: 1_000, executionMs: 2_000 },
          { id: ENDPOINTS.echo, kind: 'echo', queueMs: 20, executionMs: 30 },
          // An hour's run needs more than the platform's default 10-minute execution timeout.
          { id: ENDPOINTS.slow, kind: 'image', queueMs: 3_600_000, executionMs: 3_600_000, executionTimeoutMs: 7_200_000 },
          ...(o.aliceEndpoints ?? []),
        ],
        usage: o.aliceUsage ?? [],
      },
      {
        id: 'bob',
        keys: [{ key: KEYS.bob, scopes: ['billing:read', 'jobs:run', 'jobs:read'] }],
        endpoints: [{ id: ENDPOINTS.bobs, kind: 'echo', queueMs: 20, executionMs: 30 }],
        usage: o.bobUsage ?? [],
      },
    ],
  };
}

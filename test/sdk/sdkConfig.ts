// The emulator config of the SDK suite: one user, one key with every scope, and the endpoints a test drives
// (each test runs its own emulator with only its endpoints, so one missing feature fails only its own test),
// with timings chosen so real time decides the fast ones and the admin clock the slow ones.
export const SDK_KEY = 'sdk-suite-key';

const HOUR_MS = 3_600_000;

export type EndpointName = 'echo' | 'slow-sync' | 'llama-chat' | 'broken' | 'one-worker' | 'health-ep' | 'purge-ep';

export function sdkConfig(only: readonly EndpointName[]) {
  return {
    rateLimits: { minute: 100_000, hour: 1_000_000, day: 10_000_000 },
    users: [
      {
        id: 'sdk-user',
        keys: [{ key: SDK_KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }],
        endpoints: ENDPOINTS.filter((e) => only.includes(e.id)),
      },
    ],
  };
}

const ENDPOINTS: Array<Record<string, unknown> & { id: EndpointName }> = [
  { id: 'echo', name: 'Echo', kind: 'echo', queueMs: 50, executionMs: 100 },
  // 2.5 s in all: longer than runSync's 1.5 s wait, so the SDK must go on with /status-sync.
  { id: 'slow-sync', kind: 'echo', queueMs: 300, executionMs: 2200 },
  { id: 'llama-chat', name: 'Llama chat', kind: 'llm', queueMs: 50 },
  { id: 'broken', kind: 'echo', queueMs: 50, executionMs: 100, fail: 'CUDA out of memory: tried to allocate 2.00 GiB' },
  // One warm-starting worker and hour-long jobs (over the platform's 10-minute default execution timeout, so
  // the timeout is raised): what runs and what waits is decided by the test.
  { id: 'one-worker', kind: 'echo', queueMs: 50, executionMs: HOUR_MS, executionTimeoutMs: 2 * HOUR_MS, workersMax: 1, coldStartMs: 0 },
  // Five-minute jobs: three in a row end within the 30 minutes a finished job is kept (and counted by /health).
  { id: 'health-ep', kind: 'echo', queueMs: 50, executionMs: 5 * 60_000, workersMax: 1, coldStartMs: 0 },
  { id: 'purge-ep', kind: 'echo', queueMs: 50, executionMs: HOUR_MS, executionTimeoutMs: 2 * HOUR_MS, workersMax: 1, coldStartMs: 0 },
];

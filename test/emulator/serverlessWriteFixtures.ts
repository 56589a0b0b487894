// The emulator and keys of the serverless write suites (issue 28): the standard suite config plus keys for the
// REST v2 serverless routes (read and write, read only, jobs only) and endpoints whose engine the tests change.
import { after, before } from 'node:test';
import { moveClock, request, startEmulator, type Emulator, type Reply, type RequestOptions } from './harness';
import { config, type ConfigOptions } from './fixtures';

export const WK = {
  /** endpoints:read, endpoints:write and the job scopes. */
  write: 'k-sw-write',
  /** endpoints:read only. */
  read: 'k-sw-read',
  /** jobs:run and jobs:read only. */
  jobs: 'k-sw-jobs',
  /** Every scope, but restricted to the echo endpoint. */
  restricted: 'k-sw-restricted',
} as const;

/** Ten-minute jobs that start at once, moved only by the admin clock; each test has its own endpoint. */
const clocked = (id: string, extra: Record<string, unknown> = {}) => ({
  id, kind: 'echo', queueMs: 0, executionMs: 600_000, executionTimeoutMs: 3_600_000, idleTimeoutMs: 60_000, ...extra,
});

export function writeConfig(o: ConfigOptions = {}) {
  const c = config({
    ...o,
    aliceEndpoints: [
      clocked('sw-max', { workersMax: 3 }),
      clocked('sw-min', { workersMax: 3, prices: { gpuPerSecond: 0.001, cpuPerSecond: 0, diskPerSecond: 0, feePerSecond: 0 } }),
      clocked('sw-roll', { workersMin: 2, workersMax: 2 }),
      clocked('sw-pool', { workersMax: 1, executionMs: 100_000, prices: { gpuPerSecond: 0.5, cpuPerSecond: 0, diskPerSecond: 0, feePerSecond: 0 } }),
      clocked('sw-logs', { workersMax: 1, executionMs: 5_000 }),
      clocked('sw-edit', { gpuPools: ['ADA_24', 'AMPERE_24'] }),
      ...(o.aliceEndpoints ?? []),
    ],
  });
  const [alice, bob] = c.users as [(typeof c.users)[0], (typeof c.users)[1]];
  const all = ['endpoints:read', 'endpoints:write', 'jobs:run', 'jobs:read'];
  return {
    ...c,
    users: [
      {
        ...alice,
        keys: [
          ...alice.keys,
          { key: WK.write, scopes: all },
          { key: WK.read, scopes: ['endpoints:read'] },
          { key: WK.jobs, scopes: ['jobs:run', 'jobs:read'] },
          { key: WK.restricted, scopes: all, endpoints: ['echo'] },
        ],
      },
      bob,
    ],
  };
}

/** One emulator for the file, started before its tests. */
export function useWriteEmulator(o: ConfigOptions = {}): { url: () => string; call: (method: string, path: string, body?: unknown, opts?: RequestOptions) => Promise<Reply>; advance: (ms: number) => Promise<void> } {
  let emu: Emulator | undefined;
  before(async () => { emu = await startEmulator(writeConfig(o)); });
  after(async () => { await emu?.stop(); });
  const url = (): string => emu!.url;
  return {
    url,
    call: (method, path, body, opts = {}) => request(url(), path, { key: WK.write, ...opts, method, ...(body !== undefined ? { body } : {}) }),
    advance: async (ms) => { await moveClock(url(), { advanceMs: ms }); },
  };
}

/** A GPU endpoint body as the reference's create example, with a name of the test's own. */
export function createBody(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name, image: 'my-org/worker:1', type: 'QUEUE',
    gpu: { pools: ['ADA_24'], count: 1 },
    workers: { min: 0, max: 2, idleTimeout: 5 },
    scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    timeout: 300_000,
    ...extra,
  };
}

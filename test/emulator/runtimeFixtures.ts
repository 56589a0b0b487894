// Endpoints for the runtime suites (issue 9): each test gets its own, so clock moves and bursts of one test
// never queue behind another's jobs. Times are seconds long so the few milliseconds of real time that pass
// between two requests never decide an outcome; the admin clock moves jobs along.
import { after, before } from 'node:test';
import { moveClock, request, startEmulator, type Emulator, type Reply } from './harness';
import { config, KEYS } from './fixtures';
import assert from 'node:assert/strict';

export const RT = {
  /** Two workers, 5 s cold start, 1 s hand-off, 10 s jobs, 20 s idle timeout. */
  burst: 'rt-burst',
  idle: 'rt-idle',
  warm: 'rt-warm',
  lowPriority: 'rt-low',
  fifo: 'rt-fifo',
  closed: 'rt-closed',
  cancel: 'rt-cancel',
  retry: 'rt-retry',
  retryTimeout: 'rt-retry-timeout',
  purge: 'rt-purge',
  health: 'rt-health',
  sync: 'rt-sync',
  timeout: 'rt-timeout',
  ttl: 'rt-ttl',
  llm: 'rt-llm',
  echo: 'rt-echo',
  webhook: 'rt-webhook',
  limits: 'rt-limits',
  keepSync: 'rt-keep-sync',
  keepSyncFail: 'rt-keep-sync-fail',
  heldEnd: 'rt-held-end',
  heldPurge: 'rt-held-purge',
  billed: 'rt-billed',
} as const;

/** rt-billed's prices: one round number per part, so a sum of seconds x price is easy to check. */
export const BILLED_PRICES = { gpuPerSecond: 0.001, cpuPerSecond: 0.0001, diskPerSecond: 0.00001, feePerSecond: 0.000001 };

const slowEcho = (id: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'echo', queueMs: 1000, executionMs: 10_000, ...extra });

export function runtimeConfig() {
  return config({
    aliceEndpoints: [
      slowEcho(RT.burst, { workersMax: 2, coldStartMs: 5000, idleTimeoutMs: 20_000 }),
      slowEcho(RT.idle, { workersMax: 2, coldStartMs: 5000, idleTimeoutMs: 20_000 }),
      slowEcho(RT.warm, { workersMin: 1, workersMax: 1, coldStartMs: 5000 }),
      slowEcho(RT.lowPriority, { workersMax: 1 }),
      slowEcho(RT.fifo, { workersMax: 1 }),
      slowEcho(RT.closed, { workersMax: 0 }),
      slowEcho(RT.cancel, { workersMax: 1 }),
      { id: RT.retry, kind: 'image', queueMs: 1000, executionMs: 2000, fail: 'CUDA out of memory' },
      slowEcho(RT.retryTimeout, { executionTimeoutMs: 6000 }),
      slowEcho(RT.purge, { workersMax: 1 }),
      slowEcho(RT.health, { workersMax: 1 }),
      slowEcho(RT.sync),
      slowEcho(RT.timeout, { executionTimeoutMs: 6000 }),
      slowEcho(RT.ttl, { workersMax: 1 }),
      { id: RT.llm, kind: 'llm', queueMs: 1000, workersMax: 2 },
      slowEcho(RT.echo),
      { id: RT.webhook, kind: 'echo', queueMs: 1000, executionMs: 2000 },
      slowEcho(RT.limits),
      { id: RT.keepSync, kind: 'echo', queueMs: 1000, executionMs: 2000 },
      { id: RT.keepSyncFail, kind: 'image', queueMs: 1000, executionMs: 2000, fail: 'CUDA out of memory' },
      slowEcho(RT.heldEnd, { workersMax: 1 }),
      slowEcho(RT.heldPurge, { workersMax: 0 }),
      slowEcho(RT.billed, { workersMax: 1, coldStartMs: 5000, idleTimeoutMs: 60_000, prices: BILLED_PRICES }),
    ],
  });
}

/**
 * One emulator with runtimeConfig() for the suite of the calling file: started before its tests, stopped
 * after. `api` and `advance` read the emulator's URL when called, so they can be taken at module level.
 */
export function useRuntimeEmulator(afterStart?: (api: ReturnType<typeof jobApi>) => Promise<void>) {
  let emu: Emulator | undefined;
  const url = (): string => {
    if (!emu) throw new Error('the runtime emulator is not started yet (call from a test or hook)');
    return emu.url;
  };
  const api = jobApi(url);
  // One hook, so `afterStart` runs once the emulator is up (a second root `before` in the test file was seen
  // to run before this one's start had finished).
  before(async () => {
    emu = await startEmulator(runtimeConfig());
    await afterStart?.(api);
  });
  after(async () => { await emu?.stop(); });
  return { url, api, advance: (ms: number) => moveClock(url(), { advanceMs: ms }) };
}

/** Calls of the job routes; `base` is the emulator's URL, or a function giving it when a call is made. */
export function jobApi(base: string | (() => string), key: string = KEYS.full) {
  const baseUrl = typeof base === 'string' ? () => base : base;
  const call = (method: string, path: string, body?: unknown): Promise<Reply> => request(baseUrl(), path, { method, key, body });
  return {
    call,
    async submit(endpoint: string, input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<string> {
      const r = await call('POST', `/v2/${endpoint}/run`, { input, ...extra });
      assert.equal(r.status, 200, r.text);
      return r.json.id as string;
    },
    status: (endpoint: string, id: string, query = '') => call('GET', `/v2/${endpoint}/status/${encodeURIComponent(id)}${query}`),
    cancel: (endpoint: string, id: string) => call('POST', `/v2/${endpoint}/cancel/${encodeURIComponent(id)}`, {}),
    retry: (endpoint: string, id: string) => call('POST', `/v2/${endpoint}/retry/${encodeURIComponent(id)}`),
    purge: (endpoint: string) => call('POST', `/v2/${endpoint}/purge-queue`, {}),
    health: (endpoint: string) => call('GET', `/v2/${endpoint}/health`),
    stream: (endpoint: string, id: string) => call('GET', `/v2/${endpoint}/stream/${encodeURIComponent(id)}`),
    statusSync: (endpoint: string, id: string, wait?: number) => call('GET', `/v2/${endpoint}/status-sync/${encodeURIComponent(id)}${wait ? `?wait=${wait}` : ''}`),
  };
}

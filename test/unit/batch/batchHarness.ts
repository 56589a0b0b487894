// What the batch tests share: an emulator in this process with the endpoints they need, a client on it, a
// runner writing its manifest into a temp folder, and the emulator's own view of how many jobs it was sent.
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createNetServer } from 'node:net';
import { startEmulator, type EmulatorConfigInput, type RunningEmulator } from '../../../src/emulator/index';
import { createServiceClient } from '../../../src/core/http/client';
import { inlineBillingReader } from '../../../src/core/billing/inlineBillingReader';
import { digestOf, type BatchItem } from '../../../src/core/batch/batchInputs';
import { BatchRunner, type BatchEvent, type BatchRunnerOptions } from '../../../src/core/batch/batchRunner';
import { ManifestWriter } from '../../../src/core/batch/manifestFile';
import { MANIFEST_FILE, MANIFEST_VERSION } from '../../../src/core/batch/manifestFormat';
import { JobDurationModel } from '../../../src/core/jobs/durationModel';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import type { ServiceClient } from '../../../src/core/service';
import type { JobInput } from '../../../src/core/schemas';

export const KEY = 'k-batch-test';
export const PRICES = { gpuPerSecond: 0.0004, cpuPerSecond: 0.00004, diskPerSecond: 0.000005, feePerSecond: 0.00002 };

export function batchConfig(extra: Record<string, unknown> = {}): EmulatorConfigInput {
  return {
    users: [{
      id: 'u',
      keys: [{ key: KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }],
      endpoints: [
        { id: 'img', kind: 'image', queueMs: 20, executionMs: 300, workersMin: 2, workersMax: 4, prices: PRICES },
        { id: 'bad', kind: 'image', queueMs: 20, executionMs: 100, workersMin: 1, fail: 'CUDA out of memory' },
        // A worker that echoes the caller's key into its error (a handler that prints its environment).
        { id: 'leaky', kind: 'image', queueMs: 20, executionMs: 50, workersMin: 1, fail: `the model hub refused the token ${KEY}` },
        { id: 'chat', kind: 'llm', queueMs: 20, workersMin: 2, workersMax: 2 },
        { id: 'pub', kind: 'public-image', queueMs: 20, executionMs: 200, workersMin: 2 },
        { id: 'cold', kind: 'image', queueMs: 20, executionMs: 300, workersMin: 0, workersMax: 2, coldStartMs: 1000, idleTimeoutMs: 60_000, prices: PRICES },
        { id: 'slow', kind: 'image', queueMs: 20, executionMs: 120_000, workersMin: 2, workersMax: 2 },
        // Issue 29: the platform bills worker lives (start + execution + idle, rounded up to the second). A price
        // learned as billed / execution seconds is the price only where those are the same: no start, no idle,
        // no hand-off, whole-second jobs.
        { id: 'priced', kind: 'image', queueMs: 0, executionMs: 1000, workersMin: 0, workersMax: 4, coldStartMs: 0, idleTimeoutMs: 0, prices: PRICES },
      ],
    }],
    ...extra,
  };
}

export interface Rig {
  emulator: RunningEmulator;
  client: ServiceClient;
  dir: string;
  /** A runner on `endpointId` for `inputs`, its events recorded. */
  runner(endpointId: string, inputs: JobInput[], options?: Partial<BatchRunnerOptions>): Promise<{ runner: BatchRunner; events: BatchEvent[]; manifestPath: string; items: readonly BatchItem[] }>;
  /** How many jobs the emulator says it has for the endpoint (every state), from its own health counts. */
  jobsOnService(endpointId: string): Promise<number>;
  /** Every request the emulator answered: "METHOD /path STATUS". */
  log: string[];
  /** How many /run the emulator accepted for the endpoint (counted on its side: each one is a job). */
  accepted(endpointId: string): number;
}

export async function startRig(config: EmulatorConfigInput = batchConfig(), admin = false): Promise<Rig> {
  const log: string[] = [];
  const emulator = await startEmulator({ config, admin, log: (line) => log.push(line.replace(/ \d+ms$/, '')) });
  const dir = mkdtempSync(join(tmpdir(), 'batch-run-'));
  after(async () => {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const client = createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: KEY }, { billingReader: inlineBillingReader, retry: { baseDelayMs: 50, maxDelayMs: 200 } });
  let n = 0;
  return {
    emulator,
    client,
    dir,
    log,
    accepted: (endpointId) => log.filter((l) => l === `POST /v2/${endpointId}/run 200`).length,
    async runner(endpointId, inputs, options = {}) {
      const manifestPath = join(dir, `${endpointId}-${++n}-${MANIFEST_FILE}`);
      const manifest = await ManifestWriter.open(manifestPath);
      after(() => manifest.close());
      const items: readonly BatchItem[] = options.items ?? inputs.map((input, index) => ({ index, ref: { file: `in${index}.input.json` }, input, digest: digestOf(input) }));
      const events: BatchEvent[] = [];
      const runner = new BatchRunner({
        client,
        endpointId,
        items,
        manifest,
        header: { type: 'batch', version: MANIFEST_VERSION, batchId: `b${n}`, endpointId, service: emulator.url, createdAt: new Date().toISOString(), jobs: items.length },
        concurrency: 4,
        wait: { durations: new JobDurationModel(), routeSupport: new RouteSupport() },
        retryMs: 200,
        onEvent: (e) => events.push(e),
        ...options,
      });
      return { runner, events, manifestPath, items };
    },
    async jobsOnService(endpointId) {
      const h = await client.health(endpointId);
      return h.jobs.completed + h.jobs.failed + h.jobs.inProgress + h.jobs.inQueue;
    },
  };
}

export function inputs(n: number, make: (i: number) => JobInput = (i) => ({ prompt: `p${i}` })): JobInput[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** A port nothing listens on (one just opened and closed), and a client of it: a service refusing connections. */
export async function refusingService(): Promise<{ url: string; port: number; client: ServiceClient }> {
  const port = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return { url, port, client: createServiceClient({ billingBaseUrl: url, jobsBaseUrl: url, apiKey: KEY }, { retry: { baseDelayMs: 50, maxDelayMs: 200 } }) };
}

// batch.*: a batch of 500 jobs of 0.2-2 s on an endpoint of 4 warm workers, under a per-user rate limit low
// enough to bind, against the loop people write today (runpod-python style: /run, then /status at once and
// every second after, 4 at a time, a 429 slept out as urllib3's Retry does). Each runs on its own emulator in
// this process (own quota, clock starting on a minute boundary so the fixed windows line up the same for both),
// both at once so a burst of load elsewhere hits both.
//
// Status requests are counted whatever their answer (a 429 is a request too).
// The jobs: the emulator's `llm` kind writes 3 tokens per 100 ms, so `max_tokens` k gives a job of
// ceil(k/3) x 100 ms exactly; k is spread so the jobs run 0.2 to 2 s (mean about 1.1 s). Nothing is scaled.
// The limit the service allows is min(worker capacity, rate limit): capacity = 4 workers / the jobs' measured
// mean execution time; the rate limit in jobs = the requests the quota allowed in the minute windows the run
// touched (a fixed window's whole quota is usable the moment it opens, so a run that ends 40 s into its third
// window had three windows' worth) / 2, the fewest requests a job sent with /run can take (its /run and one held
// /status-sync), over the run's time. Counting whole windows is the strict reading: it is the most the service
// would have let through in that time.
// BATCH_BENCH_JOBS / BATCH_BENCH_NAIVE_JOBS make a shorter run for development (the figures then say less).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context';
import { startEmulator, type EmulatorConfigInput } from '../../src/emulator/index';
import { planLlm } from '../../src/emulator/workers/simulated/llm';
import { createServiceClient } from '../../src/core/http/client';
import { digestOf, type BatchItem } from '../../src/core/batch/batchInputs';
import { BatchRunner } from '../../src/core/batch/batchRunner';
import { defaultConcurrency } from '../../src/core/batch/concurrency';
import { ManifestWriter } from '../../src/core/batch/manifestFile';
import { JobDurationModel } from '../../src/core/jobs/durationModel';
import { RouteSupport } from '../../src/core/runtime/routeSupport';
import type { JobInput } from '../../src/core/schemas';

const JOBS = Number(process.env.BATCH_BENCH_JOBS ?? 500);
const NAIVE_JOBS = Number(process.env.BATCH_BENCH_NAIVE_JOBS ?? Math.min(JOBS, 200));
const WORKERS = 4;
/** Requests per minute: 3 jobs/s at 2 requests a job, below the workers' ~3.6 jobs/s, so the quota binds. */
const QUOTA_PER_MINUTE = 360;
const KEY = 'k-batch-bench';

function config(): EmulatorConfigInput {
  const minute = Math.ceil(Date.now() / 60_000) * 60_000;
  return {
    now: new Date(minute).toISOString(),
    rateLimits: { minute: QUOTA_PER_MINUTE },
    users: [{
      id: 'bench',
      keys: [{ key: KEY, scopes: ['jobs:run', 'jobs:read', 'billing:read', 'endpoints:read'] }],
      // queueMs: the platform's hand-off from the queue to a free worker.
      endpoints: [{ id: 'llm', kind: 'llm', queueMs: 300, workersMin: WORKERS, workersMax: WORKERS }],
    }],
  };
}

/** Job i's input: a prompt whose answer is long enough, cut to the tokens that make a job of 0.2-2 s. */
function inputOf(i: number): JobInput {
  const ticks = 2 + ((i * 7) % 19); // 2..20 ticks of 100 ms, spread evenly
  const tokens = ticks * 3;
  for (let v = 0; ; v++) {
    const prompt = `bench job ${i} variant ${v}`;
    const plan = planLlm({ prompt });
    if (plan.ok && plan.plan.tokens.length >= tokens) return { prompt, sampling_params: { max_tokens: tokens } };
  }
}

interface Run {
  seconds: number;
  statusRequests: number;
  meanExecutionMs: number;
  runRequests: number;
}

async function withEmulator<T>(fn: (url: string, log: string[]) => Promise<T>): Promise<T> {
  const log: string[] = [];
  const emulator = await startEmulator({ config: config(), log: (l) => log.push(l) });
  try {
    return await fn(emulator.url, log);
  } finally {
    await emulator.close();
  }
}

const count = (log: string[], re: RegExp): number => log.filter((l) => re.test(l)).length;

async function runBatch(dir: string): Promise<Run> {
  return withEmulator(async (url, log) => {
    const client = createServiceClient({ billingBaseUrl: url, jobsBaseUrl: url, apiKey: KEY });
    const items: BatchItem[] = Array.from({ length: JOBS }, (_, index) => {
      const input = inputOf(index);
      return { index, ref: { file: 'bench.jsonl', line: index + 1 }, input, digest: digestOf(input) };
    });
    const manifest = await ManifestWriter.open(join(dir, 'batch.jsonl'));
    const runner = new BatchRunner({
      client, endpointId: 'llm', items, manifest,
      header: { type: 'batch', version: 1, batchId: 'bench', endpointId: 'llm', service: url, createdAt: new Date().toISOString(), jobs: JOBS },
      concurrency: defaultConcurrency(WORKERS),
      wait: { durations: new JobDurationModel(), routeSupport: new RouteSupport() },
    });
    const started = performance.now();
    await runner.start();
    const seconds = (performance.now() - started) / 1000;
    runner.dispose();
    await manifest.close();
    const rows = runner.rowList();
    const done = rows.filter((r) => r.status === 'COMPLETED');
    if (done.length !== JOBS) throw new Error(`the batch ended with ${done.length} of ${JOBS} jobs completed`);
    return {
      seconds,
      statusRequests: count(log, /^GET \/v2\/llm\/status(-sync)?\/\S+ \d{3} /),
      runRequests: count(log, /^POST \/v2\/llm\/run 200 /),
      meanExecutionMs: done.reduce((s, r) => s + r.executionTime!, 0) / done.length,
    };
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** urllib3's Retry on a 429 sleeps Retry-After; a POST is not retried by it, so a loop that survives resends. */
async function call(url: string, init: RequestInit): Promise<{ status?: string; id?: string }> {
  for (;;) {
    const r = await fetch(url, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
    const body = await r.text();
    if (r.status === 429) {
      await sleep(Number(r.headers.get('retry-after') ?? '1') * 1000);
      continue;
    }
    if (!r.ok) throw new Error(`${init.method} ${url}: ${r.status} ${body}`);
    return JSON.parse(body) as { status?: string; id?: string };
  }
}

async function runNaive(): Promise<Run> {
  return withEmulator(async (url, log) => {
    let next = 0;
    const terminal = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);
    const slot = async (): Promise<void> => {
      for (let i = next++; i < NAIVE_JOBS; i = next++) {
        const { id } = await call(`${url}/v2/llm/run`, { method: 'POST', body: JSON.stringify({ input: inputOf(i) }) });
        // Job.output(): status() at once, then a 1 s sleep between checks.
        for (let status = (await call(`${url}/v2/llm/status/${id}`, { method: 'GET' })).status; !terminal.has(status ?? ''); ) {
          await sleep(1000);
          status = (await call(`${url}/v2/llm/status/${id}`, { method: 'GET' })).status;
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: WORKERS }, slot));
    return {
      seconds: (performance.now() - started) / 1000,
      statusRequests: count(log, /^GET \/v2\/llm\/status\/\S+ \d{3} /),
      runRequests: count(log, /^POST \/v2\/llm\/run 200 /),
      meanExecutionMs: NaN,
    };
  });
}

export default async function batchBench(ctx: BenchContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'batch-bench-'));
  try {
    ctx.log(`batch of ${JOBS} jobs and a naive loop of ${NAIVE_JOBS}, at once, each under ${QUOTA_PER_MINUTE} requests a minute (a few minutes)`);
    const [batch, naive] = await Promise.all([runBatch(dir), runNaive()]);
    const batchRate = batch.runRequests / batch.seconds;
    const naiveRate = naive.runRequests / naive.seconds;
    const capacity = WORKERS / (batch.meanExecutionMs / 1000);
    const quotaJobs = (QUOTA_PER_MINUTE * Math.ceil(batch.seconds / 60)) / 2 / batch.seconds;
    const limit = Math.min(capacity, quotaJobs);
    ctx.log(`batch ${batch.runRequests} jobs in ${batch.seconds.toFixed(1)} s; naive ${naive.runRequests} in ${naive.seconds.toFixed(1)} s; capacity ${capacity.toFixed(2)} jobs/s, quota ${quotaJobs.toFixed(2)} jobs/s`);
    const naiveFigure = { name: 'batch.naiveLoop.throughput', value: naiveRate };
    ctx.report(naiveFigure.name, naiveFigure.value, 'jobs/s');
    ctx.report('batch.throughput', batchRate, 'jobs/s', naiveFigure);
    const limitFigure = { name: 'batch.serviceLimit', value: limit };
    ctx.report(limitFigure.name, limit, 'jobs/s');
    ctx.report('batch.throughputOfLimit', batchRate, 'jobs/s', limitFigure);
    const naivePerJob = { name: 'batch.naiveLoop.requestsPerJob', value: naive.statusRequests / naive.runRequests };
    ctx.report(naivePerJob.name, naivePerJob.value, 'requests');
    ctx.report('batch.requestsPerJob', batch.statusRequests / batch.runRequests, 'requests', naivePerJob);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

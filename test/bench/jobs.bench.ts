// Job figures (issue 5 "Done when"), against the emulator CLI as a separate process:
// 1. For 50 jobs of varied duration, the status requests per job and the lag between the job finishing on the
//    emulator and the client knowing it, for the runner's waiter (core/jobs waitForJob) beside plain fixed
//    1-second polling, in two scenarios: "cold", 50 endpoints never seen before (0.3 s to 12 s; the waiter has
//    no duration estimate), and "warm", 5 endpoints (0.5 s to 11 s) each seen once before, 10 jobs each. Both follow the same 50 durations in the same run, all 100 jobs at once (the emulator runs every
//    job on its own worker, so they do not slow each other down), so load on the machine hits both alike.
//    "Finishing on the emulator" = the moment /run answered + delayTime + executionTime of the final job.
//    Both scenarios follow a service WITHOUT status-sync (the waiter is told so), as a SPEC-only service is.
//    A third, "coldSync" (issue 10), follows 50 more endpoints never seen on the emulator's long poll
//    (GET /status-sync?wait=), learned as a real service's would be, beside fixed 1 s polling in the same run.
// 2. The peak memory (RSS and heap) of this process while it receives one job with four 2048x2048 PNG images,
//    decodes them and saves them the way the runner does (parseOutputs + saveJobOutputs), against the same
//    process just before the job. The extension host runs the same code path on the same Node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServiceClient } from '../../src/core/http/client';
import { parseOutputs } from '../../src/core/outputs/outputs';
import { saveJobOutputs } from '../../src/core/outputs/saveOutputs';
import { isTerminalStatus, type Job } from '../../src/core/schemas';
import type { ServiceClient } from '../../src/core/service';
import { runJob, waitForJob } from '../../src/core/jobs';
import { RouteSupport } from '../../src/core/runtime/routeSupport';
import { startEmulator } from '../emulator/harness';
import type { BenchContext } from './context';

const KEY = 'bench-jobs-key';
const JOBS = 50;

/** 50 deterministic durations spread from 0.3 s to 12 s (queue + execution), one endpoint each. */
function durations(): Array<{ queueMs: number; executionMs: number }> {
  return Array.from({ length: JOBS }, (_, i) => {
    const total = 300 + Math.round(((i * 7919) % JOBS) / (JOBS - 1) * 11_700);
    const queueMs = Math.round(total * (0.15 + ((i * 31) % 50) / 100));
    return { queueMs, executionMs: total - queueMs };
  });
}

/** Five endpoints the runner has seen before (warm): 0.5 s to 11 s, ten jobs each in the measured run. */
const WARM = [500, 2000, 4000, 7000, 11_000].map((total, i) => ({ id: `warm-${i}`, queueMs: Math.round(total * 0.3), executionMs: total - Math.round(total * 0.3) }));

function benchConfig() {
  const endpoints = durations().map((d, i) => ({ id: `job-bench-${i}`, kind: 'echo', ...d }));
  for (const w of WARM) endpoints.push({ kind: 'echo', ...w });
  for (const [i, d] of durations().entries()) endpoints.push({ id: `sync-bench-${i}`, kind: 'echo', ...d });
  endpoints.push({ id: 'big-images', kind: 'image', queueMs: 0, executionMs: 200 } as (typeof endpoints)[number]);
  // Enough warm workers that no job waits for another (the emulator's default is 3 per endpoint, and the warm
  // scenario runs 20 jobs at once on each): the figures measure following a job, not the queue model.
  for (const e of endpoints) Object.assign(e, { workersMin: 0, workersMax: 50 });
  return {
    rateLimits: { minute: 10_000_000, hour: 100_000_000, day: 1_000_000_000 },
    retentionMinutes: 60,
    users: [{ id: 'bench', keys: [{ key: KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read'] }], endpoints, usage: [] }],
  };
}

/** A client whose status calls (plain or long-poll) are counted per job. */
function countingClient(base: ServiceClient, counts: Map<string, number>): ServiceClient {
  return Object.assign(Object.create(base) as ServiceClient, {
    status: (endpointId: string, jobId: string, options?: Parameters<ServiceClient['status']>[2]) => {
      counts.set(jobId, (counts.get(jobId) ?? 0) + 1);
      return base.status(endpointId, jobId, options);
    },
    statusSync: (endpointId: string, jobId: string, options?: Parameters<ServiceClient['statusSync']>[2]) => {
      counts.set(jobId, (counts.get(jobId) ?? 0) + 1);
      return base.statusSync(endpointId, jobId, options);
    },
  });
}

async function fixedIntervalWait(client: ServiceClient, endpointId: string, jobId: string, intervalMs: number): Promise<Job> {
  for (;;) {
    const job = await client.status(endpointId, jobId);
    if (isTerminalStatus(job.status)) return job;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

interface Outcome { requests: number; lagMs: number }

async function follow(client: ServiceClient, counts: Map<string, number>, endpointId: string, wait: (jobId: string, submittedAt: number) => Promise<Job>): Promise<Outcome> {
  const submittedAt = Date.now();
  const before = performance.now();
  const { id } = await client.run(endpointId, { prompt: 'bench' });
  const accepted = (before + performance.now()) / 2;
  const job = await wait(id, submittedAt);
  const knownAt = performance.now();
  const finishedAt = accepted + (job.delayTime ?? 0) + (job.executionTime ?? 0);
  return { requests: counts.get(id) ?? 0, lagMs: Math.max(0, knownAt - finishedAt) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Requests per job, median and p90 lag of the runner's waiter against fixed 1 s polling. */
function reportPair(ctx: BenchContext, scenario: string, ours: Outcome[], fixed: Outcome[], mine = `jobs.${scenario}.waitForJob`): void {
  const base = `jobs.${scenario}.fixed1s`;
  const pairs: Array<[string, (o: Outcome[]) => number, string]> = [
    ['statusRequestsPerJob', (o) => mean(o.map((x) => x.requests)), 'requests'],
    ['lagMedian', (o) => median(o.map((x) => x.lagMs)), 'ms'],
    ['lagP90', (o) => percentile(o.map((x) => x.lagMs), 0.9), 'ms'],
  ];
  for (const [what, f, unit] of pairs) {
    const b = { name: `${base}.${what}`, value: f(fixed) };
    ctx.report(b.name, b.value, unit);
    ctx.report(`${mine}.${what}`, f(ours), unit, b);
  }
}

export default async function jobsBench(ctx: BenchContext): Promise<void> {
  const emulator = await startEmulator(benchConfig(), { admin: false });
  const dir = mkdtempSync(join(tmpdir(), 'jobs-bench-'));
  try {
    const counts = new Map<string, number>();
    const base = createServiceClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: KEY, timeoutMs: 60_000 });
    const client = countingClient(base, counts);
    // cold and warm: a service without status-sync, polled as pollPlan.ts says.
    const specOnly = new RouteSupport({ statusSync: 'no' });
    const ids = durations().map((_, i) => `job-bench-${i}`);
    ctx.log(`following ${JOBS} jobs with each strategy at once (${JOBS * 2} jobs, up to 12 s each)`);
    const [ours, fixed] = await Promise.all([
      Promise.all(ids.map((e) => follow(client, counts, e, (id, submittedAt) => waitForJob(client, e, id, { submittedAt, routeSupport: specOnly })))),
      Promise.all(ids.map((e) => follow(client, counts, e, (id) => fixedIntervalWait(client, e, id, 1000)))),
    ]);
    reportPair(ctx, 'cold', ours, fixed);

    // Warm: the usual case (the same endpoints again and again). One job per endpoint first, so the
    // runner's duration model has seen each; then 10 jobs per endpoint with each strategy, all at once.
    ctx.log(`warming ${WARM.length} endpoints, then following ${WARM.length * 10} jobs with each strategy at once`);
    await Promise.all(WARM.map((w) => follow(client, counts, w.id, (id, submittedAt) => waitForJob(client, w.id, id, { submittedAt, routeSupport: specOnly }))));
    const warmIds = WARM.flatMap((w) => Array.from({ length: 10 }, () => w.id));
    const [oursWarm, fixedWarm] = await Promise.all([
      Promise.all(warmIds.map((e) => follow(client, counts, e, (id, submittedAt) => waitForJob(client, e, id, { submittedAt, routeSupport: specOnly })))),
      Promise.all(warmIds.map((e) => follow(client, counts, e, (id) => fixedIntervalWait(client, e, id, 1000)))),
    ]);
    reportPair(ctx, 'warm', oursWarm, fixedWarm);

    // coldSync: 50 endpoints never seen, on a service whose long poll the waiter learns by itself.
    ctx.log(`following ${JOBS} jobs on endpoints never seen, with status-sync, beside fixed 1 s polling`);
    const learned = new RouteSupport();
    const syncIds = durations().map((_, i) => `sync-bench-${i}`);
    const [oursSync, fixedSync] = await Promise.all([
      Promise.all(syncIds.map((e) => follow(client, counts, e, (id, submittedAt) => waitForJob(client, e, id, { submittedAt, routeSupport: learned })))),
      Promise.all(syncIds.map((e) => follow(client, counts, e, (id) => fixedIntervalWait(client, e, id, 1000)))),
    ]);
    if (learned.get(emulator.url, 'statusSync') !== 'yes') throw new Error('the waiter did not use status-sync on the emulator');
    reportPair(ctx, 'coldSync', oursSync, fixedSync, 'jobs.coldSync');

    // Memory: four 2048x2048 PNGs in one job, received, decoded and saved as the runner does.
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 100));
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    let rssPeak = rssBefore;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      rssPeak = Math.max(rssPeak, m.rss);
      heapPeak = Math.max(heapPeak, m.heapUsed);
    }, 5);
    let bytes = 0;
    try {
      const job = await runJob(base, 'big-images', { prompt: 'four big ones', width: 2048, height: 2048, num_images: 4 }, { mode: 'async' });
      const parts = parseOutputs(job.output);
      const saved = await saveJobOutputs({ dir, endpointId: 'big-images', job, input: {}, parts, download: true, maxDownloadBytes: 1e9, downloadTimeoutMs: 60_000 });
      bytes = saved.files.reduce((a, f) => a + f.bytes, 0);
      if (saved.files.length !== 4) throw new Error(`expected 4 images, saved ${saved.files.length}`);
    } finally {
      clearInterval(sampler);
    }
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
    ctx.log(`four 2048x2048 PNGs: ${(bytes / 1e6).toFixed(1)} MB saved`);
    ctx.report('jobs.bigImages.savedBytes', bytes, 'bytes');
    ctx.report('jobs.bigImages.rssBefore', rssBefore, 'bytes');
    ctx.report('jobs.bigImages.rssPeak', rssPeak, 'bytes', { name: 'jobs.bigImages.rssBefore', value: rssBefore });
    ctx.report('jobs.bigImages.heapBefore', heapBefore, 'bytes');
    ctx.report('jobs.bigImages.heapPeak', heapPeak, 'bytes', { name: 'jobs.bigImages.heapBefore', value: heapBefore });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await emulator.stop();
  }
}

// emulator.queue10k (issue 21, "Scale"): 10,000 jobs submitted at once on an echo-like endpoint with 8 warm
// workers (20 ms jobs, no hand-off), against the built CLI in its own process. Four sub-figures, each against a
// baseline measured in this run:
// - every job ends COMPLETED (checked through /status-sync, job by job in submission order);
// - the time to the last end against the schedule predicted from the measured submission instants (8 FIFO
//   workers, each job 20 ms: the queue model's own arithmetic, replayed here independently);
// - the emulator process's RSS growth from idle to its peak while the jobs run (target: at most 100 MB);
// - the status route's p99 latency while the jobs run against its p99 on the same emulator when idle (before
//   the submits and after the last end).
// The endpoint lifts the platform's queue cap (maxQueued) and the rate limits: they would refuse a 10,000-job
// burst on 8 workers, and this measures the engine, not the limits.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { startEmulator } from '../emulator/harness';
import { call as callAs, p99, probe as probeWith } from './emulatorCalls';
import type { BenchContext } from './context';

const JOBS = 10_000;
const WORKERS = 8;
const EXECUTION_MS = 20;
const SUBMIT_CONCURRENCY = 32;
const PROBE_CONCURRENCY = 4;
const IDLE_PROBES = 2000;
const KEY = 'bench-key';
const call = (agent: http.Agent, url: string, method?: string, body?: unknown): Promise<any> => callAs(agent, KEY, url, method, body);
const probe = (agent: http.Agent, url: (id: string) => string, pick: () => string, stop: () => boolean, count?: number): Promise<number[]> =>
  probeWith((u) => call(agent, u), PROBE_CONCURRENCY, url, pick, stop, count);

function queueConfig() {
  return {
    rateLimits: { minute: 10_000_000, hour: 100_000_000, day: 1_000_000_000 },
    operationLimits: { run: 10_000_000, status: 10_000_000 },
    retentionMinutes: 600,
    users: [{
      id: 'bench',
      keys: [{ key: KEY, scopes: ['jobs:run', 'jobs:read'] }],
      endpoints: [{ id: 'q10k', kind: 'echo', queueMs: 0, executionMs: EXECUTION_MS, workersMin: WORKERS, workersMax: WORKERS, coldStartMs: 0, maxQueued: JOBS * 2 }],
    }],
  };
}

/** Resident set size of a process in bytes (Linux /proc). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/** The FIFO schedule of 8 workers from the instants jobs were queued: when the last one ends. */
function predictedLastEnd(queuedAt: number[]): number {
  const free = Array.from({ length: WORKERS }, () => Number.NEGATIVE_INFINITY);
  let last = 0;
  for (const q of queuedAt) {
    let w = 0;
    for (let i = 1; i < WORKERS; i++) if (free[i]! < free[w]!) w = i;
    const end = Math.max(q, free[w]!) + EXECUTION_MS;
    free[w] = end;
    last = Math.max(last, end);
  }
  return last;
}

export default async function queueBench(ctx: BenchContext): Promise<void> {
  const emu = await startEmulator(queueConfig(), { admin: false });
  const agent = new http.Agent({ keepAlive: true, maxSockets: SUBMIT_CONCURRENCY + PROBE_CONCURRENCY + 1 });
  const pid = emu.proc.pid!;
  const base = `${emu.url}/v2/q10k`;
  try {
    // Idle: the status of one finished job, over and over.
    const first = await call(agent, `${base}/runsync`, 'POST', { input: { warm: true } });
    if (first.status !== 'COMPLETED') throw new Error(`runsync: ${JSON.stringify(first)}`);
    const idleProbe = (): Promise<number[]> => probe(agent, (id) => `${base}/status/${id}`, () => first.id, () => false, IDLE_PROBES);
    await probe(agent, (id) => `${base}/status/${id}`, () => first.id, () => false, 1000); // warm-up
    const idle = await idleProbe();
    global.gc?.();
    const rssIdle = rssOf(pid);

    // 10,000 submits at once (SUBMIT_CONCURRENCY in flight); the queue time of each is taken as the moment its
    // answer came (the emulator queued it at or before then), in the order the emulator answered.
    const ids: string[] = [];
    const queuedAt: number[] = [];
    let peakRss = rssIdle;
    const rssTimer = setInterval(() => { peakRss = Math.max(peakRss, rssOf(pid)); }, 100);
    const t0 = Date.now();
    let next = 0;
    const submitting = Promise.all(Array.from({ length: SUBMIT_CONCURRENCY }, async () => {
      while (next < JOBS) {
        const i = next++;
        const r = await call(agent, `${base}/run`, 'POST', { input: { i } });
        queuedAt.push(Date.now());
        ids.push(r.id);
      }
    }));
    // While they run: status probes of jobs picked at random among those submitted.
    let running = true;
    const busy = probe(agent, (id) => `${base}/status/${id}`, () => ids[Math.floor(Math.random() * ids.length)] ?? first.id, () => !running);
    await submitting;
    const submittedMs = Date.now() - t0;
    // Every job, in the order they were queued: each answer comes when that job ends, the last at the last end.
    let completed = 0;
    let lastEnd = 0;
    for (const id of ids) {
      const s = await call(agent, `${base}/status-sync/${id}?wait=120000`);
      if (s.status === 'COMPLETED') completed++;
      else throw new Error(`job ${id} ended ${s.status}: ${JSON.stringify(s)}`);
      lastEnd = Date.now();
    }
    running = false;
    const during = await busy;
    clearInterval(rssTimer);
    peakRss = Math.max(peakRss, rssOf(pid));
    // Idle again once every job has ended: the idle p99 is taken before and after, so a burst of load from the
    // machine's other users during one idle phase does not decide the ratio alone.
    idle.push(...(await idleProbe()));

    const predicted = predictedLastEnd(queuedAt) - t0;
    const measured = lastEnd - t0;
    const growthMb = (peakRss - rssIdle) / 1e6;
    ctx.log(`queue10k: ${JOBS} jobs submitted in ${submittedMs} ms, ${completed} COMPLETED, last end after ${measured} ms (schedule: ${predicted} ms); RSS ${(rssIdle / 1e6).toFixed(0)} -> ${(peakRss / 1e6).toFixed(0)} MB; status p99 idle ${p99(idle).toFixed(1)} ms (${idle.length}), running ${p99(during).toFixed(1)} ms (${during.length})`);
    ctx.report('emulator.queue10k.jobs', JOBS, 'jobs');
    ctx.report('emulator.queue10k.completed', completed, 'jobs', { name: 'emulator.queue10k.jobs', value: JOBS });
    ctx.report('emulator.queue10k.predictedMs', predicted, 'ms');
    ctx.report('emulator.queue10k.lastEndMs', measured, 'ms', { name: 'emulator.queue10k.predictedMs', value: predicted });
    ctx.report('emulator.queue10k.rssIdleMb', Math.round(rssIdle / 1e6), 'MB');
    ctx.report('emulator.queue10k.rssGrowthMb', Math.round(growthMb * 10) / 10, 'MB', { name: 'emulator.queue10k.rssTargetMb', value: 100 });
    ctx.report('emulator.queue10k.statusP99IdleMs', Math.round(p99(idle) * 100) / 100, 'ms');
    ctx.report('emulator.queue10k.statusP99RunningMs', Math.round(p99(during) * 100) / 100, 'ms', { name: 'emulator.queue10k.statusP99IdleMs', value: Math.round(p99(idle) * 100) / 100 });
  } finally {
    agent.destroy();
    await emu.stop();
  }
}

// emulator.patchUnderLoad (issue 28): 100 PATCHes of an endpoint (workers max up and down, its scaler's value, and
// every tenth an env change that cuts a release the workers roll over to) while 2,000 jobs run on it, against
// the built CLI in its own process. Figures, each against a baseline of this run:
// - jobs lost: every job must end COMPLETED with its own input as output;
// - jobs run twice: the seconds the endpoint's workers spent executing (their lives on /__admin/worker-lives) /
//   one job's time, minus the job count, must be 0 (a job run twice would execute twice). Not the bill: since
//   issue 29 it also holds each worker's start and idle time, as the platform's does;
// - the status route's p99 while the jobs run and the PATCHes land, against its p99 on the same emulator idle:
//   target at most 2x. The idle p99 is the median of three idle windows (two before, one after), so a burst of
//   load from the machine's other users during one window does not decide the ratio alone.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../emulator/harness';
import { call as callAs, p99, probe as probeWith } from './emulatorCalls';
import type { BenchContext } from './context';

const JOBS = 2000;
const PATCHES = 100;
const EXECUTION_MS = 200;
const GPU_PER_SECOND = 0.001;
const SUBMIT_CONCURRENCY = 16;
const PROBE_CONCURRENCY = 4;
const IDLE_PROBES = 1000;
const KEY = 'bench-key';
const call = (agent: http.Agent, url: string, method?: string, body?: unknown): Promise<any> => callAs(agent, KEY, url, method, body);
const probe = (agent: http.Agent, url: (id: string) => string, pick: () => string, stop: () => boolean, count?: number): Promise<number[]> =>
  probeWith((u) => call(agent, u), PROBE_CONCURRENCY, url, pick, stop, count);
const ID = 'pul';

function benchConfig() {
  return {
    rateLimits: { minute: 10_000_000, hour: 100_000_000, day: 1_000_000_000 },
    operationLimits: { run: 10_000_000, status: 10_000_000 },
    retentionMinutes: 600,
    users: [{
      id: 'bench',
      keys: [{ key: KEY, scopes: ['jobs:run', 'jobs:read', 'billing:read', 'endpoints:read', 'endpoints:write'] }],
      endpoints: [{
        id: ID, kind: 'echo', queueMs: 0, executionMs: EXECUTION_MS, workersMin: 0, workersMax: 16, coldStartMs: 0, idleTimeoutMs: 2000,
        maxQueued: JOBS * 2, prices: { gpuPerSecond: GPU_PER_SECOND, cpuPerSecond: 0, diskPerSecond: 0, feePerSecond: 0 },
      }],
    }],
  };
}

/** The i-th PATCH: workers max and idle timeout moving, and every tenth a container change (a new release). */
function patchBody(i: number): Record<string, unknown> {
  // The endpoint scales on REQUEST_COUNT (the config default), where REST v2 refuses an idle timeout: the
  // scaler's value moves instead.
  const body: Record<string, unknown> = { workers: { max: [8, 16, 4, 12][i % 4] }, scaling: { type: 'REQUEST_COUNT', requestCount: 1 + (i % 3) } };
  if (i % 10 === 9) body.env = { RELEASE: String(i) };
  return body;
}

export default async function patchUnderLoadBench(ctx: BenchContext): Promise<void> {
  // Admin on for /__admin/worker-lives (the executed seconds below); the routes measured are the same.
  const emu = await startEmulator(benchConfig(), { admin: true });
  const agent = new http.Agent({ keepAlive: true, maxSockets: SUBMIT_CONCURRENCY + PROBE_CONCURRENCY + 2 });
  const base = `${emu.url}/v2/${ID}`;
  const executedSeconds = async (): Promise<number> =>
    ((await call(agent, `${emu.url}/__admin/worker-lives?endpointId=${ID}`)).lives as { executingSeconds: number }[]).reduce((sum, l) => sum + l.executingSeconds, 0);
  try {
    const first = await call(agent, `${base}/runsync`, 'POST', { input: { warm: true } });
    if (first.status !== 'COMPLETED') throw new Error(`runsync: ${JSON.stringify(first)}`);
    const idleProbe = (): Promise<number[]> => probe(agent, (id) => `${base}/status/${id}`, () => first.id, () => false, IDLE_PROBES);
    await probe(agent, (id) => `${base}/status/${id}`, () => first.id, () => false, 500); // warm-up
    const idleWindows = [await idleProbe(), await idleProbe()];
    const executedBefore = await executedSeconds();

    const ids: string[] = [];
    let next = 0;
    const t0 = Date.now();
    const submitting = Promise.all(Array.from({ length: SUBMIT_CONCURRENCY }, async () => {
      while (next < JOBS) {
        const i = next++;
        const r = await call(agent, `${base}/run`, 'POST', { input: { i } });
        ids[i] = r.id;
      }
    }));
    let running = true;
    const busy = probe(agent, (id) => `${base}/status/${id}`, () => ids[Math.floor(Math.random() * next)] ?? first.id, () => !running);
    // The PATCHes, one after another, spread over the run (about 2,000 x 200 ms / 10 workers = 40 s).
    const patchLat: number[] = [];
    const patching = (async () => {
      for (let i = 0; i < PATCHES; i++) {
        const t = performance.now();
        await call(agent, `${emu.url}/v2/serverless/${ID}`, 'PATCH', patchBody(i));
        patchLat.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    await submitting;
    await patching;
    let completed = 0;
    let wrongOutput = 0;
    for (const [i, id] of ids.entries()) {
      const s = await call(agent, `${base}/status-sync/${id}?wait=120000`);
      if (s.status === 'COMPLETED') completed++;
      if (s.output?.i !== i) wrongOutput++;
    }
    const lastEnd = Date.now() - t0;
    running = false;
    const during = await busy;
    idleWindows.push(await idleProbe());
    const idleP99s = idleWindows.map(p99).sort((a, b) => a - b);
    const idleP99 = idleP99s[1]!;
    const releases = await call(agent, `${emu.url}/v2/serverless/${ID}/releases`);
    const runs = Math.round(((await executedSeconds()) - executedBefore) / (EXECUTION_MS / 1000));

    ctx.log(`patchUnderLoad: ${JOBS} jobs, ${PATCHES} PATCHes (p99 ${p99(patchLat).toFixed(1)} ms), ${completed} COMPLETED, ${wrongOutput} with another output, ${runs} runs executed, ${releases.releases.length} releases, last end after ${lastEnd} ms; status p99 idle ${idleP99s.map((x) => x.toFixed(1)).join(' / ')} ms (${IDLE_PROBES} each), under load ${p99(during).toFixed(1)} ms (${during.length})`);
    ctx.report('emulator.patchUnderLoad.jobs', JOBS, 'jobs');
    ctx.report('emulator.patchUnderLoad.lost', JOBS - completed + wrongOutput, 'jobs');
    ctx.report('emulator.patchUnderLoad.runTwice', runs - JOBS, 'jobs');
    ctx.report('emulator.patchUnderLoad.patches', patchLat.length, 'requests');
    ctx.report('emulator.patchUnderLoad.releases', releases.releases.length, 'releases');
    ctx.report('emulator.patchUnderLoad.statusP99IdleMs', Math.round(idleP99 * 100) / 100, 'ms');
    ctx.report('emulator.patchUnderLoad.statusP99Ms', Math.round(p99(during) * 100) / 100, 'ms', { name: 'emulator.patchUnderLoad.statusP99IdleMs', value: Math.round(idleP99 * 100) / 100 });
  } finally {
    agent.destroy();
    await emu.stop();
  }
}

// Issue 14 "Done when": the cost of running a handler through the emulator's worker protocol. For the same
// handler (test/fixtures/workers/png_handler.py, a 64x64 PNG), the time per job of /runsync on a `worker`
// endpoint of the emulator CLI (job take by the real SDK, result posted back, status built) beside the runpod
// package's own local test server (`python handler.py --rp_serve_api`) answering /runsync in-process, measured
// alternately in the same run; and the cold start: from spawning the worker process to its first job take, beside
// the package's own server becoming ready to answer, from its spawn.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from '../emulator/harness';
import { api, FIXTURES, startWorkerEmulator, VENV_PYTHON, waitFor, workerEndpoint } from '../worker/workerHarness';
import type { BenchContext } from './context';
import { ensure, WORKER_VENV } from './needs';

const INPUT = { width: 64, height: 64 };

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

export default async function (ctx: BenchContext): Promise<void> {
  // Installed when missing (needs.ts: node scripts/python-env.mjs); skipped only without python3, as npm test does.
  const venv = await ensure(WORKER_VENV, ctx.root, ctx.log);
  if (!venv.ready) {
    ctx.log(`worker bench skipped: ${venv.why}`);
    return;
  }
  const handler = resolve(FIXTURES, 'png_handler.py');
  const port = await freePort();
  const serverStart = performance.now();
  const own = spawn(VENV_PYTHON, [handler, '--rp_serve_api', '--rp_api_port', String(port), '--rp_api_host', '127.0.0.1'], {
    cwd: FIXTURES, stdio: 'ignore', env: { ...process.env, RUNPOD_LOG_LEVEL: 'WARN' }, detached: true,
  });
  const ownUrl = `http://127.0.0.1:${port}`;
  const emu = await startWorkerEmulator([workerEndpoint('png', 'png_handler.py', { workersMin: 0, workersMax: 1 })]);
  try {
    await waitFor('the package\'s own server', async () => {
      try {
        return (await request(ownUrl, '/runsync', { method: 'POST', body: { input: INPUT }, timeoutMs: 5000 })).status === 200 ? true : undefined;
      } catch {
        return undefined;
      }
    }, 60_000, 50);
    const ownReady = performance.now() - serverStart;

    const w = api(emu);
    const first = await w.post('/v2/png/runsync', { input: INPUT });
    if (first.json?.status !== 'COMPLETED') throw new Error(`first job: ${first.text.slice(0, 300)}`);
    const [proc] = await w.processes('png');
    const coldStart = proc!.coldStartMs!;
    ctx.report('worker.ownServerStart', Math.round(ownReady), 'ms');
    ctx.report('worker.coldStart', coldStart, 'ms', { name: 'worker.ownServerStart', value: Math.round(ownReady) });

    const viaOwn = async (): Promise<void> => {
      const r = await request(ownUrl, '/runsync', { method: 'POST', body: { input: INPUT } });
      if (r.status !== 200) throw new Error(`own server: ${r.status}`);
    };
    let lastSdkMs = 0;
    const viaEmulator = async (): Promise<void> => {
      const r = await w.post('/v2/png/runsync', { input: INPUT });
      if (r.json?.status !== 'COMPLETED') throw new Error(`emulator: ${r.text.slice(0, 200)}`);
      lastSdkMs = r.json.delayTime + r.json.executionTime; // from the job's submission to its result's arrival
    };
    // Back to back: the SDK (rp_scale.py get_jobs) sleeps 1 s whenever its concurrency is full, so a worker that
    // has just finished a job asks for the next one up to a second later, on the platform as here.
    const t = await ctx.compare(viaOwn, viaEmulator, { iterations: 10, warmup: 1 });
    ctx.report('worker.ownRunsyncPerJob', t.baseline.medianMs, 'ms');
    ctx.report('worker.emulatorRunsyncBackToBack', t.candidate.medianMs, 'ms', { name: 'worker.ownRunsyncPerJob', value: t.baseline.medianMs });
    // An idle worker is waiting in its job-take long poll: the job goes out at once. This is the protocol's own
    // cost (take, handler, result post, status), measured after a pause that lets the worker get back to its poll.
    const idle: number[] = [];
    const own: number[] = [];
    const outside: number[] = [];
    for (let i = 0; i < 12; i++) {
      let t0 = performance.now();
      await viaOwn();
      own.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 1300));
      t0 = performance.now();
      await viaEmulator();
      idle.push(performance.now() - t0);
      outside.push(performance.now() - t0 - lastSdkMs);
    }
    const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;
    ctx.report('worker.ownRunsyncPerJobInterleaved', median(own), 'ms');
    ctx.report('worker.emulatorRunsyncIdleWorker', median(idle), 'ms', { name: 'worker.ownRunsyncPerJobInterleaved', value: median(own) });
    // What is left of a job's wall time once the worker's own time (hand-off to result) is taken out: the HTTP
    // of /runsync and the emulator's work around it.
    ctx.report('worker.emulatorShareIdleWorker', Math.max(0, median(outside)), 'ms');
    ctx.log(`per job: emulator back to back ${t.candidate.medianMs.toFixed(0)} ms, to an idle worker ${median(idle).toFixed(0)} ms; own server ${t.baseline.medianMs.toFixed(1)} ms`);
  } finally {
    await emu.stop();
    try {
      process.kill(-own.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

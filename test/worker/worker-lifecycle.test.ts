// Issue 14, the life and death of worker processes: a worker whose process dies is `unhealthy` (health and the
// REST workers list say so) and the job it held ends TIMED_OUT at once (the docs' "Job states": a job whose worker
// never reports back a result is TIMED_OUT); a worker whose heartbeat stops is unhealthy too; and no worker
// process (nor the heartbeat child the SDK forks) outlives the emulator, stopped with SIGTERM or killed with SIGKILL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Emulator } from '../emulator/harness';
import { api, processesInGroup, skipReason, startWorkerEmulator, waitFor, workerEndpoint } from './workerHarness';

const skip = skipReason();
if (skip) console.log(`# skipped: ${skip}`);

describe('a worker that dies', { skip }, () => {
  let emu: Emulator;
  let w: ReturnType<typeof api>;
  before(async () => {
    emu = await startWorkerEmulator([
      workerEndpoint('crashes', 'crashing_handler.py'),
      workerEndpoint('hangs', 'sleeping_handler.py', { workersMin: 1 }, { pingIntervalMs: 1000 }),
    ]);
    w = api(emu);
  });
  after(async () => {
    await emu?.stop();
  });

  test('its process exits mid-job: the job ends TIMED_OUT naming the exit, the worker shows as unhealthy', async () => {
    const id = await w.submit('crashes', { n: 1 });
    const job = await w.settle('crashes', id);
    assert.equal(job.status, 'TIMED_OUT', JSON.stringify(job));
    assert.match(job.error, /became unhealthy \(its process exited with code 3\) before it reported a result/);
    const health = (await w.get('/v2/crashes/health')).json;
    assert.equal(health.workers.unhealthy, 1, JSON.stringify(health));
    assert.equal(health.jobs.failed, 1, 'TIMED_OUT counts as failed');
    const listed = (await w.get('/v2/serverless/crashes/workers')).json;
    assert.equal(listed.summary.unhealthy, 1, JSON.stringify(listed));
    assert.equal(listed.workers[0].status, 'UNHEALTHY');
    const procs = await w.processes('crashes');
    assert.equal(procs[0]!.exitCode, 3);
    const logs = await w.logs('crashes', `?job=${id}`);
    assert.ok(logs.some((l) => l.text === `crashing worker: dying on ${id}`), 'its last words are in the job log');
    // The unhealthy worker is replaced once its linger (10 s of emulator time) is over: /retry runs the job again.
    await w.advance(11_000);
    assert.equal((await w.get('/v2/crashes/health')).json.workers.unhealthy, 0);
    assert.equal((await w.post(`/v2/crashes/retry/${id}`, undefined)).json.status, 'IN_QUEUE');
    assert.equal((await w.settle('crashes', id)).status, 'TIMED_OUT', 'a new worker took it (and died again)');
  });

  test('its heartbeat stops (process frozen with SIGSTOP): unhealthy after three missed pings, and killed', async () => {
    const [proc] = await waitFor('the warm worker to be ready', async () => {
      const p = await w.processes('hangs');
      return p.length === 1 && p[0]!.status === 'idle' && p[0]!.pid ? p : undefined;
    });
    const pgid = proc!.pid!;
    process.kill(-pgid, 'SIGSTOP');
    try {
      const sick = await waitFor('the worker to be unhealthy', async () => {
        const p = (await w.processes('hangs')).find((x) => x.id === proc!.id);
        return p?.status === 'unhealthy' ? p : undefined;
      }, 15_000, 250);
      assert.match(sick.unhealthyReason ?? '', /no heartbeat for \d+ s/);
      await waitFor('its processes to be gone', async () => (processesInGroup(pgid).length === 0 ? true : undefined), 10_000);
    } finally {
      try { process.kill(-pgid, 'SIGCONT'); } catch { /* gone */ }
    }
  });
});

describe('no worker process outlives the emulator', { skip }, () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    test(`stopped with ${signal}: every process of every worker's group is gone, the SDK's heartbeat child included`, async () => {
      const emu = await startWorkerEmulator([workerEndpoint('warm', 'sleeping_handler.py', { workersMin: 2, workersMax: 2 })]);
      const w = api(emu);
      let groups: number[] = [];
      try {
        const procs = await waitFor('two ready workers', async () => {
          const p = await w.processes('warm');
          return p.length === 2 && p.every((x) => x.status === 'idle' && x.pid) ? p : undefined;
        });
        // A running job too, whose handler blocks the SDK's event loop (time.sleep): that worker writes nothing
        // and notices nothing when the emulator goes, so only the watchdog can end it.
        const id = await w.submit('warm', { seconds: 60, blocking: true });
        await waitFor('the blocking handler to run', async () => ((await w.logs('warm', `?job=${id}`)).some((l) => l.text.startsWith('sleeping worker: 60')) ? true : undefined));
        groups = procs.map((p) => p.pid!);
        await waitFor('the heartbeat children', async () => (groups.every((g) => processesInGroup(g).length >= 2) ? true : undefined), 10_000);
      } finally {
        await emu.stop(signal);
      }
      assert.equal(groups.length, 2);
      await waitFor('every worker process to be gone', async () => (groups.every((g) => processesInGroup(g).length === 0) ? true : undefined), 10_000, 100);
    });
  }
});

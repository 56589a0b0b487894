// Issue 23's `batch.hostHeapGrowth10k`, measured where it matters: a batch of 1,000 and one of 10,000 small jobs
// (the emulator's echo endpoint, in its own process) run in the real extension host with the Batch panel open;
// the host's heap after each against before it, and the event loop's worst delay while they run. A measurement,
// not a check: it runs only when SERVERLESS_GPU_BENCH_OUT is set (`--grep @bench`), and writes its figures to
// `<that path>.batch.json`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { benchOutputOrSkip } from './support/benchOutput';
import { startEmulatorWith, type RunningEmulator } from './support/emulator';
import { activateExtension, eventually, workspaceFolder } from './support/extension';
import { watchHostStalls, writeBenchFigures } from './support/hostStalls';

const KEY = 'k-batch-heap';
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// The extension host runs without --expose-gc: the flag is set now and gc() taken from a fresh context, so the
// heap is read after a full collection (without it, heapUsed is mostly garbage not yet collected: +100 MB after a
// 1,000-job batch, +2 MB after the 10,000-job one that followed).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
// A diagnosis, never the product's (the host is every extension's): V8 flags for this host while the suite runs,
// e.g. `--no-parallel-scavenge`, to tell a collection's own work from its wait for helper threads (decisions.md).
const diagnosticFlags = process.env.SERVERLESS_GPU_BENCH_V8_FLAGS;
if (diagnosticFlags) v8.setFlagsFromString(diagnosticFlags);

/** The heap once the host is quiet and collected: the lowest of a few collections a second apart. */
async function settledHeap(): Promise<number> {
  let low = Infinity;
  for (let i = 0; i < 3; i++) {
    await delay(1000);
    gc();
    low = Math.min(low, process.memoryUsage().heapUsed);
  }
  return low;
}

suite('batch host heap @bench', () => {
  let api: JobRunnerApi;
  let emulator: RunningEmulator | undefined;
  let outPath: string;

  suiteSetup(async function () {
    outPath = benchOutputOrSkip(this, '.batch.json');
    const ext = await activateExtension();
    api = (ext.exports as { jobs: JobRunnerApi }).jobs;
    // The account's request quota lifted: the figure is the extension's memory, not the pace of a quota.
    emulator = await startEmulatorWith(ext.extensionPath, { rateLimits: { minute: 1_000_000, hour: 10_000_000, day: 100_000_000 }, users: [{ id: 'u', keys: [{ key: KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }], endpoints: [{ id: 'echo', kind: 'echo', queueMs: 0, executionMs: 5, workersMin: 32, workersMax: 32 }] }] });
    const client = api.createClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: KEY });
    api.useClientSource({ getClient: async () => client, secrets: () => [KEY] });
  });

  suiteTeardown(async () => {
    api?.useClientSource(undefined);
    await emulator?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('heap growth of a 10,000-job batch against a 1,000-job one; event-loop delay while they run', async function () {
    this.timeout(1_200_000);
    const figures: Record<string, number> = {};
    for (const n of [1000, 10_000]) {
      const file = path.join(workspaceFolder().uri.fsPath, `heap-${n}.jsonl`);
      fs.writeFileSync(file, Array.from({ length: n }, (_, i) => JSON.stringify({ text: `line ${i}` })).join('\n'));
      const before = await settledHeap();
      const stalls = watchHostStalls(`batch${n}`);
      await stalls.ready;
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const session = await api.batches.manager.start({ kind: 'jsonl', path: file }, vscode.Uri.file(file), { endpointId: 'echo', confirmed: true, concurrency: 64, guards: {} });
      if (!session) throw new Error('the batch did not start');
      await eventually(() => (session.finished && !session.running) || undefined, `the ${n}-job batch to end`, 1_100_000);
      const tookMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const seen = await stalls.stop();
      const after = await settledHeap();
      figures[`growth${n}`] = after - before;
      // The max is one stall; the 99th percentile says how the loop fared the rest of the time, and the longest
      // garbage collection whether that stall was one.
      figures[`eventLoopDelayMaxMs${n}`] = seen.eventLoopDelayMaxMs;
      figures[`eventLoopDelayP99Ms${n}`] = seen.eventLoopDelayP99Ms;
      figures[`eventLoopIntervalMax10Ms${n}`] = seen.eventLoopIntervalMax10Ms;
      figures[`gcPauseMaxMs${n}`] = seen.gcPauseMaxMs;
      figures[`gcTotalMs${n}`] = seen.gcTotalMs;
      figures[`heapUsedAtGcMaxBytes${n}`] = seen.heapUsedAtGcMaxBytes;
      figures[`gcMaxThreadRunMs${n}`] = seen.gcMaxThreadRunMs;
      figures[`gcMaxThreadRunQueueMs${n}`] = seen.gcMaxThreadRunQueueMs;
      figures[`gcMaxSpanMs${n}`] = seen.gcMaxSpanMs;
      figures[`threadRunQueueTotalMs${n}`] = seen.threadRunQueueTotalMs;
      figures[`longestLateMs${n}`] = seen.longestLateMs;
      figures[`longestLateEndUs${n}`] = seen.longestLateEndUs;
      // How far into the batch the longest lateness ended (the batch's start, its end, or its steady state).
      figures[`longestLateAtMs${n}`] = (seen.longestLateEndUs - seen.startUs) / 1000;
      figures[`longestLateThreadRunMs${n}`] = seen.longestLateThreadRunMs;
      figures[`longestLateThreadRunQueueMs${n}`] = seen.longestLateThreadRunQueueMs;
      figures[`tookMs${n}`] = tookMs;
      // The host process's CPU (all its threads) while the batch ran: what the batch cost the shared host.
      figures[`hostCpuMs${n}`] = (cpu.user + cpu.system) / 1000;
      console.log(`batch of ${n}: ${(tookMs / 1000).toFixed(1)} s, host CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, heap ${(before / 1e6).toFixed(1)} -> ${(after / 1e6).toFixed(1)} MB, event-loop delay max ${seen.eventLoopDelayMaxMs.toFixed(1)} ms (a 10 ms timer's longest interval ${seen.eventLoopIntervalMax10Ms.toFixed(1)} ms; longest lateness ${seen.longestLateMs.toFixed(1)} ms, ending ${((seen.longestLateEndUs - seen.startUs) / 1e6).toFixed(1)} s in, the host's thread ran ${seen.longestLateThreadRunMs.toFixed(1)} ms of it and waited for a core ${seen.longestLateThreadRunQueueMs.toFixed(1)} ms), longest gc ${seen.gcPauseMaxMs.toFixed(1)} ms (${seen.gcPauseMaxKind}; over ${seen.gcMaxSpanMs.toFixed(0)} ms around it the host's thread ran ${seen.gcMaxThreadRunMs.toFixed(1)} ms and waited for a core ${seen.gcMaxThreadRunQueueMs.toFixed(1)} ms); waited for a core ${seen.threadRunQueueTotalMs.toFixed(0)} ms in all`);
    }
    figures.ratio = figures.growth10000! / Math.max(1, figures.growth1000!);
    writeBenchFigures(outPath, figures);
  });
});

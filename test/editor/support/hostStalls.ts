// What held the extension host during a measured stretch of an @bench suite (issue 30): the event loop's worst
// delay and its 99th percentile beside the longest garbage collection (a PerformanceObserver of `gc` entries, inside
// the host), so a regression of the one names its cause in the other. With SERVERLESS_GPU_BENCH_PROFILE=<folder>,
// the same stretch is also profiled through the inspector: its CPU profile (<name>.cpuprofile, open it in Chrome
// DevTools or VS Code) and a sampling heap profile of what it allocated (<name>.heapprofile), for
// scripts/profile-top.mjs.
//
// The delay is read with a 1 ms resolution. perf_hooks.monitorEventLoopDelay records the time between two runs of
// its timer, not how late the second was (nodejs/node#62935 "samples had an implicit floor of resolution ms"): at
// the default 10 ms an idle host reads 10 ms, and a stall of S ms reads anything from S to S + 10. At 1 ms a stall
// reads S to S + 1. The 10 ms reading these figures had before is kept beside it (`eventLoopIntervalMax10Ms`),
// so the runs before and after can be compared.
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as path from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const PROFILE_ENV = 'SERVERLESS_GPU_BENCH_PROFILE';

export interface HostStalls {
  /** The longest stretch the event loop ran nothing else (to within 1 ms), and its 99th percentile. */
  eventLoopDelayMaxMs: number;
  eventLoopDelayP99Ms: number;
  /** The same read as these figures were before (a 10 ms timer's longest interval: the stall plus up to 10 ms). */
  eventLoopIntervalMax10Ms: number;
  /** The longest garbage collection, and what kind it was (major: mark-compact; minor: scavenge). */
  gcPauseMaxMs: number;
  gcPauseMaxKind: string;
  gcCount: number;
  gcTotalMs: number;
  /** The heap at the end of the longest collection's stretch (process.memoryUsage when it was reported). */
  heapUsedAtGcMaxBytes: number;
  /**
   * Where the host's main thread was during the longest collection, from the kernel's account of it
   * (/proc/thread-self/schedstat, read every 5 ms and when a collection is reported; Linux only, else NaN): on a
   * core, running (the collection's own work on this thread), or ready to run and waiting for a core (the machine
   * had none to give). The rest of the stretch it slept: on what, schedstat cannot say (V8's helper threads that share
   * the collection's work are the lead, docs/decisions.md). `gcMaxSpanMs` is the stretch these were read over: the collection and a little around it.
   */
  gcMaxThreadRunMs: number;
  gcMaxThreadRunQueueMs: number;
  gcMaxSpanMs: number;
  /** The main thread's time waiting for a core over the whole stretch watched. */
  threadRunQueueTotalMs: number;
  /**
   * The longest a 5 ms timer was late, and when that lateness ended, on the monotonic clock in µs (the clock of a
   * .cpuprofile's sample times): `node scripts/profile-top.mjs FILE --at <longestLateEndUs> --span <ms>` names what
   * ran in it. `startUs`: when the watch began, on the same clock.
   */
  longestLateMs: number;
  longestLateEndUs: number;
  startUs: number;
  /**
   * The main thread over that late timer's interval, as over the longest collection: on a core (a task of the
   * host's ran, or a collection), waiting for one (the machine had none), the rest asleep. NaN off Linux.
   */
  longestLateThreadRunMs: number;
  longestLateThreadRunQueueMs: number;
}

/** The calling thread's time on a core and waiting for one, in ns (Linux's schedstat); undefined elsewhere. */
function threadSchedule(): { run: number; queued: number; at: number } | undefined {
  try {
    const [run, queued] = fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { run: run!, queued: queued!, at: performance.now() };
  } catch {
    return undefined;
  }
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/**
 * Starts watching; `stop()` ends it and says what was seen (and writes the profiles when asked for). `ready`
 * resolves once the profiler runs (at once without one): a stretch begun before it would start unprofiled.
 */
export function watchHostStalls(name: string): { ready: Promise<void>; stop(): Promise<HostStalls> } {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const loop10 = monitorEventLoopDelay({ resolution: 10 });
  loop10.enable();
  let gcMax = 0;
  let gcKind = '';
  let gcCount = 0;
  let gcTotal = 0;
  let heapAtMax = 0;
  const first = threadSchedule();
  let last = first;
  let atMax = { run: NaN, queued: NaN, span: NaN };
  let lateMax = 0;
  let lateEndUs = 0;
  let atLate = { run: NaN, queued: NaN };
  let tick = process.hrtime.bigint();
  let tickSchedule = first;
  const startUs = Number(tick / 1000n);
  // One timer for both: the thread's schedule every 5 ms, and how late the timer itself ran.
  const sampler = setInterval(() => {
    last = threadSchedule();
    const now = process.hrtime.bigint();
    const late = Number(now - tick) / 1e6 - 5;
    tick = now;
    if (late > lateMax) {
      lateMax = late;
      lateEndUs = Number(now / 1000n);
      atLate = last && tickSchedule ? { run: (last.run - tickSchedule.run) / 1e6, queued: (last.queued - tickSchedule.queued) / 1e6 } : { run: NaN, queued: NaN };
    }
    tickSchedule = last;
  }, 5);
  const observer = new PerformanceObserver((list) => {
    const now = threadSchedule();
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail?: { kind?: number } }>) {
      gcCount++;
      gcTotal += entry.duration;
      if (entry.duration > gcMax) {
        gcMax = entry.duration;
        gcKind = GC_KINDS[entry.detail?.kind ?? -1] ?? String(entry.detail?.kind);
        heapAtMax = process.memoryUsage().heapUsed;
        if (now && last) atMax = { run: (now.run - last.run) / 1e6, queued: (now.queued - last.queued) / 1e6, span: now.at - last.at };
      }
    }
    last = now;
  });
  observer.observe({ entryTypes: ['gc'] });
  const profiler = startProfiles(name);
  return {
    ready: profiler?.ready ?? Promise.resolve(),
    async stop() {
      loop.disable();
      loop10.disable();
      observer.disconnect();
      clearInterval(sampler);
      const end = threadSchedule();
      await profiler?.stop();
      return {
        eventLoopDelayMaxMs: loop.max / 1e6,
        eventLoopDelayP99Ms: loop.percentile(99) / 1e6,
        eventLoopIntervalMax10Ms: loop10.max / 1e6,
        gcPauseMaxMs: gcMax,
        gcPauseMaxKind: gcKind,
        gcCount,
        gcTotalMs: gcTotal,
        heapUsedAtGcMaxBytes: heapAtMax,
        gcMaxThreadRunMs: atMax.run,
        gcMaxThreadRunQueueMs: atMax.queued,
        gcMaxSpanMs: atMax.span,
        threadRunQueueTotalMs: first && end ? (end.queued - first.queued) / 1e6 : NaN,
        longestLateMs: lateMax,
        longestLateEndUs: lateEndUs,
        startUs,
        longestLateThreadRunMs: atLate.run,
        longestLateThreadRunQueueMs: atLate.queued,
      };
    },
  };
}

/** Writes an @bench suite's figures where test/bench/editorHost.bench.ts reads them. */
export function writeBenchFigures(outPath: string, figures: object): void {
  fs.writeFileSync(outPath, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`bench figures (${path.basename(outPath)}): ${JSON.stringify(figures)}`);
}

function startProfiles(name: string): { ready: Promise<void>; stop(): Promise<void> } | undefined {
  const dir = process.env[PROFILE_ENV];
  if (!dir) return undefined;
  fs.mkdirSync(dir, { recursive: true });
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));
  const started = (async () => {
    await post('Profiler.enable');
    // 1 ms between samples: a 50 ms task is ~50 samples, enough to name what ran.
    await post('Profiler.setSamplingInterval', { interval: 1000 });
    await post('Profiler.start');
    await post('HeapProfiler.enable');
    // Collected objects too: what the collections had to collect is the question, not only what survived.
    await post('HeapProfiler.startSampling', { samplingInterval: 32 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  })();
  return {
    ready: started,
    async stop() {
      await started;
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      const { profile: heap } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
      fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
      fs.writeFileSync(path.join(dir, `${name}.heapprofile`), JSON.stringify(heap));
      session.disconnect();
    },
  };
}

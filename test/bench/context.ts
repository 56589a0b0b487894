// The contract between `npm run bench` (test/bench/index.ts) and each benchmark.
//
// A benchmark is a file `test/bench/<topic>.bench.ts` whose default export is
//     export default async function (ctx: BenchContext): Promise<void>
// It measures what it wants and calls `ctx.report(...)` once per figure. Rules:
// - Name figures `<topic>.<what>` (e.g. "billing.pipeline", "emulator.requestsPerSecond"); names are unique
//   across all benches and become the keys of the `--json FILE` output.
// - Give a figure a baseline measured in the SAME run whenever one makes sense (JSON.parse alone, fixed-interval
//   polling...): `report` then records ratio = value / baseline.value. Absolute times on a shared 2-core
//   machine mean little; ratios survive noise much better. `compare` interleaves baseline and candidate runs
//   so that a burst of load elsewhere hits both.
// - Clean up what you start (servers, child processes, temp folders) before returning, even on failure.
// - Benches run one after another in one process, in file-name order; `--only <substring>` picks files.
// - No assertions: a bench reports. Targets are judged by people reading the table (or by a test on the JSON).
// - `npm run bench` runs node with --expose-gc: timeIt/compare collect garbage before every timed run (outside
//   the timing), so one run's garbage is not charged to the next, which matters when runs allocate 100s of MB.
import { performance } from 'node:perf_hooks';

export interface Baseline {
  /** The baseline's own figure name (report it too), e.g. "billing.jsonParse". */
  name: string;
  value: number;
}

export interface Figure {
  value: number;
  unit: string;
  baseline?: Baseline;
  /** value / baseline.value */
  ratio?: number;
}

export interface TimeOptions {
  /** Exactly this many timed runs (after warm-up). */
  iterations?: number;
  /** Otherwise: keep running until this much time is spent (default 1000 ms), at least 3 runs, at most 1000. */
  minMs?: number;
  /** Untimed runs first, so the JIT has settled (default 1). */
  warmup?: number;
}

export interface Timing {
  medianMs: number;
  minMs: number;
  maxMs: number;
  iterations: number;
}

export interface BenchContext {
  /** Records one figure. With a baseline, the ratio value / baseline.value is computed and shown. */
  report(name: string, value: number, unit: string, baseline?: Baseline): void;
  /** Times `fn` (sync or async) and returns the median of the runs. */
  timeIt(fn: () => unknown, options?: TimeOptions): Promise<Timing>;
  /** Times `baseline` and `candidate` alternately (same number of runs), for a fair ratio under noise. */
  compare(baseline: () => unknown, candidate: () => unknown, options?: TimeOptions): Promise<{ baseline: Timing; candidate: Timing }>;
  /** The highest resident set size of this process so far, in bytes. */
  peakRss(): number;
  /** A line of progress on stderr (the table goes to stdout). */
  log(message: string): void;
  /** The repository root (absolute). */
  readonly root: string;
}

export function createBenchContext(root: string, figures: Map<string, Figure>): BenchContext {
  return {
    root,
    report(name, value, unit, baseline) {
      if (figures.has(name)) throw new Error(`figure ${name} reported twice`);
      const figure: Figure = { value, unit };
      if (baseline) {
        figure.baseline = baseline;
        if (baseline.value !== 0) figure.ratio = value / baseline.value;
      }
      figures.set(name, figure);
    },
    timeIt: (fn, options) => timeRuns([fn], options).then(([t]) => t!),
    compare: (baseline, candidate, options) =>
      timeRuns([baseline, candidate], options).then(([b, c]) => ({ baseline: b!, candidate: c! })),
    peakRss: () => process.resourceUsage().maxRSS * 1024,
    log: (message) => process.stderr.write(`  ${message}\n`),
  };
}

/** global.gc when node runs with --expose-gc (npm run bench does), else undefined. */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

async function timeRuns(fns: Array<() => unknown>, options: TimeOptions = {}): Promise<Timing[]> {
  const warmup = options.warmup ?? 1;
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const samples: number[][] = fns.map(() => []);
  const started = performance.now();
  const minMs = options.minMs ?? 1000;
  for (let run = 0; ; run++) {
    if (options.iterations !== undefined ? run >= options.iterations : run >= 3 && (performance.now() - started >= minMs || run >= 1000)) break;
    for (let k = 0; k < fns.length; k++) {
      collectGarbage?.();
      const t0 = performance.now();
      await fns[k]!();
      samples[k]!.push(performance.now() - t0);
    }
  }
  return samples.map((s) => {
    const sorted = [...s].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const medianMs = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    return { medianMs, minMs: sorted[0]!, maxMs: sorted[sorted.length - 1]!, iterations: sorted.length };
  });
}

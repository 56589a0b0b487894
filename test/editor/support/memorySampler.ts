// The extension host's memory sampled while a job runs, for the @bench editor suites (memory.bench.test.ts,
// mixedOutputs.bench.test.ts): a quiet baseline before the job, then every sample from the command on.

export const SAMPLE_EVERY_MS = 20;
export const QUIET_MS = 1_000;

export type MemoryKey = 'rss' | 'heapUsed' | 'external' | 'arrayBuffers';
export const KEYS: MemoryKey[] = ['rss', 'heapUsed', 'external', 'arrayBuffers'];
export type Memory = Record<MemoryKey, number>;

/** process.memoryUsage() of this process (the extension host) every SAMPLE_EVERY_MS, into the current phase. */
export class MemorySampler {
  readonly baseline: Memory[] = [];
  readonly during: Memory[] = [];
  private phase: Memory[] = this.baseline;
  private readonly timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);

  sample(): void {
    const m = process.memoryUsage();
    this.phase.push({ rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers });
  }

  startJob(): void {
    this.sample();
    this.phase = this.during;
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

export function each(fn: (values: number[]) => number, samples: Memory[]): Memory {
  return Object.fromEntries(KEYS.map((k) => [k, fn(samples.map((s) => s[k]))])) as Memory;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

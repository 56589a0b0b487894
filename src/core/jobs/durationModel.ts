// What the client has learned about how long jobs take, per endpoint: the queue wait (`delayTime`) and the
// processing time (`executionTime`) of finished jobs (SPEC 2.7). Adaptive polling (pollPlan.ts) uses it to
// ask for a job's status right when it is likely to have finished, instead of on a fixed beat. It is only a
// hint: a wrong estimate costs a little lag or a few requests, never a wrong answer.

const MAX_SAMPLES = 20;

export interface DurationEstimate {
  /** Typical queue wait, ms. */
  queueMs: number;
  /** Typical processing time, ms. */
  executionMs: number;
  /** How far a job's processing time may plausibly be from `executionMs`, ms. */
  executionSpreadMs: number;
  /** How far a job's queue wait may plausibly be from `queueMs`, ms. */
  queueSpreadMs: number;
  /** Jobs of this endpoint behind the estimate. */
  samples: number;
}

interface Samples {
  queue: number[];
  execution: number[];
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The spread we plan around: the largest distance of a recent sample from the median, plus a margin for
 * what we have not seen yet. One sample says little, so it gets a wide margin.
 */
function spread(xs: readonly number[], center: number): number {
  if (xs.length === 1) return 0.25 * center + 100;
  const widest = Math.max(...xs.map((x) => Math.abs(x - center)));
  // The margin for the unseen shrinks as the samples agree for longer.
  return widest + (0.1 * center + 40) / xs.length;
}

function estimateOf(s: Samples): DurationEstimate {
  const executionMs = median(s.execution);
  const queueMs = s.queue.length > 0 ? median(s.queue) : 0;
  return {
    executionMs,
    queueMs,
    executionSpreadMs: spread(s.execution, executionMs),
    queueSpreadMs: s.queue.length > 0 ? spread(s.queue, queueMs) : 0,
    samples: s.execution.length,
  };
}

export class JobDurationModel {
  private readonly byKey = new Map<string, Samples>();

  /** Learns from a finished job. Missing or nonsensical times are ignored. */
  record(key: string, delayTime: unknown, executionTime: unknown): void {
    if (typeof executionTime !== 'number' || !Number.isFinite(executionTime) || executionTime < 0) return;
    const samples = this.byKey.get(key) ?? { queue: [], execution: [] };
    samples.execution.push(executionTime);
    if (typeof delayTime === 'number' && Number.isFinite(delayTime) && delayTime >= 0) samples.queue.push(delayTime);
    if (samples.execution.length > MAX_SAMPLES) samples.execution.shift();
    if (samples.queue.length > MAX_SAMPLES) samples.queue.shift();
    this.byKey.set(key, samples);
  }

  /**
   * The estimate for `key`'s endpoint, or undefined before it has finished a job. Other endpoints are not
   * pooled in: durations differ by endpoint far more than within one, and a wrong estimate costs more than
   * none (a job predicted to end early is then polled as "overdue", quickly).
   */
  estimate(key: string): DurationEstimate | undefined {
    const own = this.byKey.get(key);
    return own && own.execution.length > 0 ? estimateOf(own) : undefined;
  }

  /** Plain data, so the editor can keep what was learned across sessions (e.g. in globalState). */
  toJSON(): Record<string, Samples> {
    return Object.fromEntries([...this.byKey].map(([k, v]) => [k, { queue: [...v.queue], execution: [...v.execution] }]));
  }

  /** Restores `toJSON()` output; anything malformed is skipped. */
  static fromJSON(data: unknown): JobDurationModel {
    const model = new JobDurationModel();
    if (typeof data !== 'object' || data === null) return model;
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      const v = value as Partial<Samples> | null;
      const nums = (xs: unknown): number[] => (Array.isArray(xs) ? xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0).slice(-MAX_SAMPLES) : []);
      const execution = nums(v?.execution);
      if (execution.length > 0) model.byKey.set(key, { execution, queue: nums(v?.queue) });
    }
    return model;
  }
}

/** The model shared by every wait of this process, so each job of an endpoint makes the next one's polling better. */
export const sharedDurationModel = new JobDurationModel();

/** The key of an endpoint in a duration model: the same endpoint id on two services is two endpoints. */
export function durationKey(jobsBaseUrl: string, endpointId: string): string {
  return `${jobsBaseUrl.replace(/\/+$/, '')} ${endpointId}`;
}

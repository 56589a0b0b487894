// What GET /stream/<job> hands out (docs "Operation reference" /stream; runpod-sdk's stream(), which reads
// `{status, stream: [...]}` until the status is terminal; runpod-python, which yields each item's `output`):
// the batches produced since the previous call, each as `{output: batch}`. An `llm` job produces a batch every
// 100 ms of emulator time while it runs (a cancelled one keeps what it wrote). A job of any other kind is not a
// streaming worker: it produces one item, its whole output, when it completes.
import type { EmulatedJob, JobView } from './job';
import { batchesAt, llmBatch, planLlm, TICK_MS } from '../workers/simulated/llm';

export interface StreamSlice {
  batches: Array<{ output: unknown }>;
  /** The new cursor: batches handed out so far. */
  cursor: number;
}

/** The batches of `job` not yet handed out, at emulator time `nowMs`. */
export function streamBatches(job: EmulatedJob, view: JobView, nowMs: number): StreamSlice {
  // Kind `worker`: what the handler itself streamed (a generator handler's yields), as the worker posted it.
  if (job.endpoint.kind === 'worker') {
    const all = job.streamed ?? [];
    return { batches: all.slice(job.streamCursor), cursor: all.length };
  }
  if (job.endpoint.kind !== 'llm') {
    if (view.status !== 'COMPLETED' || job.streamCursor > 0) return { batches: [], cursor: job.streamCursor };
    return { batches: [{ output: view.output }], cursor: 1 };
  }
  const plan = planLlm(job.input);
  if (!plan.ok || job.startsAtMs === undefined) return { batches: [], cursor: job.streamCursor };
  const until = job.phase === 'ended' ? job.endsAtMs! : nowMs;
  const available = batchesAt(plan.plan, until - job.startsAtMs);
  const batches = [];
  for (let k = job.streamCursor; k < available; k++) batches.push({ output: llmBatch(plan.plan, k) });
  return { batches, cursor: Math.max(job.streamCursor, available) };
}

/** When the next batch of a running `llm` job appears (for a held /stream). */
export function nextBatchAt(job: EmulatedJob): number | undefined {
  // A worker's chunk arrives when it arrives (the runtime wakes waiters): "now" once there is one not handed out.
  if (job.endpoint.kind === 'worker') return (job.streamed?.length ?? 0) > job.streamCursor ? job.startsAtMs : undefined;
  if (job.endpoint.kind !== 'llm' || job.phase !== 'running' || job.startsAtMs === undefined) return undefined;
  return job.startsAtMs + (job.streamCursor + 1) * TICK_MS;
}

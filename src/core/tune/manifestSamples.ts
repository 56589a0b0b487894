// The jobs of a batch manifest (docs/batches.md "Manifest") as Tune samples (issue 29: "the Jobs history and the
// batch manifests"): the header names the endpoint, the last `job` line of each index is its row. Parsed in
// slices with a yield between them, so a 10,000-job manifest never holds the extension host's thread for long.
import type { JobSample } from './traffic';

const SLICE = 1000;

/** Rows of `text` (a batch.jsonl) with their job id; a line that is not JSON is skipped (the writer may be mid-line). */
export async function manifestSamples(text: string, yieldNow: () => Promise<void> = () => new Promise((r) => setImmediate(r))): Promise<Array<JobSample & { jobId?: string }>> {
  const lines = text.split('\n');
  let endpointId: string | undefined;
  const rows = new Map<number, JobSample & { jobId?: string }>();
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % SLICE === 0) await yieldNow();
    const line = lines[i]!.trim();
    if (!line) continue;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (v.type === 'batch' && typeof v.endpointId === 'string') endpointId = v.endpointId;
    else if (v.type === 'job' && endpointId && typeof v.index === 'number' && typeof v.submittedAt === 'number') {
      rows.set(v.index, {
        endpointId, submittedAt: v.submittedAt,
        ...(typeof v.delayTime === 'number' ? { delayTime: v.delayTime } : {}),
        ...(typeof v.executionTime === 'number' ? { executionTime: v.executionTime } : {}),
        ...(typeof v.jobId === 'string' ? { jobId: v.jobId } : {}),
      });
    }
  }
  return [...rows.values()];
}

/** The history's jobs and the manifests' rows, each job once (a job in both is kept as the history has it). */
export function mergeSamples(history: ReadonlyArray<JobSample & { jobId?: string }>, manifests: ReadonlyArray<JobSample & { jobId?: string }>): JobSample[] {
  const seen = new Set(history.map((j) => j.jobId).filter((id): id is string => id !== undefined));
  return [...history, ...manifests.filter((m) => m.jobId === undefined || !seen.has(m.jobId))];
}

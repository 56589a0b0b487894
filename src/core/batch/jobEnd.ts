// What a batch row becomes when its job ends: the service's times, the cost (reported or estimated, with how),
// the outputs the editor saved for a COMPLETED job, and the error in words. Failed statuses are the ones the
// failure streak counts; REJECTED is ours (the service refused the input, no job exists).
import type { Job } from '../schemas';
import type { BatchItem } from './batchInputs';
import { jobCost, type PricePerSecond } from '../cost/jobCost';
import { savedCost } from '../cost/costText';
import type { JobRow } from './manifestFormat';

export const FAILED_STATUSES: ReadonlySet<string> = new Set(['FAILED', 'TIMED_OUT', 'REJECTED']);

/** What the editor's saver kept of a completed job: its files, and the first line of its text answer if any. */
export interface SavedBatchOutputs {
  files: string[];
  firstLine?: string;
}

export interface JobEnd {
  change: Partial<JobRow>;
  /** What it cost (0 when unknown), for the spend guard. */
  usd: number;
  failed: boolean;
}

/** A worker's error is usually a string, sometimes an object: kept readable as JSON. */
function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null || error === '') return undefined;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

export async function jobEnd(
  job: Job,
  item: BatchItem,
  endedAt: number,
  price: PricePerSecond | undefined,
  saveOutputs: ((item: BatchItem, job: Job) => Promise<SavedBatchOutputs>) | undefined,
): Promise<JobEnd> {
  const cost = jobCost(job, price);
  let error = errorText(job.error);
  let outputs: string[] | undefined;
  let firstLine: string | undefined;
  if (job.status === 'COMPLETED' && saveOutputs) {
    try {
      ({ files: outputs, firstLine } = await saveOutputs(item, job));
    } catch (e) {
      error = `The outputs were not saved: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  const usd = cost.kind === 'unknown' ? undefined : cost.usd;
  return {
    change: { phase: 'ended', status: job.status, delayTime: job.delayTime, executionTime: job.executionTime, endedAt, cost: savedCost(cost), outputs, firstLine, error },
    usd: usd ?? 0,
    failed: FAILED_STATUSES.has(job.status),
  };
}

// What a batch runner is given and what it tells (batchRunner.ts): its options and its events.
import type { Clock } from '../http/clock';
import type { Job } from '../schemas';
import type { ServiceClient } from '../service';
import type { WaitOptions } from '../jobs/waitForJob';
import type { PricePerSecond } from '../cost/jobCost';
import type { BatchItem } from './batchInputs';
import type { PauseReason, WaitReason } from './batchGate';
import type { GuardLimits } from './guards';
import type { SavedBatchOutputs } from './jobEnd';
import type { ManifestState, ManifestWriter } from './manifestFile';
import type { JobRow, ManifestHeader, RowPhase } from './manifestFormat';

export type BatchEvent =
  | { kind: 'row'; row: JobRow }
  | { kind: 'wait'; reason: WaitReason; until: number; message: string }
  /** `id`: the pause's own number, so a question asked later can check it still applies (BatchLife.mayAsk). */
  | { kind: 'paused'; reason: PauseReason; message: string; id: number }
  | { kind: 'resumed' }
  | { kind: 'idle'; counts: Record<RowPhase, number> };

export interface BatchRunnerOptions {
  client: ServiceClient;
  endpointId: string;
  /** Every input of the batch, by index (a resume expands the same sources again). */
  items: readonly BatchItem[];
  manifest: ManifestWriter;
  /** Written first for a new batch; a resumed one has it in `prior`. */
  header: ManifestHeader;
  /** What the manifest said when the batch is resumed. */
  prior?: ManifestState;
  concurrency: number;
  price?: PricePerSecond;
  guards?: GuardLimits;
  clock?: Clock;
  onEvent?: (e: BatchEvent) => void;
  /** Saves a COMPLETED job's outputs (the editor's saveOutputs, under the batch folder): the files, the first line. */
  saveOutputs?: (item: BatchItem, job: Job) => Promise<SavedBatchOutputs>;
  wait?: Pick<WaitOptions, 'durations' | 'routeSupport' | 'statusSyncWaitMs'>;
  /** Between two follows of a job while the service does not answer (default 2 s). */
  retryMs?: number;
  /** Between two probes before sending again while the service is down (default SERVICE_DOWN_PROBE_MS). */
  probeMs?: number;
  /** Between two reads of /health while jobs are queued (default QUEUE_WATCH_MS; 0: no watch). */
  queueWatchMs?: number;
}

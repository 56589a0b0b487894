// The batch manifest's lines (docs/batches.md "Manifest"): JSONL in the batch's folder, one line per change,
// appended as it happens, so a crash loses at most the line being written. The first line describes the batch;
// each `job` line is the whole row of one job as it now is (the last line of an index wins, so a reader needs
// no replay logic); `event` lines say what happened to the batch (paused and why, resumed, cancelled).
import * as z from 'zod/mini';
import { SavedCost } from '../cost/costText';

export const MANIFEST_VERSION = 1;
export const MANIFEST_FILE = 'batch.jsonl';

/**
 * Where a job is in the batch, beside the service's own status:
 * - pending: not sent yet;
 * - submitting: /run was sent (the line is written BEFORE sending), no answer read yet;
 * - unknown: /run was sent and its answer lost: the job may or may not exist, it is NOT resent by itself;
 * - active: the service accepted it (jobId known), being followed;
 * - ended: its terminal status is known;
 * - skipped: cancelled before it was sent;
 * - lost: the service forgot it (past retention) before its end was seen.
 */
export const ROW_PHASES = ['pending', 'submitting', 'unknown', 'active', 'ended', 'skipped', 'lost'] as const;
export type RowPhase = (typeof ROW_PHASES)[number];

export const ManifestInputRef = z.looseObject({
  file: z.string(),
  line: z.optional(z.int()),
  sweep: z.optional(z.record(z.string(), z.unknown())),
});

/** A job's cost as every view keeps it (the single job's record and job.json too). */
export const ManifestCost = SavedCost;

/** Where the inputs came from, as `loadBatchInputs` takes it (batchInputs.ts), so a resume expands them again. */
export const ManifestSource = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('folder'), path: z.string() }),
  z.looseObject({ kind: z.literal('files'), paths: z.array(z.string()) }),
  z.looseObject({ kind: z.literal('jsonl'), path: z.string() }),
]);

export const ManifestHeader = z.looseObject({
  type: z.literal('batch'),
  version: z.int(),
  batchId: z.string(),
  endpointId: z.string(),
  /** The jobs base URL the jobs were sent to: a resume against another service would follow ids it never saw. */
  service: z.string(),
  createdAt: z.string(),
  jobs: z.int().check(z.gte(0)),
  /** Where the inputs came from: expanded again on resume, and matched to rows by index and digest. */
  source: z.optional(ManifestSource),
  /** How many bad inputs the user chose to skip when the batch began (the rest were renumbered): a resume skips them again. */
  skippedProblems: z.optional(z.int().check(z.gte(0))),
});
export type ManifestHeader = z.infer<typeof ManifestHeader>;

export const JobRow = z.looseObject({
  type: z.literal('job'),
  index: z.int().check(z.gte(0)),
  ref: ManifestInputRef,
  digest: z.string(),
  phase: z.enum(ROW_PHASES),
  jobId: z.optional(z.string()),
  /** Ids this row had before a resubmission (Retry Failed outside the retention window). */
  previousJobIds: z.optional(z.array(z.string())),
  status: z.optional(z.string()),
  /** Epoch ms. */
  submittedAt: z.optional(z.number()),
  endedAt: z.optional(z.number()),
  delayTime: z.optional(z.number()),
  executionTime: z.optional(z.number()),
  /** The cost of the last attempt (a Retry Failed starts a new one). */
  cost: z.optional(ManifestCost),
  /** What the earlier attempts cost (USD, each billed): a job's cost is the sum of its attempts (rowCost.ts). */
  earlierAttemptsUsd: z.optional(z.number()),
  outputs: z.optional(z.array(z.string())),
  /** The first line of its text answer (at most 200 characters): the table shows it after a resume too. */
  firstLine: z.optional(z.string()),
  error: z.optional(z.string()),
  /** How many times the service was asked to retry this job (/retry). */
  retries: z.optional(z.int()),
  /** When this line was written (epoch ms). */
  at: z.number(),
});
export type JobRow = z.infer<typeof JobRow>;

export const BatchEventLine = z.looseObject({
  type: z.literal('event'),
  at: z.number(),
  event: z.enum(['paused', 'resumed', 'cancelled', 'finished']),
  reason: z.optional(z.string()),
});
export type BatchEventLine = z.infer<typeof BatchEventLine>;

export const ManifestLine = z.discriminatedUnion('type', [ManifestHeader, JobRow, BatchEventLine]);
export type ManifestLine = z.infer<typeof ManifestLine>;

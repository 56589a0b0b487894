// One job as the extension remembers it: what was sent, where, what the service said, and where its outputs
// were saved. Persisted in the history (workspaceState) and in the job's job.json, so it is read back with
// zod: a record written by an older version, or a hand-edited file, must not crash the history.
import * as z from 'zod/mini';
import { zCatch } from '../core/zodCatch';
import { SavedCost } from '../core/cost/costText';

// The job's states and their transitions are the core's job life (src/core/jobs/jobLife.ts).
export { isFinished, LocalStatus } from '../core/jobs/jobLife';

export const SavedOutput = z.looseObject({
  /** `transcript`: a speech-to-text answer; `notice`: words about the output as a whole (empty, near the size limit). */
  kind: z.enum(['image', 'video', 'audio', 'json', 'text', 'transcript', 'notice', 'rejected']),
  /** Where in the output it came from ("output[0].image_url"). */
  field: z._default(z.string(), ''),
  /** The saved file, as a URI string, when there is one. */
  file: z.optional(z.string()),
  seed: z.optional(z.number()),
  width: z.optional(z.number()),
  height: z.optional(z.number()),
  /** For a media URL that was not downloaded: the URL, shown as text only. */
  url: z.optional(z.string()),
  /** Why a media URL was not saved, or why a part was rejected. */
  note: z.optional(z.string()),
  /** A JSON part as text, or a model's answer (kind text, saved as output.txt), or a transcript's words. */
  text: z.optional(z.string()),
  /** A transcript's timed segments (seconds). */
  segments: zCatch(z.optional(z.array(z.object({ start: z.number(), end: z.number(), text: z.string() }))), undefined),
  language: z.optional(z.string()),
});
export type SavedOutput = z.infer<typeof SavedOutput>;

/** What is known of a job's run, kept in the record and shown by the panel (one definition for both). */
export const jobFacts = {
  submittedAt: z.number(),
  /** When the extension first saw the job leave the queue / finish (epoch ms). */
  startedAt: z.optional(z.number()),
  finishedAt: z.optional(z.number()),
  delayTime: z.optional(z.number()),
  executionTime: z.optional(z.number()),
  workerId: z.optional(z.string()),
  /** The `cost` a public endpoint's output reports (USD), as it came. */
  cost: z.optional(z.number()),
  /** What the job cost, reported or estimated with how (the cost line, as a batch row says it); unknown is kept too. */
  jobCost: zCatch(z.optional(SavedCost), undefined),
  /** The service's error text of a failed job, or what went wrong on our side. */
  error: z.optional(z.string()),
  /** While the job is IN_QUEUE: why it waits, from the endpoint's health (cold start, all busy...). */
  queueReason: z.optional(z.string()),
  /** The text a streaming worker has written so far (/stream), until the final output replaces it. */
  streamText: z.optional(z.string()),
  /** While the job runs: the worker's latest progress update (`output` of an IN_PROGRESS job). */
  progress: z.optional(z.string()),
  /** 1 for the first run, 2 after the first retry… (a retry is a new attempt of the same job). */
  attempt: z.optional(z.int().check(z.gte(1))),
};

export const JobRecord = z.looseObject({
  /** Ours, unique per run (the job id is unknown until the service answers, and ids may repeat across endpoints). */
  key: z.string().check(z.minLength(1)),
  endpointId: z.string().check(z.minLength(1)),
  jobId: z.optional(z.string()),
  mode: zCatch(z.enum(['async', 'sync']), 'async'),
  /** The input file's URI, when the job was started from one. */
  inputFile: z.optional(z.string()),
  input: zCatch(z.record(z.string(), z.unknown()), {}),
  /** The request options sent beside the input (webhook, policy, s3Config), as the input file gave them. */
  request: zCatch(z.optional(z.record(z.string(), z.unknown())), undefined),
  status: z.string().check(z.minLength(1)),
  ...jobFacts,
  note: z.optional(z.string()),
  /** The job's outputs folder (URI string): `<outputsDirectory>/<endpoint>/<job id>/`. */
  outputsFolder: z.optional(z.string()),
  outputs: z._default(zCatch(z.array(SavedOutput), []), []),
  /** The first saved PNG (URI string): the history item's thumbnail. */
  thumbnail: z.optional(z.string()),
});
export type JobRecord = z.infer<typeof JobRecord>;

/** A status as a word in a sentence: "IN_PROGRESS" -> "in progress" (the Jobs view, panel titles, notifications). */
export function statusWords(status: string): string {
  return status.replace(/_/g, ' ').toLowerCase();
}

export function newJobKey(now = Date.now()): string {
  return `${now.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

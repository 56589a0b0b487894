// One life of a job (issue 22, STYLE.md "One life of a job"): the states a job moves through, the only
// transitions between them, and the one description every view renders. The runner feeds it the service's
// answers (the wait's, the cancel's, the retry's) and our own events (outputs saved, stopped, failed to
// follow); the panel, the Jobs view, the status bar and job.json render `describeJob` and compute nothing.
//
//   SUBMITTING -> IN_QUEUE -> IN_PROGRESS -> SAVING_OUTPUTS -> COMPLETED | FAILED | TIMED_OUT | CANCELLED
//   any moving state -> CANCELLED (the cancel's answer, at once) | STOPPED (Stop Waiting) | ERROR (ours)
//   FAILED | TIMED_OUT -> IN_QUEUE, attempt n + 1 (the retry's answer: the same job id, a new attempt)
//
// Times of record: the service's delayTime / executionTime once it gave them; our clock only for the live
// "so far" of a job still moving, and for the length of a job the service never timed.
import { jobCost, type PricePerSecond } from '../cost/jobCost';
import { savedCost, type SavedCost } from '../cost/costText';
import { redact } from '../log';
import { outputCost } from '../outputs/outputCost';
import { isTerminalStatus, type Job } from '../schemas';
import { formatDuration, soFarText } from './durationText';

/** States of our own, beside the service's (SPEC 3): before the service answered, or after we stopped. */
export const LocalStatus = {
  /** The request is on its way; no job id yet. */
  submitting: 'SUBMITTING',
  /**
   * The service says the job ended, and its outputs and job.json are being written. A job is shown as
   * COMPLETED / FAILED only once everything is on disk (issue 15): the service deletes results after 30 minutes.
   */
  saving: 'SAVING_OUTPUTS',
  /** The user stopped waiting (Stop Waiting, or Cancel on a service without a cancel route): the job may still run there. */
  stopped: 'STOPPED',
  /** We could not submit or follow the job (network, 401, a job past retention…): `error` says why. */
  error: 'ERROR',
} as const;

/** What the job life keeps of a job (a subset of the editor's JobRecord, and of the panel's PanelJob). */
export interface LifeFacts {
  status: string;
  /** When this attempt was sent (epoch ms, our clock): the submission, or the retry. */
  submittedAt: number;
  startedAt?: number | undefined;
  finishedAt?: number | undefined;
  delayTime?: number | undefined;
  executionTime?: number | undefined;
  /** 1 for the first run, 2 after the first retry… (absent: 1). */
  attempt?: number | undefined;
}

/** A job's life as every view shows it. */
export interface JobDescription {
  /** "In queue", "In progress · attempt 2", "Completed"… */
  statusText: string;
  /** "1.7 s so far" while the job moves, "2.5 s" once it ended, "" when nothing can be said yet. */
  durationText: string;
  /** The job still moves: its duration is our clock's and ticks once a second. */
  live: boolean;
  /** The service ended it (or we did): nothing more will change but a retry. */
  final: boolean;
  attempt: number;
}

const STATUS_TEXT: Record<string, string> = {
  SUBMITTING: 'Submitting',
  IN_QUEUE: 'In queue',
  IN_PROGRESS: 'In progress',
  RUNNING: 'In progress',
  SAVING_OUTPUTS: 'Saving outputs',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  TIMED_OUT: 'Timed out',
  STOPPED: 'Stopped waiting',
  ERROR: 'Error',
};

/** True once nothing more will happen to the job on our side. */
export function isFinished(facts: Pick<LifeFacts, 'status'>): boolean {
  return isTerminalStatus(facts.status) || facts.status === LocalStatus.stopped || facts.status === LocalStatus.error;
}

/** The one description of a job at `now` (the panel's status line, the Jobs view's row, the status bar, job.json). */
export function describeJob(facts: LifeFacts, now = Date.now()): JobDescription {
  const attempt = facts.attempt ?? 1;
  const words = STATUS_TEXT[facts.status] ?? facts.status;
  const statusText = attempt > 1 ? `${words} · attempt ${attempt}` : words;
  const final = isFinished(facts);
  const live = !final && facts.status !== LocalStatus.saving;
  const ms = durationOf(facts, now, live);
  const durationText = ms === undefined ? '' : live ? soFarText(ms) : formatDuration(ms);
  return { statusText, durationText, live, final, attempt };
}

/**
 * How long until a live job's "so far" next changes: views tick on the job's own second (not each on its own
 * phase), so the panel, the Jobs view and the status bar change together.
 */
export function msToNextTick(facts: Pick<LifeFacts, 'submittedAt'>, now = Date.now()): number {
  const elapsed = Math.max(0, now - facts.submittedAt);
  return 1000 - (elapsed % 1000) + 5;
}

/** What a job offers now (the panel's buttons, the Jobs view's menus): worked out here, not by each view. */
export function jobActions(facts: LifeFacts & { jobId?: string | undefined }, followed: boolean): { cancel: boolean; retry: boolean; stopWaiting: boolean } {
  const { live } = describeJob(facts);
  const known = facts.jobId !== undefined;
  return {
    // A job only stopped being followed may still run on the service: that one can still be cancelled.
    cancel: known && ((followed && live) || facts.status === LocalStatus.stopped),
    retry: known && !followed && (facts.status === 'FAILED' || facts.status === 'TIMED_OUT'),
    // Once the service has said the job ended there is nothing left to stop (its outputs are being saved).
    stopWaiting: followed && live,
  };
}

/** "In progress · 2 s so far": the status and its duration, as one line. */
export function lifeLine(facts: LifeFacts, now = Date.now()): string {
  const d = describeJob(facts, now);
  return d.durationText ? `${d.statusText} · ${d.durationText}` : d.statusText;
}

/** The service's times once it gave them; our clock otherwise (the live "so far", or a job it never timed). */
function durationOf(facts: LifeFacts, now: number, live: boolean): number | undefined {
  if (live) return Math.max(0, now - facts.submittedAt);
  if (facts.delayTime !== undefined || facts.executionTime !== undefined) return (facts.delayTime ?? 0) + (facts.executionTime ?? 0);
  return facts.finishedAt !== undefined ? Math.max(0, facts.finishedAt - facts.submittedAt) : undefined;
}

/** The fields of a job's record the job life writes (the editor's JobRecord has them all). */
export interface LifePatch extends Partial<LifeFacts> {
  jobId?: string;
  workerId?: string;
  /** The `cost` the output reports (a public endpoint), as it came. */
  cost?: number;
  /** What the job cost, reported or estimated with how, or unknown: set once the service ended the job. */
  jobCost?: SavedCost | undefined;
  error?: string | undefined;
  queueReason?: string | undefined;
  streamText?: string | undefined;
  /** The worker's latest progress_update while the job runs (SPEC: `output` of an IN_PROGRESS job). */
  progress?: string | undefined;
  note?: string;
}

/** Longest progress text kept: a progress update is a line or a small object, not an output. */
const MAX_PROGRESS_CHARS = 2000;

/**
 * What a job object from the service (the wait's, the stream's, the submission's) changes. An answer about a
 * job that has already ended for us is old news (a held status-sync answered after the cancel's answer) and
 * changes nothing: a cancelled job is never shown as running again.
 */
export function answerPatch(facts: LifeFacts, job: Job, secrets: readonly string[], now = Date.now()): LifePatch {
  if (isFinished(facts) || facts.status === LocalStatus.saving) return {};
  // The service's terminal status is published once the outputs are on disk; until then the job is "saving
  // outputs", so nothing shows a finished job without its files (issue 15).
  const ended = isTerminalStatus(job.status);
  const patch: LifePatch = { jobId: job.id, status: ended ? LocalStatus.saving : job.status };
  if (job.status !== 'IN_QUEUE' && facts.startedAt === undefined) patch.startedAt = now;
  if (ended) patch.finishedAt = now;
  if (typeof job.delayTime === 'number') patch.delayTime = job.delayTime;
  if (typeof job.executionTime === 'number') patch.executionTime = job.executionTime;
  if (typeof job.workerId === 'string') patch.workerId = job.workerId;
  if (job.status !== 'IN_QUEUE') patch.queueReason = undefined;
  const cost = outputCost(job.output);
  if (cost !== undefined) patch.cost = cost;
  if (job.status === 'IN_PROGRESS' && job.output !== undefined && job.output !== null) {
    patch.progress = redact(progressText(job.output), secrets);
  }
  if (ended) patch.progress = undefined;
  // A worker's error text is shown and stored as it came: scrub the key from it by value, in case it echoes it.
  const failure = failureOf(job);
  if (failure !== undefined) patch.error = redact(failure, secrets);
  return patch;
}

/**
 * The job's cost once the service ended it (issue 23): the output's own `cost`, else its execution time x the
 * endpoint's price per second (an estimate, said so), else unknown; the same words as a batch row's.
 */
export function costPatch(job: Pick<Job, 'output' | 'executionTime'>, price: PricePerSecond | undefined): LifePatch {
  return { jobCost: savedCost(jobCost(job, price)) };
}

/** The cancel's answer: a job the service says is CANCELLED is cancelled now, whatever a held wait says later. */
export function cancelAnswerPatch(facts: LifeFacts, answer: Pick<Job, 'status'> & Partial<Pick<Job, 'delayTime' | 'executionTime'>>, now = Date.now()): LifePatch {
  if (isFinished(facts) && facts.status !== LocalStatus.stopped) return {};
  if (!isTerminalStatus(answer.status)) return {};
  return {
    status: answer.status,
    finishedAt: now,
    queueReason: undefined,
    progress: undefined,
    ...(typeof answer.delayTime === 'number' ? { delayTime: answer.delayTime } : {}),
    ...(typeof answer.executionTime === 'number' ? { executionTime: answer.executionTime } : {}),
  };
}

/** The retry's answer: the same job id queued again, as a new attempt whose times start now. */
export function retryAnswerPatch(facts: LifeFacts, answer: Pick<Job, 'status'>, now = Date.now()): LifePatch & Required<Pick<LifeFacts, 'status' | 'attempt' | 'submittedAt'>> {
  return {
    status: isTerminalStatus(answer.status) ? 'IN_QUEUE' : answer.status,
    attempt: (facts.attempt ?? 1) + 1,
    submittedAt: now,
    startedAt: undefined,
    finishedAt: undefined,
    delayTime: undefined,
    executionTime: undefined,
    jobCost: undefined,
    error: undefined,
    queueReason: undefined,
    streamText: undefined,
    progress: undefined,
    note: `Retried: the service queued the same job again (attempt ${(facts.attempt ?? 1) + 1}).`,
  };
}

/** A job's end on our side (stopped, or an error): the clock stops now unless it already had. */
export function endPatch(facts: LifeFacts, status: typeof LocalStatus.stopped | typeof LocalStatus.error, now = Date.now()): LifePatch {
  return { status, finishedAt: facts.finishedAt ?? now, queueReason: undefined, progress: undefined };
}

function progressText(output: unknown): string {
  let text: string;
  if (typeof output === 'string') text = output;
  else {
    try {
      text = JSON.stringify(output);
    } catch {
      text = String(output);
    }
  }
  return text.length > MAX_PROGRESS_CHARS ? `${text.slice(0, MAX_PROGRESS_CHARS)}…` : text;
}

/** Why a job failed, in the service's words, when it did. */
function failureOf(job: Job): string | undefined {
  if (job.status !== 'FAILED' && job.error === undefined) return undefined;
  return errorText(job.error) ?? 'The job failed; the service gave no reason.';
}

/** The service's error of a failed job: usually a string, sometimes an object (kept readable as JSON). */
export function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null || error === '') return undefined;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error, null, 2);
  } catch {
    return String(error);
  }
}

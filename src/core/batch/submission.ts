// One /run of a batch row (docs/batches.md "What is safe to resend"): the `submitting` line is written and handed
// to the OS before the request leaves, then the answer decides the row: accepted (active), refused before it was
// taken (back to pending, resent after the wait), rejected (ended REJECTED) or lost (unknown, never resent by
// itself). A new attempt of a failed job goes the same way; what its earlier attempts cost is kept (rowCost.ts).
import type { Clock } from '../http/clock';
import type { Job } from '../schemas';
import type { BatchGate } from './batchGate';
import type { BatchRows } from './batchRows';
import type { JobRow } from './manifestFormat';
import { newAttempt } from './rowCost';
import type { BatchRunnerOptions } from './runnerOptions';
import type { Work } from './startRows';
import { SendingLine } from './sendingLine';
import { classifySubmitFailure } from './submitOutcome';

export interface SubmissionContext {
  o: Pick<BatchRunnerOptions, 'client' | 'endpointId' | 'items'>;
  rows: BatchRows;
  gate: BatchGate;
  clock: Clock;
  /** The batch is cancelled, or being cancelled (its life says). */
  closed(): boolean;
  /** Puts work back at the head of the batch's list (a submission refused before it was taken). */
  requeue(w: Work): void;
  /** Ends the row as a failure (the input was rejected: no job exists). */
  end(index: number, change: Partial<JobRow>): Promise<void>;
}

/** Returns the accepted job, or undefined (requeued, paused, rejected or unknown: see submitOutcome.ts). */
export async function submitRow(c: SubmissionContext, index: number): Promise<Job | undefined> {
  const { o, rows, gate, clock } = c;
  const item = o.items[index]!;
  const row = rows.get(index);
  const previous = row.jobId ? [...(row.previousJobIds ?? []), row.jobId] : row.previousJobIds;
  // `submitting` is written in one step with the request's last byte (sendingLine.ts): a crash after it leaves
  // `submitting`, which a resume turns into `unknown` rather than send it twice.
  const line = new SendingLine(
    rows,
    index,
    () => ({ phase: 'submitting', digest: item.digest, previousJobIds: previous, jobId: undefined, status: undefined, error: undefined, endedAt: undefined, outputs: undefined, ...newAttempt(rows.get(index)) }),
    () => c.closed() || gate.paused !== undefined,
  );
  const submittedAt = clock.now();
  try {
    // No abort signal: a /run cut off mid-way is a job that may exist. Cancel waits for its answer instead.
    const job = await o.client.run(o.endpointId, item.input, { ...(item.request ? { request: item.request } : {}), onSending: line.hook });
    await rows.update(index, { phase: 'active', jobId: job.id, status: job.status, submittedAt });
    return job;
  } catch (e) {
    if (line.heldBack) {
      if (!c.closed() && !gate.paused) throw line.stopped; // the manifest failed: stopOnError puts it back
      // Nothing was written: a failed row being retried stays failed; only a row never sent is skipped.
      if (c.closed()) {
        if (rows.get(index).phase === 'pending') await rows.update(index, { phase: 'skipped' });
      } else c.requeue({ index, action: 'submit' });
      return undefined;
    }
    const f = classifySubmitFailure(e, line.sent);
    if (f.kind === 'rateLimited' || f.kind === 'notSent' || f.kind === 'auth') {
      await rows.update(index, { phase: 'pending', error: f.message });
      c.requeue({ index, action: 'submit' });
      if (f.kind === 'rateLimited') gate.hold(f.retryAfterMs, 'rateLimited', f.message);
      else if (f.kind === 'notSent') gate.markDown(f.message);
      else gate.pause('auth', f.message);
      return undefined;
    }
    if (f.kind === 'rejected') {
      await c.end(index, { phase: 'ended', status: 'REJECTED', error: f.message, endedAt: clock.now() });
      return undefined;
    }
    await rows.update(index, { phase: 'unknown', error: `The answer to /run was lost (${f.message}); the job may exist on the service, so it is not resent by itself.` });
    if (f.serviceDown) gate.markDown(f.message);
    return undefined;
  }
}

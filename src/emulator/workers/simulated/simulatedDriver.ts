// Simulated workers (image, video, audio, echo, llm endpoints): no process, only time. A worker's cold start is
// what the engine says (the endpoint's coldStartMs, none for an active worker present from the start, shorter
// with FlashBoot), it runs one job at a time, and
// a job takes the endpoint's executionMs (an llm job: as long as its answer takes to stream). The job's output
// is drawn when it is first read (jobs/jobQueue.ts), not here. Each worker writes a few honest lines to its log
// (issue 28, GET /v2/serverless/<id>/workers/<worker>/logs): started, ready, each job's start and end, stopped.
import type { EngineWorker, WorkerDriver } from '../../jobs/workerDriver';
import type { EmulatedJob, RuntimeEnd } from '../../jobs/job';
import { WorkerLogs } from '../process/workerLogs';

export class SimulatedWorkers implements WorkerDriver {
  readonly holdsEndedJobs = false;
  readonly logs = new WorkerLogs();

  /** `now`: the stop line's time (a replay, which reads no logs, may leave it out). */
  constructor(private readonly now: () => number = () => 0) {}

  start(w: EngineWorker, coldStartMs: number, warm = false): number {
    this.logs.add({ atMs: w.spawnedAtMs, workerId: w.id, stream: 'emulator', text: `worker ${w.id} started on version ${w.version}${warm ? ' (warm)' : `, cold start ${coldStartMs} ms`}` });
    return w.spawnedAtMs + coldStartMs;
  }

  capacity(w: EngineWorker): number {
    return w.status === 'idle' ? 1 : 0;
  }

  give(w: EngineWorker, jobs: EmulatedJob[]): void {
    for (const job of jobs) {
      job.doneAtMs = job.startsAtMs! + job.executionMs;
      this.logs.add({ atMs: job.startsAtMs!, workerId: w.id, jobId: job.id, stream: 'stdout', text: `job ${job.id} started` });
    }
  }

  /** The engine ended a job that ran on worker `workerId` (told by the job queue). */
  ended(job: EmulatedJob, end: RuntimeEnd, ranMs: number): void {
    if (job.workerId === undefined || job.startsAtMs === undefined) return;
    const base = { atMs: job.endsAtMs!, workerId: job.workerId, jobId: job.id };
    if (end !== 'done') this.logs.add({ ...base, stream: 'stderr', text: `job ${job.id} ${end === 'CANCELLED' ? 'cancelled' : 'timed out'} after ${ranMs} ms` });
    else if (job.endpoint.fail) this.logs.add({ ...base, stream: 'stderr', text: `job ${job.id} failed after ${ranMs} ms: ${job.endpoint.fail}` });
    else this.logs.add({ ...base, stream: 'stdout', text: `job ${job.id} done in ${ranMs} ms` });
  }

  stopJob(): void {
    // Nothing runs: the engine has already ended the job and freed the worker.
  }

  stop(w: EngineWorker, why: string): void {
    this.logs.add({ atMs: this.now(), workerId: w.id, stream: 'emulator', text: `worker ${w.id} stopped: ${why}` });
  }
}

// Simulated workers (image, video, audio, echo, llm endpoints): no process, only time. A worker's cold start is
// the endpoint's coldStartMs (none for an active worker present from the start), it runs one job at a time, and
// a job takes the endpoint's executionMs (an llm job: as long as its answer takes to stream). The job's output
// is drawn when it is first read (jobs/jobQueue.ts), not here.
import type { EngineWorker, WorkerDriver } from '../../jobs/workerDriver';
import type { EmulatedJob } from '../../jobs/job';

export class SimulatedWorkers implements WorkerDriver {
  readonly holdsEndedJobs = false;

  constructor(private readonly coldStartMs: number) {}

  start(w: EngineWorker, warm: boolean): number {
    return warm ? w.spawnedAtMs : w.spawnedAtMs + this.coldStartMs;
  }

  capacity(w: EngineWorker): number {
    return w.status === 'idle' ? 1 : 0;
  }

  give(_w: EngineWorker, jobs: EmulatedJob[]): void {
    for (const job of jobs) job.doneAtMs = job.startsAtMs! + job.executionMs;
  }

  stopJob(): void {
    // Nothing runs: the engine has already ended the job and freed the worker.
  }

  stop(): void {
    // Nothing to kill.
  }
}

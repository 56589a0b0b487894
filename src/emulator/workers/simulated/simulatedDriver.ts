// Simulated workers (image, video, audio, echo, llm endpoints): no process, only time. A worker's cold start is
// what the engine says (the endpoint's coldStartMs, none for an active worker present from the start, shorter
// with FlashBoot), it runs one job at a time, and
// a job takes the endpoint's executionMs (an llm job: as long as its answer takes to stream). The job's output
// is drawn when it is first read (jobs/jobQueue.ts), not here.
import type { EngineWorker, WorkerDriver } from '../../jobs/workerDriver';
import type { EmulatedJob } from '../../jobs/job';

export class SimulatedWorkers implements WorkerDriver {
  readonly holdsEndedJobs = false;

  start(w: EngineWorker, coldStartMs: number): number {
    return w.spawnedAtMs + coldStartMs;
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

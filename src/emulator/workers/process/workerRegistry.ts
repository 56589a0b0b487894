// Looks process workers up by id and token for the worker protocol's routes (protocolRoutes.ts), and closes
// them all when the emulator stops.
import type { ProcessWorker, ProcessWorkers, WorkerDirectory } from './processWorkers';

export class WorkerRegistry implements WorkerDirectory {
  private readonly byId = new Map<string, { runtime: ProcessWorkers; worker: ProcessWorker }>();
  private readonly runtimes = new Set<ProcessWorkers>();
  constructor(readonly origin: () => string) {}


  add(runtime: ProcessWorkers, worker: ProcessWorker): void {
    this.byId.set(worker.w.id, { runtime, worker });
    this.runtimes.add(runtime);
  }

  remove(workerId: string): void {
    this.byId.delete(workerId);
  }

  /** The worker with this id whose token matches, or undefined. */
  find(workerId: string, token: string | null): { runtime: ProcessWorkers; worker: ProcessWorker } | undefined {
    const e = this.byId.get(workerId);
    return e && token !== null && e.worker.token === token ? e : undefined;
  }

  /** Kills every worker process of every endpoint (the emulator is closing). */
  closeAll(): void {
    for (const r of this.runtimes) r.close();
  }
}

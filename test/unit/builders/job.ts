// Fixture builder for Job (SPEC 2.7), so tests say which job they mean:
//   aJob().withId('job-1').completed([{ image_url: aPngDataUri(), seed: 1 }]).build()
import type { Job } from '../../../src/core/schemas';

export class JobBuilder {
  private job: Job = { id: 'job-1', status: 'IN_QUEUE' };

  withId(id: string): this {
    this.job.id = id;
    return this;
  }
  inQueue(): this {
    this.job.status = 'IN_QUEUE';
    return this;
  }
  inProgress(input?: Record<string, unknown>): this {
    this.job.status = 'IN_PROGRESS';
    if (input !== undefined) this.job.input = input;
    return this;
  }
  /** COMPLETED with this output, a worker and timings (SPEC 2.7: present on completed jobs). */
  completed(output: unknown): this {
    this.job = { workerId: 'worker-1', delayTime: 120, executionTime: 3400, ...this.job, status: 'COMPLETED', output };
    return this;
  }
  /** FAILED with the real service's `error` string (not in the spec). */
  failed(error = 'worker crashed'): this {
    this.job = { ...this.job, status: 'FAILED', error };
    return this;
  }
  withStatus(status: string): this {
    this.job.status = status;
    return this;
  }
  withTimings(delayTime: number, executionTime?: number): this {
    this.job.delayTime = delayTime;
    if (executionTime !== undefined) this.job.executionTime = executionTime;
    return this;
  }
  build(): Job {
    return structuredClone(this.job);
  }
}

export function aJob(): JobBuilder {
  return new JobBuilder();
}

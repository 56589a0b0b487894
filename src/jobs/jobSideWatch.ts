// What the runner watches beside a job's wait for its end: the text a streaming worker writes (/stream, see
// src/core/jobs/followStream.ts for which jobs are streamed) and, while the job is IN_QUEUE, why it waits
// (/health, src/core/jobs/queueReason.ts). Both only add to the record (streamText, queueReason, and the move
// to IN_PROGRESS a long poll reports late); the job's end always comes from the wait itself.
import { followStream, sharedStreamingEndpoints, shouldStream, StreamingEndpoints, watchQueue } from '../core/jobs';
import { isTerminalStatus, type Job } from '../core/schemas';
import type { ServiceClient } from '../core/service';
import { sharedRouteSupport } from '../core/runtime/routeSupport';
import type { JobRecord } from './jobRecord';

/** The panel gets the streamed text at most this often (each update is persisted and redrawn). */
const TEXT_FLUSH_MS = 200;

export class JobSideWatch {
  private readonly controller = new AbortController();
  private stopped = false;
  private stream: Promise<string> | undefined;
  private queue: AbortController | undefined;
  private lastReason: string | undefined;
  private status: string | undefined;
  private pendingText: string | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: ServiceClient,
    private readonly endpointId: string,
    /** Applies a patch to the job's record (in order, persisted). */
    private readonly apply: (patch: Partial<JobRecord>) => void,
    /** Which endpoints stream (learned, kept across windows by registerJobs). */
    private readonly streaming: StreamingEndpoints = sharedStreamingEndpoints,
  ) {}

  /** Each job object the wait sees (the submission's answer included). */
  onJob(job: Pick<Job, 'id' | 'status'>): void {
    if (this.stopped) return;
    this.onStatus(job.status);
    if (!this.stream && !isTerminalStatus(job.status) && shouldStream(this.client, this.endpointId, { endpoints: this.streaming })) {
      const signal = this.controller.signal;
      this.stream = followStream(this.client, this.endpointId, job.id, {
        signal,
        endpoints: this.streaming,
        onText: (text) => this.queueText(text),
        onStatus: (status) => {
          // A long poll reports the move to a worker only when it is answered; the stream says it at once.
          if (!this.stopped && status === 'IN_PROGRESS' && this.status === 'IN_QUEUE') {
            this.onStatus(status);
            this.apply({ status, startedAt: Date.now(), queueReason: undefined });
          }
        },
      }).then((r) => r.text, () => '');
    }
  }

  /** Stops watching; resolves with the text streamed (empty when none). */
  async stop(): Promise<string> {
    this.stopped = true;
    this.controller.abort();
    this.queue?.abort();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    return (await this.stream) ?? '';
  }

  private onStatus(status: string): void {
    this.status = status;
    if (status === 'IN_QUEUE') {
      if (this.queue || sharedRouteSupport.get(this.client.settings.jobsBaseUrl, 'health') === 'no') return;
      const queue = new AbortController();
      this.queue = queue;
      this.controller.signal.addEventListener('abort', () => queue.abort(), { once: true });
      void watchQueue(this.client, this.endpointId, {
        signal: queue.signal,
        onReason: (reason) => {
          if (this.stopped || queue.signal.aborted || reason.text === this.lastReason) return;
          this.lastReason = reason.text;
          this.apply({ queueReason: reason.text });
        },
        maxWorkers: async () => (await this.client.getEndpoint(this.endpointId, { signal: queue.signal })).workers.max,
      }).catch(() => undefined);
    } else if (this.queue) {
      this.queue.abort();
      this.queue = undefined;
      if (this.lastReason !== undefined) {
        this.lastReason = undefined;
        if (!this.stopped) this.apply({ queueReason: undefined });
      }
    }
  }

  private queueText(text: string): void {
    if (this.stopped) return;
    this.pendingText = text;
    if (this.flushTimer) return;
    this.apply({ streamText: text });
    this.pendingText = undefined;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (this.pendingText !== undefined && !this.stopped) {
        const pending = this.pendingText;
        this.pendingText = undefined;
        this.queueText(pending);
      }
    }, TEXT_FLUSH_MS);
  }
}

// Reading a job's text as it is written (GET /stream/{job}), beside the wait for its end (waitForJob), so an
// LLM worker's answer shows word by word instead of as JSON at the end.
//
// Which jobs are streamed (a decision; the platform does not say which endpoints stream): every job on an
// endpoint not yet known to be a non-streaming one is read through /stream while it runs. An endpoint is
// learned as streaming when text arrives before the job ends, and as not streaming when a job completes
// having streamed nothing before its end (a plain handler's whole output comes once, at the end); from then on
// its jobs are only followed by status. A service without the route (404/405/501) is learned once
// (runtime/routeSupport.ts). Learning is per service and endpoint, for the process.
import { BodyTooLargeError, CancelledError } from '../http/errors';
import { systemClock, type Clock } from '../http/clock';
import { rateLimitWaitMs } from '../http/rateLimit';
import { isTerminalStatus } from '../schemas';
import type { ServiceClient } from '../service';
import { streamChunkText } from '../outputs/llmText';
import { mayBeMissingRoute, sharedRouteSupport, type RouteSupport } from '../runtime/routeSupport';
import type { StreamResponse } from '../runtime/schemas';

/**
 * What is known of each endpoint's streaming, by `service endpoint`. Kept across windows by the editor (the
 * keys are base URLs and endpoint ids, nothing secret): finding out costs a plain endpoint's first job its whole
 * output a second time, since /stream hands it over once at the end.
 */
export class StreamingEndpoints {
  private readonly known = new Map<string, boolean>();

  /** Read back leniently: anything but `{key: boolean}` entries is dropped. */
  static fromJSON(raw: unknown): StreamingEndpoints {
    const model = new StreamingEndpoints();
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const [key, value] of Object.entries(raw)) if (typeof value === 'boolean') model.known.set(key, value);
    }
    return model;
  }

  toJSON(): Record<string, boolean> {
    return Object.fromEntries(this.known);
  }

  get(service: string, endpointId: string): boolean | undefined {
    return this.known.get(`${service} ${endpointId}`);
  }

  set(service: string, endpointId: string, streams: boolean): void {
    this.known.set(`${service} ${endpointId}`, streams);
  }
}

export const sharedStreamingEndpoints = new StreamingEndpoints();

export interface FollowStreamOptions {
  signal: AbortSignal;
  /** Called with the whole text so far each time some arrives. */
  onText: (text: string) => void;
  /** Called with the job's status as each stream answer reports it (a long poll may report it later). */
  onStatus?: (status: string) => void;
  clock?: Clock;
  routeSupport?: RouteSupport;
  endpoints?: StreamingEndpoints;
  /** The least time between two stream requests whose previous answer brought nothing (it grows, see below). */
  idleIntervalMs?: number;
  /** The most time between two stream requests while nothing comes. */
  maxIdleIntervalMs?: number;
  /** Stream requests that fail in a row before the follower gives up (the job's own wait goes on). */
  maxFailures?: number;
  /** The most one answer is read (default STREAM_MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

export interface StreamResult {
  text: string;
  /** True when text arrived while the job was still running. */
  streamed: boolean;
}

export const STREAM_IDLE_INTERVAL_MS = 500;
/**
 * While answers bring nothing, the pause grows by half each time up to this: a long job on an endpoint not known
 * yet costs a request every few seconds, not two a second (the rate limits are per account). Text, and a change
 * of the job's status (it left the queue), bring it back down.
 */
export const STREAM_MAX_IDLE_INTERVAL_MS = 4000;

/**
 * The most a /stream answer is read. Text being written comes in small answers (what a model wrote since the
 * last one: a few KB); a bigger one is a plain handler's whole output handed over at its end (four 2048x2048
 * images were 6 MB), which the job's own wait reads anyway. Reading it twice, both at once, was most of the
 * extension host's memory peak for such a job (issue 11).
 */
export const STREAM_MAX_ANSWER_BYTES = 1024 * 1024;

/** Whether a job of this endpoint is worth streaming (not learned as a non-streaming one, route not missing). */
export function shouldStream(client: ServiceClient, endpointId: string, options: { routeSupport?: RouteSupport; endpoints?: StreamingEndpoints } = {}): boolean {
  const service = client.settings.jobsBaseUrl;
  if ((options.routeSupport ?? sharedRouteSupport).get(service, 'stream') === 'no') return false;
  return (options.endpoints ?? sharedStreamingEndpoints).get(service, endpointId) !== false;
}

/**
 * Reads /stream until the job ends, `signal` aborts, or the route turns out to be missing, and returns the
 * text it gathered. Never throws for the service's sake: streaming is a view of the job, its end is known from
 * waitForJob; an abort returns what was gathered.
 */
export async function followStream(client: ServiceClient, endpointId: string, jobId: string, options: FollowStreamOptions): Promise<StreamResult> {
  const clock = options.clock ?? systemClock;
  const routes = options.routeSupport ?? sharedRouteSupport;
  const endpoints = options.endpoints ?? sharedStreamingEndpoints;
  const service = client.settings.jobsBaseUrl;
  const idle = options.idleIntervalMs ?? STREAM_IDLE_INTERVAL_MS;
  const maxIdle = Math.max(idle, options.maxIdleIntervalMs ?? STREAM_MAX_IDLE_INTERVAL_MS);
  let pause = idle;
  const maxFailures = options.maxFailures ?? 3;
  const { signal } = options;
  let text = '';
  let streamed = false;
  let failures = 0;
  let lastStatus: string | undefined;
  for (;;) {
    if (signal.aborted) return { text, streamed };
    const sentAt = clock.now();
    let answer: StreamResponse;
    try {
      answer = await client.stream(endpointId, jobId, { signal, maxBodyBytes: options.maxAnswerBytes ?? STREAM_MAX_ANSWER_BYTES });
      routes.set(service, 'stream', 'yes');
      failures = 0;
    } catch (e) {
      if (e instanceof CancelledError || signal.aborted) return { text, streamed };
      if (e instanceof BodyTooLargeError) {
        // Not text being written (STREAM_MAX_ANSWER_BYTES): an endpoint that has streamed none by now is taken
        // as a plain one, as when its job completes without streaming.
        routes.set(service, 'stream', 'yes');
        if (!streamed && endpoints.get(service, endpointId) === undefined) endpoints.set(service, endpointId, false);
        return { text, streamed };
      }
      // The job exists (its id came from the service), so a 404/405/501 on its stream is a missing route.
      if (routes.get(service, 'stream') !== 'yes' && mayBeMissingRoute(e)) {
        routes.set(service, 'stream', 'no');
        return { text, streamed };
      }
      if (++failures >= maxFailures) return { text, streamed };
      await sleep(clock, idle * 2 ** failures, signal);
      continue;
    }
    let got = false;
    for (const chunk of answer.stream) {
      const piece = streamChunkText(chunk.output);
      if (piece === undefined || piece === '') continue;
      text += piece;
      got = true;
    }
    const ended = isTerminalStatus(answer.status);
    if (got) {
      if (!ended) streamed = true;
      options.onText(text);
    }
    options.onStatus?.(answer.status);
    // A job that has just left the queue is about to write: ask again soon, whatever the pause had grown to
    // while it waited (a 4 s pause could otherwise swallow a short answer whole).
    if (answer.status !== lastStatus) pause = idle;
    lastStatus = answer.status;
    if (ended) {
      if (streamed) endpoints.set(service, endpointId, true);
      else if (answer.status === 'COMPLETED') endpoints.set(service, endpointId, false);
      return { text, streamed };
    }
    if (streamed && !endpoints.get(service, endpointId)) endpoints.set(service, endpointId, true);
    // A service that answers at once with nothing new is asked again after a pause, not in a tight loop; an
    // exhausted rate-limit window is waited out (the job's own status questions come first).
    if (got) {
      pause = idle;
    } else {
      const quotaWait = rateLimitWaitMs(client.rateLimits, clock.now());
      await sleep(clock, Math.max(quotaWait, pause - (clock.now() - sentAt)), signal);
      pause = Math.min(maxIdle, pause * 1.5);
    }
  }
}

async function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  try {
    await clock.sleep(ms, signal);
  } catch {
    // Aborted: the loop's next turn returns.
  }
}

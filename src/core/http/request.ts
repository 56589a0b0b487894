// The one HTTP layer of the core, on the global `fetch` (VS Code patches it for proxies, so it is looked up
// at call time, never captured; plain http to this machine goes around that patch: loopback.ts). It adds the
// bearer key (only for the configured origins), a timeout and the caller's AbortSignal to every call, turns
// answers into typed errors, keeps the rate-limit state, and retries what is safe to retry.
//
// Retries (issue #2, SPEC 8):
// - Idempotent requests (GETs) are retried on 429, 502, 503, 504 and network errors, with exponential
//   backoff and full jitter (a random wait in [0, min(cap, base * 2^n)]), never sooner than Retry-After,
//   for at most `maxAttempts` attempts. A requested wait longer than `maxRetryWaitMs` is not slept through
//   silently: the error goes to the caller, whose UI can say "retry in N s".
// - A timeout is not retried: the caller has already waited the whole timeout, and the UI offers a retry.
// - Non-idempotent requests (POST /run, /runsync) are NEVER sent twice once they may have reached the
//   server: a duplicate job costs the user money. Holding a request back BEFORE sending it, because a
//   rate-limit window is exhausted, is always fine: nothing reached the server yet.
import type * as z from 'zod/mini';
import { CancelledError, NetworkError, RateLimitedError, ServiceError, TimeoutError } from './errors';
import { parseBody, type BodyParser } from './parseBody';
import { isBytesReader, type BodySink, type BytesBodyReader } from './bytesBody';
import { describeFailure, readText } from './bodyText';
import { exhaustedWindow, isEmptySnapshot, mergeRateLimits, parseRateLimitHeaders, rateLimitWaitMs, type RateLimitSnapshot } from './rateLimit';
import { errorFromResponse, requestedWaitMs } from './responseError';
import { systemClock, type Clock } from './clock';
import { fetchAfterConnect, type OnSending } from './connectedFetch';
import { isLoopbackHttp, loopbackFetch } from './loopback';
import { fromResponse, type AnswerHeaders } from './wireAnswer';
import { scrubSecrets, silentLogger, unescapePrintableAscii, type Logger } from '../log';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After or exhausted window longer than this is reported to the caller instead of waited out. */
  maxRetryWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryWaitMs: 60_000 };
export const DEFAULT_TIMEOUT_MS = 30_000;
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
const MAX_REDIRECTS = 5;

/** Which route a request is for, so a wait can be told where the user looks (the tree, a job's panel). */
export interface RouteInfo {
  /**
   * `endpointList`: the REST endpoint list (shown with billing in the Endpoints view); `health`: an endpoint's
   * live counts; `jobControl`: cancel, retry, purge-queue, stream (their callers say what went on).
   */
  kind: 'billing' | 'endpointList' | 'run' | 'runsync' | 'status' | 'health' | 'jobControl' | 'other';
  endpointId?: string;
  jobId?: string;
}

/**
 * A wait the transport is about to sit through before the next attempt (issue 12: a wait is never silent).
 * `reason`: a 429 (`rateLimited`), a 502/503/504 (`unavailable`), a dropped connection (`network`), or an
 * exhausted RateLimit window held back before sending (`quota`).
 */
export interface RetryWait {
  route: RouteInfo;
  reason: 'rateLimited' | 'unavailable' | 'network' | 'quota';
  /** The HTTP status that caused it, when there was one. */
  status?: number;
  /** When the next attempt goes out (epoch ms, by the transport's clock). */
  until: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: URL;
  /** What the request is for, reported with any wait before its retry (default: `other`). */
  route?: RouteInfo;
  /** Sent as JSON. */
  body?: unknown;
  /** True only when sending the request twice is harmless (GET). */
  idempotent: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Bodies longer than this are not read: the answer fails with BodyTooLargeError (default: no limit). */
  maxBodyBytes?: number;
  /** A batch's last step before its /run's bytes leave (OnSending, connectedFetch.ts). */
  onSending?: OnSending;
}

export type { BodyParser } from './parseBody';
export type { BodySink, BytesBodyReader } from './bytesBody';


export interface HttpTransportOptions {
  /** Origins (scheme://host:port) that may receive the API key. No other origin ever gets it. */
  authorizedOrigins: readonly string[];
  apiKey?: string;
  timeoutMs?: number;
  logger?: Logger;
  clock?: Clock;
  /** In [0, 1): the jitter of backoff. */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Defaults to the global fetch at the time of each call (loopback aside: `directLoopback`). */
  fetch?: typeof fetch;
  /** Plain http to this machine goes through node's client, around the editor's proxy support (loopback.ts). Default true. */
  directLoopback?: boolean;
}

export interface HttpTransport {
  send<T>(request: HttpRequest, parse: z.ZodMiniType<T> | BodyParser<T> | BytesBodyReader<T>): Promise<T>;
  readonly rateLimits: RateLimitSnapshot;
  onRateLimits(listener: (snapshot: RateLimitSnapshot) => void): () => void;
  /** Called before every wait between attempts (and before a request held for an exhausted window). */
  onRetryWait(listener: (wait: RetryWait) => void): () => void;
}

interface RawResponse {
  status: number;
  headers: AnswerHeaders;
  /** A written sink only for a 2xx answer to a request read with a BytesBodyReader; scrubbed text otherwise. */
  body: string | BodySink<unknown>;
  receivedAt: number;
}

export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  const authorized = new Set(options.authorizedOrigins);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const logger = options.logger ?? silentLogger;
  const directLoopback = options.directLoopback ?? true;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const listeners = new Set<(snapshot: RateLimitSnapshot) => void>();
  const waitListeners = new Set<(wait: RetryWait) => void>();
  let rateLimits: RateLimitSnapshot = {};

  /** Tells the UI about a wait before it starts: otherwise the user sees old numbers and no sign of life. */
  function announceWait(request: HttpRequest, wait: Omit<RetryWait, 'route'>): void {
    const event: RetryWait = { route: request.route ?? { kind: 'other' }, ...wait };
    for (const listener of [...waitListeners]) {
      try {
        listener(event);
      } catch (e) {
        logger.warn('retry-wait listener failed', e);
      }
    }
  }

  function noteRateLimits(headers: AnswerHeaders, receivedAt: number): void {
    const latest = parseRateLimitHeaders(headers, receivedAt);
    if (isEmptySnapshot(latest)) return;
    rateLimits = mergeRateLimits(rateLimits, latest, receivedAt);
    for (const listener of [...listeners]) {
      try {
        listener(rateLimits);
      } catch (e) {
        logger.warn('rate-limit listener failed', e);
      }
    }
  }

  /** Holds the request while a window is exhausted (SPEC 8): waiting is cheaper than a 429. */
  async function waitForQuota(request: HttpRequest): Promise<void> {
    const { signal } = request;
    for (;;) {
      const now = clock.now();
      const wait = rateLimitWaitMs(rateLimits, now);
      if (wait <= 0) return;
      if (wait > policy.maxRetryWaitMs) {
        const window = exhaustedWindow(rateLimits, now);
        const which = window ? `${window} ` : '';
        throw new RateLimitedError(wait, { detail: `The ${which}request quota is used up; it resets in ${Math.ceil(wait / 1000)} s.` });
      }
      logger.info(`rate limit: holding the next request ${wait} ms until the ${exhaustedWindow(rateLimits, now)} window resets`);
      announceWait(request, { reason: 'quota', until: now + wait });
      await sleepUntil(now + wait, signal);
    }
  }

  /**
   * The body with the key removed by value. Workers are user code and a buggy one echoes its request; the
   * `includes` tests inside keep a clean 30 MB billing body uncopied.
   */
  function scrubBody(text: string): string {
    if (!options.apiKey) return text;
    return scrubSecrets(unescapePrintableAscii(text), [options.apiKey]);
  }

  /** One exchange: request out, whole body in. Throws Cancelled/Timeout/Network errors, never a raw one. */
  async function exchange(request: HttpRequest, bytesReader: BytesBodyReader<unknown> | undefined): Promise<RawResponse> {
    const { signal } = request;
    if (signal?.aborted) throw new CancelledError();
    const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let url = request.url;
    try {
      for (let redirects = 0; ; redirects++) {
        const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
        // SPEC 5.1 and the product's rule: the key goes to the configured service and nowhere else, not even
        // to where that service redirects us.
        if (options.apiKey && authorized.has(url.origin)) headers['authorization'] = `Bearer ${options.apiKey}`;
        let body: string | undefined;
        if (request.body !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(request.body);
        }
        const init = { method: request.method, headers, body, signal: controller.signal };
        // A request that writes down that it is leaving goes through node's client, which says when its connection
        // is open (connectedFetch.ts); one to this machine goes around the editor's proxy support (loopback.ts); a
        // test's own fetch is kept (it calls onSending itself, or not at all).
        const onSending = request.onSending;
        const aroundProxy = directLoopback && isLoopbackHttp(url); // decided here only, for both transports
        const response = options.fetch ? fromResponse(await options.fetch(url, { ...init, redirect: 'manual' }))
          : onSending && body !== undefined ? await fetchAfterConnect(url, { ...init, body }, onSending, aroundProxy)
          : aroundProxy ? await loopbackFetch(url, init)
          : fromResponse(await globalThis.fetch(url, { ...init, redirect: 'manual' }));
        const location = response.headers.get('location');
        // Only GETs follow redirects: re-sending a job submission elsewhere is not ours to decide.
        if (request.method === 'GET' && response.status >= 300 && response.status < 400 && location && redirects < MAX_REDIRECTS) {
          await response.discard();
          url = new URL(location, url);
          logger.debug(`redirected to ${url.origin}${url.pathname}`);
          continue;
        }
        // A 2xx body bound for a BytesBodyReader stays bytes and goes to the reader as it arrives: decoding,
        // scrubbing and parsing it are the reader's, off this thread. It is handed the key to scrub.
        if (bytesReader && response.status >= 200 && response.status < 300) {
          const length = Number(response.headers.get('content-length') ?? NaN);
          const sizeHint = response.headers.get('content-encoding') === null && Number.isSafeInteger(length) && length > 0 ? length : undefined;
          const sink = bytesReader.open({ status: response.status, contentType: response.headers.get('content-type'), secrets: options.apiKey ? [options.apiKey] : [], ...(sizeHint !== undefined ? { sizeHint } : {}) });
          try {
            for await (const chunk of response.chunks) sink.write(chunk);
          } catch (e) {
            sink.abort();
            throw e;
          }
          return { status: response.status, headers: response.headers, body: sink, receivedAt: clock.now() };
        }
        // THE choke point of issue 12: every byte of every other answer passes here before it is parsed, so no
        // field (a worker's output, workerId, error, a problem's detail) can carry the key to a panel, the
        // history, job.json or a log, whatever new field a later version reads.
        const text = scrubBody(await readText(response, request.maxBodyBytes));
        return { status: response.status, headers: response.headers, body: text, receivedAt: clock.now() };
      }
    } catch (e) {
      if (e instanceof ServiceError) throw e;
      // The caller's cancel wins over our timeout when both fired: it is what the user asked for.
      if (signal?.aborted) throw new CancelledError();
      if (timedOut) throw new TimeoutError(url.host, timeoutMs);
      throw new NetworkError(url.host, describeFailure(e));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Sleeps until `deadline` by `clock` (clock.sleep never ends early). */
  async function sleepUntil(deadline: number, signal: AbortSignal | undefined): Promise<void> {
    await clock.sleep(Math.max(0, deadline - clock.now()), signal);
  }

  function backoffMs(attempt: number): number {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    return Math.floor(random() * ceiling);
  }

  async function send<T>(request: HttpRequest, parse: z.ZodMiniType<T> | BodyParser<T> | BytesBodyReader<T>): Promise<T> {
    const bytesReader = isBytesReader<T>(parse) ? parse : undefined;
    const label = `${request.method} ${request.url.origin}${request.url.pathname}`;
    for (let attempt = 1; ; attempt++) {
      await waitForQuota(request);
      const started = clock.now();
      let response: RawResponse;
      try {
        logger.debug(`-> ${label}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
        response = await exchange(request, bytesReader);
      } catch (e) {
        // A request we stopped ourselves (a refresh superseded, a view closed, the user's Cancel) is no fault of the
        // service: a warning would send someone looking for a problem that is not there.
        if (e instanceof CancelledError) {
          logger.debug(`${label} cancelled by us`);
          throw e;
        }
        const retryable = e instanceof NetworkError && request.idempotent && attempt < policy.maxAttempts;
        logger.warn(`${label} failed: ${e instanceof Error ? e.message : String(e)}${retryable ? '; retrying' : ''}`);
        if (!retryable) throw e;
        const backoff = backoffMs(attempt);
        announceWait(request, { reason: 'network', until: clock.now() + backoff });
        await clock.sleep(backoff, request.signal);
        continue;
      }
      noteRateLimits(response.headers, response.receivedAt);
      logger.debug(`<- ${response.status} ${label} (${response.receivedAt - started} ms)`);
      if (response.status >= 200 && response.status < 300) {
        if (typeof response.body !== 'string') return (response.body as BodySink<T>).finish();
        // 204 No Content (a REST v2 DELETE): there is no body to parse.
        if (response.status === 204) return undefined as T;
        return parseBody(response.body, parse as z.ZodMiniType<T> | BodyParser<T>, response.status, response.headers.get('content-type'));
      }
      const failed = { ...response, body: typeof response.body === 'string' ? response.body : '', rateLimits };
      const error = errorFromResponse(failed);
      if (!request.idempotent || !RETRYABLE_STATUSES.has(response.status) || attempt >= policy.maxAttempts) throw error;
      const asked = requestedWaitMs(failed) ?? 0;
      if (asked > policy.maxRetryWaitMs) throw error;
      // Counted from when the answer arrived, as Retry-After and `t` are (SPEC 8.2, 8.4).
      const delay = Math.max(backoffMs(attempt), asked);
      logger.warn(`${label} answered ${response.status}; retrying in ${delay} ms`);
      announceWait(request, { reason: response.status === 429 ? 'rateLimited' : 'unavailable', status: response.status, until: response.receivedAt + delay });
      await sleepUntil(response.receivedAt + delay, request.signal);
    }
  }

  return {
    send,
    get rateLimits() {
      return rateLimits;
    },
    onRateLimits(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    onRetryWait(listener) {
      waitListeners.add(listener);
      return () => {
        waitListeners.delete(listener);
      };
    },
  };
}

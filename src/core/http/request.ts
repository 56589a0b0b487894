// The one HTTP layer of the core, on the global `fetch` (VS Code patches it for proxies, so it is looked up
// at call time, never captured). It adds the bearer key (only for the configured origins), a timeout and the
// caller's AbortSignal to every call, turns answers into typed errors, keeps the rate-limit state, and
// retries what is safe to retry.
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
import '../zodMessages';
import { CancelledError, NetworkError, RateLimitedError, SchemaError, ServiceError, TimeoutError } from './errors';
import { exhaustedWindow, isEmptySnapshot, mergeRateLimits, parseRateLimitHeaders, rateLimitWaitMs } from './rateLimit';
import { errorFromResponse, requestedWaitMs } from './responseError';
import { systemClock, type Clock } from './clock';
import { scrubSecrets, silentLogger, unescapePrintableAscii, type Logger } from '../log';
import type { RateLimitSnapshot } from '../service';

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
  method: 'GET' | 'POST';
  url: URL;
  /** What the request is for, reported with any wait before its retry (default: `other`). */
  route?: RouteInfo;
  /** Sent as JSON. */
  body?: unknown;
  /** True only when sending the request twice is harmless (GET). */
  idempotent: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A parsed body that is not a plain `schema.safeParse` (see billingBody.ts). */
export type BodyParser<T> = (json: unknown) => { success: true; data: T } | { success: false; error: z.core.$ZodError };

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
  /** Defaults to the global fetch at the time of each call. */
  fetch?: typeof fetch;
}

export interface HttpTransport {
  send<T>(request: HttpRequest, parse: z.ZodMiniType<T> | BodyParser<T>): Promise<T>;
  readonly rateLimits: RateLimitSnapshot;
  onRateLimits(listener: (snapshot: RateLimitSnapshot) => void): () => void;
  /** Called before every wait between attempts (and before a request held for an exhausted window). */
  onRetryWait(listener: (wait: RetryWait) => void): () => void;
}

interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
  receivedAt: number;
}

/** The origin of a base URL; throws a clear error for a URL that is not http(s). */
export function originOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`Not a valid URL: ${baseUrl}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`Not an http(s) URL: ${baseUrl}`);
  return url.origin;
}

/**
 * `base` (which may carry a path prefix) joined with an absolute route such as `/v2/x/run`. The backstop of
 * issue 12 for any route builder (../ids.ts checks the ids of ../schemas.ts routes): if the URL parser
 * rewrote the route (a `..` segment, a `?` or `#` inside an id), the key would go to a route nobody asked for,
 * so nothing is sent.
 */
export function joinUrl(base: string, route: string, query?: URLSearchParams): URL {
  const prefix = base.replace(/\/+$/, '');
  const url = new URL(prefix + route);
  const expected = new URL(prefix).pathname.replace(/\/+$/, '') + route;
  if (url.pathname !== expected || url.search !== '' || url.hash !== '') {
    throw new TypeError(`Refused to send a request to ${JSON.stringify(route)}: the URL parser reads it as ${JSON.stringify(url.pathname + url.search + url.hash)}.`);
  }
  if (query && [...query.keys()].length > 0) url.search = query.toString();
  return url;
}

/** Why a fetch failed, in words: undici hides the useful part (ECONNREFUSED, "other side closed") in `cause`. */
function describeFailure(e: unknown): string {
  const parts: string[] = [];
  let current: unknown = e;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      const text = typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
      if (text && !parts.includes(text)) parts.push(text);
      current = (current as { cause?: unknown }).cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  // "fetch failed" says nothing a user can act on when a cause follows.
  const useful = parts.length > 1 ? parts.filter((p) => p !== 'fetch failed') : parts;
  return useful.join(': ') || 'connection failed';
}

export function parseBody<T>(body: string, parse: z.ZodMiniType<T> | BodyParser<T>, status: number, contentType: string | null): T {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    const what = body.trim() === '' ? 'the body is empty' : `the body is not JSON (${e instanceof Error ? e.message : String(e)})`;
    throw new SchemaError('', contentType ? `${what}; content-type ${contentType}` : what, status);
  }
  const result = typeof parse === 'function' ? parse(json) : parse.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? issue.path.map(String).join('.') : '';
  throw new SchemaError(path, issue?.message ?? 'does not match the expected shape', status);
}

export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  const authorized = new Set(options.authorizedOrigins);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const logger = options.logger ?? silentLogger;
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

  function noteRateLimits(headers: Headers, receivedAt: number): void {
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
  async function exchange(request: HttpRequest): Promise<RawResponse> {
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
        const fetchImpl = options.fetch ?? globalThis.fetch;
        const response = await fetchImpl(url, { method: request.method, headers, body, signal: controller.signal, redirect: 'manual' });
        const location = response.headers.get('location');
        // Only GETs follow redirects: re-sending a job submission elsewhere is not ours to decide.
        if (request.method === 'GET' && response.status >= 300 && response.status < 400 && location && redirects < MAX_REDIRECTS) {
          await response.body?.cancel().catch(() => undefined);
          url = new URL(location, url);
          logger.debug(`redirected to ${url.origin}${url.pathname}`);
          continue;
        }
        // THE choke point of issue 12: every byte of every answer passes here before it is parsed, so no
        // field (a worker's output, workerId, error, a problem's detail) can carry the key to a panel, the
        // history, job.json or a log, whatever new field a later version reads.
        const text = scrubBody(await response.text());
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

  async function send<T>(request: HttpRequest, parse: z.ZodMiniType<T> | BodyParser<T>): Promise<T> {
    const label = `${request.method} ${request.url.origin}${request.url.pathname}`;
    for (let attempt = 1; ; attempt++) {
      await waitForQuota(request);
      const started = clock.now();
      let response: RawResponse;
      try {
        logger.debug(`-> ${label}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
        response = await exchange(request);
      } catch (e) {
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
        return parseBody(response.body, parse, response.status, response.headers.get('content-type'));
      }
      const error = errorFromResponse({ ...response, rateLimits });
      if (!request.idempotent || !RETRYABLE_STATUSES.has(response.status) || attempt >= policy.maxAttempts) throw error;
      const asked = requestedWaitMs({ ...response, rateLimits }) ?? 0;
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

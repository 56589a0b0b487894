// The service client (the contract of ../service.ts) on top of the one HTTP layer: every route of SPEC 4,
// each response read leniently with the schemas of ../schemas.ts. No `vscode` import.
import { BadQueryError } from './errors';
import { createHttpTransport, DEFAULT_TIMEOUT_MS, type RetryPolicy } from './request';
import { joinUrl, originOf } from './url';
import type { Clock } from './clock';
import { createRedactingLogger, silentLogger, type Logger } from '../log';
import { billingQueryString, validateBillingQuery } from '../billing/query';
import type { BillingReader } from '../billing/billingReader';
import { Job, RunResponse, routes, type BillingQueryParams, type JobInput } from '../schemas';
import type { CallOptions, ConnectionSettings, ServiceClient, SubmitOptions } from '../service';
import { createRuntimeCalls } from '../runtime/client';
import { createServerlessCalls, type ServerlessWritesFactory } from '../serverless/client';

/** How long the real service holds a runsync without `?wait=` before answering with a job still running. */
export const DEFAULT_RUNSYNC_WAIT_MS = 90_000;
const RUNSYNC_MARGIN_MS = 15_000;

export interface ServiceClientDeps {
  /** Where requests and their outcomes are logged; wrapped so the key can never reach it. */
  logger?: Logger;
  /** Time and waits (tests, benchmarks). */
  clock?: Clock;
  /** Jitter source in [0, 1). */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Defaults to the global fetch at call time (VS Code patches it for proxies). */
  fetch?: typeof fetch;
  /**
   * Who reads listBillingTable's body: the extension's billing worker, or inlineBillingReader (tests, scripts).
   * Not defaulted, so the bundle of a caller that reads billing elsewhere carries no billing parser. Without
   * it, listBillingTable fails (a client for jobs only).
   */
  billingReader?: BillingReader;
  /**
   * Who makes the serverless write calls (create, update, delete; releases; templates): `serverlessWrites` of
   * ../serverless/serverlessWrites.ts, asked for at the first such call. Not defaulted, for the same reason as
   * the billing reader: the extension's comes from dist/rooms.js. Without it, those calls fail.
   */
  serverlessWrites?: () => ServerlessWritesFactory;
}

export function createServiceClient(settings: ConnectionSettings, deps: ServiceClientDeps = {}): ServiceClient {
  const frozen: Readonly<ConnectionSettings> = Object.freeze({ ...settings });
  // Both checked now, so a typo in a setting fails when the client is made, with the URL in the message.
  const origins = [originOf(frozen.billingBaseUrl), originOf(frozen.jobsBaseUrl)];
  const logger = createRedactingLogger(deps.logger ?? silentLogger, () => [frozen.apiKey]);
  const http = createHttpTransport({
    authorizedOrigins: origins,
    apiKey: frozen.apiKey,
    timeoutMs: frozen.timeoutMs,
    logger,
    clock: deps.clock,
    random: deps.random,
    retry: deps.retry,
    fetch: deps.fetch,
  });

  return {
    settings: frozen,

    async listBillingTable(query: BillingQueryParams, options: CallOptions = {}) {
      const problems = validateBillingQuery(query);
      if (problems.length > 0) throw new BadQueryError(problems);
      const url = joinUrl(frozen.billingBaseUrl, routes.billing, billingQueryString(query));
      if (!deps.billingReader) throw new Error('This service client was made without a billing reader.');
      const result = await http.send({ method: 'GET', url, idempotent: true, route: { kind: 'billing' }, ...options }, deps.billingReader);
      for (const w of result.warnings) logger.warn(`billing response: ${w}`);
      return result;
    },

    ...createRuntimeCalls(http, frozen),
    ...createServerlessCalls(http, frozen, deps.serverlessWrites),

    run(endpointId: string, input: JobInput, options: SubmitOptions = {}) {
      const { request, ...call } = options;
      const url = joinUrl(frozen.jobsBaseUrl, routes.run(endpointId));
      return http.send({ method: 'POST', url, body: { ...request, input }, idempotent: false, route: { kind: 'run', endpointId }, ...call }, RunResponse);
    },

    runSync(endpointId: string, input: JobInput, options: SubmitOptions & { waitMs?: number } = {}) {
      const { waitMs, request, ...call } = options;
      // `?wait=` (ms) is how the real service bounds a runsync; without it the server's default applies.
      const query = new URLSearchParams();
      if (waitMs !== undefined) query.set('wait', String(Math.max(0, Math.round(waitMs))));
      const url = joinUrl(frozen.jobsBaseUrl, routes.runsync(endpointId), query);
      // The server holds a runsync for up to its wait. Timing out before that would lose the job id of a job
      // that runs (and is billed) anyway, and a submission is never re-sent, so the timeout outlasts the wait.
      const timeoutMs = call.timeoutMs ?? Math.max(frozen.timeoutMs ?? DEFAULT_TIMEOUT_MS, (waitMs ?? DEFAULT_RUNSYNC_WAIT_MS) + RUNSYNC_MARGIN_MS);
      return http.send({ method: 'POST', url, body: { ...request, input }, idempotent: false, route: { kind: 'runsync', endpointId }, ...call, timeoutMs }, Job);
    },

    status(endpointId: string, jobId: string, options: CallOptions = {}) {
      const url = joinUrl(frozen.jobsBaseUrl, routes.status(endpointId, jobId));
      return http.send({ method: 'GET', url, idempotent: true, route: { kind: 'status', endpointId, jobId }, ...options }, Job);
    },

    get rateLimits() {
      return http.rateLimits;
    },

    onRateLimits(listener) {
      return http.onRateLimits(listener);
    },

    onRetryWait(listener) {
      return http.onRetryWait(listener);
    },
  };
}

// The contract of the core client: what the editor layer (tree, panel, commands) calls. Implemented by
// `createServiceClient` in ./http/client.ts; job waiting lives in ./jobs/. No `vscode` import.
import type { BillingQueryParams, Job, JobInput, RunResponse } from './schemas';
import type { RetryWait } from './http/request';
import type { OnSending } from './http/connectedFetch';
import type { BillingTableResult } from './billing/readBillingBody';
import type { RuntimeCalls } from './runtime/client';
import type { RequestOptions } from './runtime/schemas';
import type { ServerlessCalls } from './serverless/client';
import type { CallOptions, ConnectionSettings } from './http/connectionSettings';
import type { RateLimitSnapshot } from './http/rateLimit';

// The transport's own types, named here too: the editor layer reads the whole contract from this one module.
export type { CallOptions, ConnectionSettings } from './http/connectionSettings';
export type { RateLimitSnapshot, RateLimitWindowState } from './http/rateLimit';

/** A job's submission: the input, and the documented options sent with it (webhook, policy, s3Config). */
export interface SubmitOptions extends CallOptions {
  request?: RequestOptions;
  /** The submission's last step before its bytes leave (see OnSending in http/connectedFetch.ts). */
  onSending?: OnSending;
}

/** SPEC 4's routes, plus the platform's job-control routes and its endpoint list (feature-detected by callers). */
export interface ServiceClient extends RuntimeCalls, ServerlessCalls {
  readonly settings: Readonly<ConnectionSettings>;
  /**
   * GET /v2/billing/serverless (SPEC 4.1), read into what the views show (columns, ../billing/billingTable.ts) by
   * the client's billing reader: on the billing worker's thread in the extension, so a year of hourly data never
   * blocks the extension host. The query is validated first; a bad one throws BadQueryError and sends nothing.
   */
  listBillingTable(query: BillingQueryParams, options?: CallOptions): Promise<BillingTableResult>;
  /** POST /v2/{id}/run (SPEC 4.2). Never retried once the request may have reached the server. */
  run(endpointId: string, input: JobInput, options?: SubmitOptions): Promise<RunResponse>;
  /** POST /v2/{id}/runsync (SPEC 4.3). May return a job that is not terminal yet: continue with waitForJob. Never retried. */
  runSync(endpointId: string, input: JobInput, options?: SubmitOptions & { waitMs?: number }): Promise<Job>;
  /** GET /v2/{id}/status/{jobId} (SPEC 4.4). */
  status(endpointId: string, jobId: string, options?: CallOptions): Promise<Job>;
  /** The latest RateLimit state seen on any response of this client. */
  readonly rateLimits: RateLimitSnapshot;
  /** Called after every response that carried rate-limit headers. Returns an unsubscribe function. */
  onRateLimits(listener: (snapshot: RateLimitSnapshot) => void): () => void;
  /** Called before every wait between attempts of a request (a 429's Retry-After, a 503, an exhausted window). */
  onRetryWait(listener: (wait: RetryWait) => void): () => void;
}

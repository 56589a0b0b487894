// Where a client's requests go, with which key, and the options every call takes: the bottom of the core's
// HTTP layer (the transport, the route clients and ../service.ts build on it; it imports nothing of theirs).

/** Where requests go and with which key. The key is only ever sent to these two origins. */
export interface ConnectionSettings {
  /** Base URL of the REST billing route, e.g. https://api.runpod.io (SPEC "{base_url}"). */
  billingBaseUrl: string;
  /** Base URL of the job routes, e.g. https://api.runpod.ai (SPEC "{serverless_url}"). */
  jobsBaseUrl: string;
  /** Undefined: requests are sent without Authorization and the service answers 401. */
  apiKey?: string;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

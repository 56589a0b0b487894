// What the job runner is given: where its clients come from, and what to start.
import type * as vscode from 'vscode';
import type { RequestOptions } from '../core/runtime/schemas';
import type { JobInput } from '../core/schemas';
import type { PricePerSecond } from '../core/cost';
import type { ServiceClient } from '../core/service';

export interface ClientSource {
  /** The client of the active connection, or undefined when there is no key (the user is told how to set one). */
  getClient(): Promise<ServiceClient | undefined>;
  /** The keys its clients carry, scrubbed by value from any error text shown (the Connection's `secrets()`). */
  secrets(): readonly string[];
  /** The active profile (the Connection has one; a test's own source may not): what the workspace remembers per service is keyed by it. */
  readonly profile?: { readonly jobsBaseUrl: string };
}

export interface StartRequest {
  endpointId: string;
  input: JobInput;
  mode: 'async' | 'sync';
  inputFile?: vscode.Uri;
  /** Request options from the input file (webhook, policy, s3Config), sent as given. */
  request?: RequestOptions;
}

/**
 * The price per second a job's cost estimate uses (src/core/cost/endpointPrices.ts, the user's gpuPrices):
 * `learn` at submission reads an endpoint not known yet in the background; `priceOf` at the end never waits.
 */
export interface JobPriceSource {
  learn(client: ServiceClient, endpointId: string): void;
  priceOf(client: ServiceClient, endpointId: string): PricePerSecond | undefined;
}

/** No prices: only the costs endpoints report themselves (a runner the tests build without them). */
export const REPORTED_COSTS_ONLY: JobPriceSource = { learn: () => undefined, priceOf: () => undefined };

// The `worker` endpoint kind's config (issue 14): the command that starts one worker process running the user's
// handler on the platform's Python worker SDK, where it runs, its extra environment, and the heartbeat interval
// the SDK is told to use. Spread into the endpoint schema of config.ts as `worker`.
import * as z from 'zod/mini';

/** The SDK's own default (RUNPOD_PING_INTERVAL, runpod-python serverless/modules/rp_ping.py). */
export const DEFAULT_PING_INTERVAL_MS = 10_000;
/** A worker that sent a heartbeat and then none for this many intervals is unhealthy. */
export const MISSED_PINGS_UNHEALTHY = 3;

export const WorkerCommandConfig = z.looseObject({
  /** argv, e.g. ["python3", "handler.py"]; a string is split on whitespace (use the array for spaces in arguments). */
  command: z.union([
    z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
    z.pipe(z.string().check(z.trim(), z.minLength(1)), z.transform((s) => s.split(/\s+/))),
  ]),
  /** Working directory of the process; relative paths are resolved from the emulator's working directory. */
  cwd: z.optional(z.string().check(z.minLength(1))),
  /** Extra environment, over the emulator's own and under the protocol's variables. */
  env: z._default(z.record(z.string(), z.string()), {}),
  // The SDK reads the interval in whole seconds (int(ms) // 1000): less than 1000 would make it ping in a loop.
  pingIntervalMs: z._default(z.int().check(z.gte(1000), z.lte(600_000)), DEFAULT_PING_INTERVAL_MS),
});
export type WorkerCommandConfig = z.output<typeof WorkerCommandConfig>;

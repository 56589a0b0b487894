// The `worker` endpoint kind's config (issue 14): the command that starts one worker process running the user's
// handler on the platform's Python worker SDK, where it runs, its extra environment, and the heartbeat interval
// the SDK is told to use. Spread into the endpoint schema of config.ts as `worker`.
import * as z from 'zod';

/** The SDK's own default (RUNPOD_PING_INTERVAL, runpod-python serverless/modules/rp_ping.py). */
export const DEFAULT_PING_INTERVAL_MS = 10_000;
/** A worker that sent a heartbeat and then none for this many intervals is unhealthy. */
export const MISSED_PINGS_UNHEALTHY = 3;

export const WorkerCommandConfig = z.looseObject({
  /** argv, e.g. ["python3", "handler.py"]; a string is split on whitespace (use the array for spaces in arguments). */
  command: z.union([
    z.array(z.string().min(1)).min(1),
    z.string().trim().min(1).transform((s) => s.split(/\s+/)),
  ]),
  /** Working directory of the process; relative paths are resolved from the emulator's working directory. */
  cwd: z.string().min(1).optional(),
  /** Extra environment, over the emulator's own and under the protocol's variables. */
  env: z.record(z.string(), z.string()).default({}),
  // The SDK reads the interval in whole seconds (int(ms) // 1000): less than 1000 would make it ping in a loop.
  pingIntervalMs: z.number().int().min(1000).max(600_000).default(DEFAULT_PING_INTERVAL_MS),
});
export type WorkerCommandConfig = z.output<typeof WorkerCommandConfig>;

// The emulator's configuration file (issue 3, "Configuration"): its public interface, validated with zod.
// Extra fields are allowed everywhere (looseObject) so configs can carry notes or future fields; the fields
// below must work as written. A bad file is reported with the zod path of the bad field (the CLI exits 2).
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { DateTime } from '../core/schemas';
import '../core/zodMessages';
import { OperationLimitsConfig } from './jobs/operationLimits';
import { RUNTIME_FIELDS } from './jobs/runtimeSettings';
import { poolPricePerSecond } from './serverless/gpuCatalog';
import { catalogPrices, type WorkerPrices } from './billing/workerPrices';
import { WorkerCommandConfig } from './workers/process/workerConfig';
import { WORKER_SHAPE_KINDS } from './demo/workerShapes';

// `worker` (issue 14): jobs run by real processes running the user's handler (src/emulator/workers/process/).
// The worker-shaped kinds (issue 20, ./demo/workerShapes.ts) answer in the shapes real deployed workers use.
export const ENDPOINT_KINDS = ['image', 'public-image', 'public-video', 'public-audio', 'echo', 'llm', 'worker', ...WORKER_SHAPE_KINDS] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

// endpoints:read (our addition, issue 9): the REST endpoint list and workers, GET /v2/serverless..., and (issue 28)
// releases, worker logs, templates and the GPU catalog. endpoints:write (issue 28): every write of those routes
// (create, update, delete an endpoint or a template); a key without it gets 403 and nothing changes.
export const SCOPES = ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read', 'endpoints:write'] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_QUEUE_MS = 500;
export const DEFAULT_EXECUTION_MS = 2000;
export const DEFAULT_RETENTION_MINUTES = 30; // SPEC 8 rule 6
export const DEFAULT_RATE_LIMITS = { minute: 600, hour: 20_000, day: 200_000 };

/**
 * The GPU price of an endpoint whose first pool the catalog does not have, and that sets none itself (USD per GPU
 * per second; the emulator's flat default before prices came from the catalog).
 */
export const FALLBACK_GPU_PER_SECOND = 0.00044;

/**
 * USD per second of a worker's life (issue 29: what a worker is billed), as a config writes it. Left out
 * altogether, the endpoint is billed at its catalog price (see EndpointConfig and catalogPrices): what the
 * extension estimates with (the REST v2 GPU catalog, the price table) is then the whole bill. Any part set is a
 * price chosen on purpose: the parts are billed as written (`gpuPerSecond` per GPU, the rest per worker), and a
 * part left out is 0, so nothing is billed that the config does not say.
 */
export const Prices = z.looseObject({
  gpuPerSecond: z.optional(z.number().check(z.gte(0))),
  cpuPerSecond: z.optional(z.number().check(z.gte(0))),
  diskPerSecond: z.optional(z.number().check(z.gte(0))),
  feePerSecond: z.optional(z.number().check(z.gte(0))),
});
export type Prices = z.infer<typeof Prices>;

const EndpointFields = z.looseObject({
  id: z.string().check(
    z.minLength(1),
    z.regex(/^[^/\s]+$/, 'must not contain "/" or whitespace'),
    // The REST list (GET /v2/serverless/<id>) and the job routes (/v2/<endpoint>/...) share one origin here,
    // unlike the real hosts: an endpoint called "serverless" would make /v2/serverless/health mean two things.
    z.refine((id) => id !== 'serverless', 'is reserved: "serverless" is the REST endpoint list route (GET /v2/serverless)'),
    z.refine((id) => id !== 'templates' && id !== 'catalog', 'is reserved: /v2/templates and /v2/catalog are REST routes'),
  ),
  /** The human name shown by GET /v2/serverless (default: the id). */
  name: z.optional(z.string().check(z.minLength(1))),
  kind: z.enum(ENDPOINT_KINDS),
  queueMs: z._default(z.int().check(z.gte(0), z.lte(86_400_000)), DEFAULT_QUEUE_MS),
  executionMs: z._default(z.int().check(z.gte(0), z.lte(86_400_000)), DEFAULT_EXECUTION_MS),
  /** When set, every job of this endpoint ends FAILED with this `error` message. */
  fail: z.optional(z.string().check(z.minLength(1))),
  prices: z.prefault(Prices, {}),
  ...RUNTIME_FIELDS,
  /** Serverless GPU pool ids the workers are placed on (GET /v2/serverless shows them as gpu.pools). */
  gpuPools: z._default(z.array(z.string().check(z.minLength(1))).check(z.minLength(1)), ['ADA_24']),
  /** Kind `worker` only (and required there): the command that starts one worker process. */
  worker: z.optional(WorkerCommandConfig),
});

/** An endpoint of the config, its prices resolved: its own if it sets any, else its first pool's catalog price. */
export const EndpointConfig = z.pipe(EndpointFields, z.transform((e) => ({
  ...e,
  prices: resolvePrices(e.prices, e.gpuPools[0]!),
})));
export type EndpointConfig = z.output<typeof EndpointConfig>;

function resolvePrices(p: Prices, firstPool: string): WorkerPrices {
  const { gpuPerSecond, cpuPerSecond, diskPerSecond, feePerSecond } = p;
  if (gpuPerSecond === undefined && cpuPerSecond === undefined && diskPerSecond === undefined && feePerSecond === undefined) {
    return catalogPrices(poolPricePerSecond(firstPool) ?? FALLBACK_GPU_PER_SECOND);
  }
  return { gpuPerSecond: gpuPerSecond ?? 0, cpuPerSecond: cpuPerSecond ?? 0, diskPerSecond: diskPerSecond ?? 0, feePerSecond: feePerSecond ?? 0, allPerGpu: false };
}

export const KeyConfig = z.looseObject({
  key: z.string().check(z.minLength(1), z.regex(/^[A-Za-z0-9\-._~+/]+=*$/, 'must be a bearer token (RFC 6750 b64token: letters, digits, -._~+/)')),
  scopes: z.array(z.enum(SCOPES)),
  /** Restricts the job routes of this key to these endpoint ids (billing is not restricted). */
  endpoints: z.optional(z.array(z.string().check(z.minLength(1)))),
  expiresAt: z.optional(DateTime),
});
export type KeyConfig = z.infer<typeof KeyConfig>;

export const UsageEvent = z.looseObject({
  serverlessId: z.string().check(z.minLength(1)),
  time: DateTime,
  gpuAmount: z._default(z.number().check(z.gte(0)), 0),
  cpuAmount: z._default(z.number().check(z.gte(0)), 0),
  diskAmount: z._default(z.number().check(z.gte(0)), 0),
  feeAmount: z._default(z.number().check(z.gte(0)), 0),
});
export type UsageEvent = z.infer<typeof UsageEvent>;

/** Not in the issue's example: generated usage, the same generator the demo uses (see README.md, "The local emulator"). */
export const SyntheticUsage = z.looseObject({
  days: z.int().check(z.gte(1), z.lte(3660)),
  seed: z._default(z.int(), 1),
  /** Endpoints to generate usage for (an id, or an id with its own scale and active period); default: every
   *  endpoint of the user. An id that is not one of the user's endpoints appears in billing only (a deleted one). */
  endpoints: z.optional(
    z.array(
      z.union([
        z.string().check(z.minLength(1)),
        z.looseObject({
          id: z.string().check(z.minLength(1)),
          /** Typical GPU cost (USD) of a busy hour. */
          scale: z.optional(z.number().check(z.positive())),
          /** Active from this many days before the start time (default: `days`) until this many (default 0). */
          fromDaysAgo: z.optional(z.int().check(z.gte(0))),
          untilDaysAgo: z.optional(z.int().check(z.gte(0))),
        }),
      ]),
    ),
  ),
});
export type SyntheticUsage = z.infer<typeof SyntheticUsage>;

export const UserConfig = z.looseObject({
  id: z.string().check(z.minLength(1)),
  keys: z._default(z.array(KeyConfig), []),
  endpoints: z._default(z.array(EndpointConfig), []),
  usage: z._default(z.array(UsageEvent), []),
  syntheticUsage: z.optional(SyntheticUsage),
});
export type UserConfig = z.infer<typeof UserConfig>;

export const EmulatorConfigSchema = z
  .looseObject({
    now: z.optional(DateTime),
    /** Virtual time (issue 29): the clock stands still from the start; only admin moves move it. */
    clockFrozen: z._default(z.boolean(), false),
    rateLimits: z.prefault(
      z.looseObject({
        minute: z._default(z.int().check(z.gte(1)), DEFAULT_RATE_LIMITS.minute),
        hour: z._default(z.int().check(z.gte(1)), DEFAULT_RATE_LIMITS.hour),
        day: z._default(z.int().check(z.gte(1)), DEFAULT_RATE_LIMITS.day),
      }),
      {},
    ),
    retentionMinutes: z._default(z.number().check(z.positive()), DEFAULT_RETENTION_MINUTES),
    /** Per-endpoint, per-operation requests per 10 s (jobs/operationLimits.ts); each defaults to the docs' number. */
    operationLimits: z.prefault(OperationLimitsConfig, {}),
    /** How long /runsync and /status-sync hold a request that names no `wait` (ours; the platform's is 90 s). A
     *  client that cannot send `wait` (runpod-python) meets a job longer than the hold only with a shorter one. */
    runsyncWaitMs: z._default(z.int().check(z.gte(1000), z.lte(300_000)), 90_000),
    users: z.array(UserConfig).check(z.minLength(1)),
  })
  .check(z.superRefine((cfg, ctx) => {
    // A key must identify exactly one user, and an endpoint id one endpoint of a user.
    const seenKeys = new Map<string, string>();
    const seenUsers = new Set<string>();
    cfg.users.forEach((u, ui) => {
      if (seenUsers.has(u.id)) ctx.addIssue({ code: 'custom', path: ['users', ui, 'id'], message: `duplicate user id '${u.id}'` });
      seenUsers.add(u.id);
      u.keys.forEach((k, ki) => {
        if (seenKeys.has(k.key)) ctx.addIssue({ code: 'custom', path: ['users', ui, 'keys', ki, 'key'], message: `duplicate key (already used by ${seenKeys.get(k.key)})` });
        seenKeys.set(k.key, `user '${u.id}'`);
      });
      const seenEndpoints = new Set<string>();
      u.endpoints.forEach((e, ei) => {
        if (seenEndpoints.has(e.id)) ctx.addIssue({ code: 'custom', path: ['users', ui, 'endpoints', ei, 'id'], message: `duplicate endpoint id '${e.id}'` });
        seenEndpoints.add(e.id);
        if (e.kind === 'worker' && !e.worker) ctx.addIssue({ code: 'custom', path: ['users', ui, 'endpoints', ei, 'worker'], message: 'an endpoint of kind "worker" needs `worker: { command: [...] }`' });
        if (e.workersMin > e.workersMax) ctx.addIssue({ code: 'custom', path: ['users', ui, 'endpoints', ei, 'workersMin'], message: `must not exceed workersMax (${e.workersMax})` });
      });
    });
  }));

export type EmulatorConfig = z.output<typeof EmulatorConfigSchema>;
export type EmulatorConfigInput = z.input<typeof EmulatorConfigSchema>;

export class ConfigError extends Error {
  constructor(message: string, readonly issues: string[]) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** `users.0.keys.1.scopes.0: Invalid option ...`: the zod path first, so the bad field is named. */
export function formatIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.') || '(root)';
  return `${path}: ${issue.message}`;
}

export function parseConfig(input: unknown): EmulatorConfig {
  const r = EmulatorConfigSchema.safeParse(input);
  if (r.success) return r.data;
  const issues = r.error.issues.map(formatIssue);
  throw new ConfigError(`invalid emulator config:\n  ${issues.join('\n  ')}`, issues);
}

export function loadConfigFile(file: string): EmulatorConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`, []);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`, []);
  }
  return parseConfig(json);
}

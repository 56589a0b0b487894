// The emulator's in-process API: start it on a port, get its URL, its clock, and a way to stop it. Used by the
// CLI (cli.ts), tests, benchmarks and the extension's "Start Local Emulator".
import type { AddressInfo } from 'node:net';
import { FaultQueue } from './http/faults';
import { KeyRing, type Account } from './http/auth';
import { BillingStore } from './billing/billingStore';
import { EmulatorClock } from './clock';
import { parseConfig, type EndpointConfig, type EmulatorConfig, type EmulatorConfigInput, type UserConfig } from './config';
import { demoConfig } from './demo/demo';
import { FileStore } from './fileStore';
import { JobQueue } from './jobs/jobQueue';
import { OperationLimiter } from './jobs/operationLimits';
import { RateLimiter } from './http/rateLimiter';
import { createEmulatorServer } from './http/server';
import { defaultScale, generateUsage } from './billing/syntheticUsage';
import { WorkerRegistry } from './workers/process/workerRegistry';
import { endpointVersion } from './serverless/endpointStore';

export { EmulatorClock } from './clock';
export { ConfigError, EmulatorConfigSchema, loadConfigFile, parseConfig } from './config';
export type { EmulatorConfig, EmulatorConfigInput } from './config';
export { DEMO_KEYS, demoConfig } from './demo/demo';

export interface EmulatorOptions {
  /** Interface to bind; default 127.0.0.1 (issue 3: loopback unless told otherwise). */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** A config (raw JSON as in the file, or already parsed); default: the built-in demo. */
  config?: EmulatorConfigInput | EmulatorConfig;
  /** Mount /__admin/clock and /__admin/faults. */
  admin?: boolean;
  /** Receives one line per request, and internal errors. */
  log?: (line: string) => void;
}

export interface RunningEmulator {
  /** `http://HOST:PORT`, no trailing slash: the base URL of both areas of the service. */
  url: string;
  host: string;
  port: number;
  clock: EmulatorClock;
  config: EmulatorConfig;
  /** Stops listening, ends held runsync requests and open connections. */
  close(): Promise<void>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SWEEP_INTERVAL_MS = 10_000;

function loadUsage(user: UserConfig, account: Account, nowMs: number): void {
  // Sorted by time, so the hourly series grow by appending.
  const events = user.usage.map((e) => ({ e, t: Date.parse(e.time) })).sort((a, b) => a.t - b.t);
  for (const { e, t } of events) {
    account.usage.add(e.serverlessId, t, { gpu: e.gpuAmount, cpu: e.cpuAmount, disk: e.diskAmount, fee: e.feeAmount });
  }
  const synthetic = user.syntheticUsage;
  if (!synthetic) return;
  // Whole hours before the current one: the current hour fills with the jobs run against the emulator.
  const endHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const specs = synthetic.endpoints ?? user.endpoints.map((e) => e.id);
  for (const spec of specs) {
    const s = typeof spec === 'string' ? { id: spec } : spec;
    generateUsage(
      {
        serverlessId: s.id,
        scale: s.scale ?? defaultScale(s.id, synthetic.seed),
        fromMs: endHour - Math.min(s.fromDaysAgo ?? synthetic.days, synthetic.days) * DAY_MS,
        untilMs: endHour - (s.untilDaysAgo ?? 0) * DAY_MS,
        seed: synthetic.seed,
      },
      (id, t, a) => account.usage.add(id, t, a),
    );
  }
}

function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const config = parseConfig(options.config ?? demoConfig());
  const host = options.host ?? '127.0.0.1';
  const clock = new EmulatorClock(config.now !== undefined ? new Date(config.now) : undefined, config.clockFrozen);
  const store = new BillingStore();
  const keys = new KeyRing();
  const owners = new Map<EndpointConfig, Account>();
  const accounts: Account[] = [];
  for (const user of config.users) {
    const account: Account = { id: user.id, endpoints: new Map(user.endpoints.map((e) => [e.id, e])), usage: store.forUser(user.id) };
    accounts.push(account);
    for (const e of user.endpoints) owners.set(e, account);
    for (const k of user.keys) keys.add(k, account);
    loadUsage(user, account, clock.now());
  }

  let origin = '';
  const files = new FileStore(clock);
  const workers = new WorkerRegistry(() => origin);
  const jobs = new JobQueue({ clock, retentionMs: config.retentionMinutes * 60_000, files, origin: () => origin, log: options.log, workers,
    // An endpoint created through the REST API (serverless/endpointWrites.ts) is in its account's map only.
    ownerOf: (e) => owners.get(e) ?? accounts.find((a) => a.endpoints.get(e.id) === e),
    versionOf: endpointVersion,
  });
  const faults = new FaultQueue();
  const stopping = new AbortController();
  const sweep = (): void => {
    jobs.sweep();
    files.sweep();
  };
  const server = createEmulatorServer({
    clock, keys, jobs, files, faults, workers, runsyncWaitMs: config.runsyncWaitMs,
    limiter: new RateLimiter(config.rateLimits, clock),
    opLimiter: new OperationLimiter(config.operationLimits),
    admin: options.admin ? { clock, faults, onClockMoved: sweep, livesOf: (id) => {
      const endpoint = [...owners.keys()].find((e) => e.id === id);
      return endpoint && jobs.livesOf(endpoint);
    } } : undefined,
    stopping: stopping.signal,
    log: options.log,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  origin = urlOf(host, port);
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  // `worker` endpoints start their workersMin processes now that the protocol's URLs are known.
  jobs.startWorkers(config.users.flatMap((u) => u.endpoints));

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    host,
    port,
    clock,
    config,
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        jobs.close();
        stopping.abort();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Held responses end at once (the abort above answers runsync); anything still open is cut.
        setTimeout(() => server.closeAllConnections(), 200).unref();
      });
      return closing;
    },
  };
}

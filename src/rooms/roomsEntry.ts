// The entry of dist/rooms.js: the rooms a session may never open, bundled apart from dist/extension.js so that
// activation parses only what every session needs (issues 28, 30). `load` is called once, on first use, with
// the host's instances of every module both bundles use (scripts/build.mjs decides which); only then do the
// rooms' modules run, as `require` below is evaluated lazily by the bundle.
import { provideHostModules } from './hostModules';
import type * as SharedErrors from '../core/http/errors';
import type * as SharedPrices from '../core/cost/endpointPrices';
import type * as SharedDurations from '../core/jobs/durationModel';

export interface Rooms {
  /** The Batch panel's host: starting, resuming and showing batches (src/batch). */
  batch: { manager: typeof import('../batch/batchManager'); resume: typeof import('../batch/batchResume'); groups: typeof import('../batch/batchJobsGroups') };
  /** Saving a finished job's outputs: reading its parts, downloads, decoding, files (src/jobs/jobOutputsRoom.ts, src/core/outputs). */
  outputs: typeof import('../jobs/jobOutputsRoom');
  /** Following the logs of a running job's worker (src/jobs/hostedWorkerLogs.ts), issue 28. */
  workerLogs: typeof import('../jobs/hostedWorkerLogs');
  /** The job panels' host (src/jobPanel). */
  jobPanel: typeof import('../jobPanel/jobPanel');
  /** Show Cost Chart (src/costChart). */
  costChart: typeof import('../costChart/costChartPanel');
  /**
   * What a room's modules get when they import shared state (error classes, the endpoint prices and job durations
   * stores): the real-editor test checks these are extension.js's own objects (one instance, not a copy).
   */
  probe: { errors: typeof SharedErrors; prices: typeof SharedPrices; durations: typeof SharedDurations };
  /** Starting the bundled emulator as a process: Use Local Emulator, and Serve Worker Locally's (src/connection). */
  emulator: typeof import('../connection/emulatorProcess');
  /** The batch grid (src/batchGrid) and Compare with… (src/compare), issue 31. */
  /** Edit / New / Delete Endpoint and the rollout watch (src/endpointForms), issue 28. */
  endpointForms: typeof import('../endpointForms/room');
  /** The service client's serverless write calls and their request schemas (src/core/serverless), issue 28. */
  serverlessWrites: typeof import('../core/serverless/serverlessWrites');
  grid: typeof import('../batchGrid/gridHost');
  compare: typeof import('../compare/compareHost');
  /** Tune Endpoint's panel and the reading of the workspace's jobs (src/tune), issue 29. */
  tune: typeof import('../tune/room');
  /** Serve Worker Locally's emulator (src/localWorker). */
  localWorker: typeof import('../localWorker/localWorkerRoom');
}

export function load(host: Readonly<Record<string, object>>): Rooms {
  provideHostModules(host);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const probe = { errors: require('../core/http/errors'), prices: require('../core/cost/endpointPrices'), durations: require('../core/jobs/durationModel') };
  return { probe, batch: { manager: require('../batch/batchManager'), resume: require('../batch/batchResume'), groups: require('../batch/batchJobsGroups') }, outputs: require('../jobs/jobOutputsRoom'), jobPanel: require('../jobPanel/jobPanel'), workerLogs: require('../jobs/hostedWorkerLogs'), costChart: require('../costChart/costChartPanel'), localWorker: require('../localWorker/localWorkerRoom'), emulator: require('../connection/emulatorProcess'), endpointForms: require('../endpointForms/room'), serverlessWrites: require('../core/serverless/serverlessWrites'), grid: require('../batchGrid/gridHost'), compare: require('../compare/compareHost'), tune: require('../tune/room') };
}

// The built emulator (dist/emulator.js, demo data) as a child process of the extension host, on a free port,
// for editor suites that need a service to talk to (the job suites and the memory benches).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../../src/core/service';
import type { JobRunnerApi } from '../../../src/jobs/registerJobs';
import { spawnEmulator } from '../../../src/connection/emulatorProcess';
import { activateExtension } from './extension';

/** The emulator's demo key with every permission (src/emulator/demo). */
const DEMO_KEY = 'demo-key-full';

export interface RunningEmulator {
  url: string;
  close(): Promise<void>;
}

/** `configFile`: an emulator config (JSON) instead of the demo data. */
export async function startEmulator(extensionPath: string, options: { configFile?: string } = {}): Promise<RunningEmulator> {
  const config = options.configFile ? ['--config', options.configFile] : [];
  // --exit-with-stdin: an extension host that is killed (a timed-out run) takes the emulator with it.
  // As the extension starts its own (a session of its own, below the editor's priority): what the suites measure
  // beside it is what a user's editor sees.
  const child = spawnEmulator(extensionPath, ['--port', '0', ...config]);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited (${code}): ${output}`));
    });
  });
  return {
    url,
    close: () => new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGTERM');
    }),
  };
}

/**
 * An emulator of `config` (an emulator config object: users, keys, endpoints, rate limits) instead of the demo
 * data: the config is written to a folder of its own, removed when the emulator is closed.
 */
export async function startEmulatorWith(extensionPath: string, config: object): Promise<RunningEmulator> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editor-emulator-'));
  const configFile = path.join(dir, 'emulator.json');
  fs.writeFileSync(configFile, JSON.stringify(config));
  const emulator = await startEmulator(extensionPath, { configFile }).catch((e: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  return { url: emulator.url, close: async () => { await emulator.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

/** What a suite that runs jobs on the demo emulator keeps: the job runner's API and the emulator it talks to. */
export interface EmulatorJobs {
  api: JobRunnerApi;
  emulator: RunningEmulator;
  /** The client the job runner uses (the extension's own kind, with its billing reader): for a test's own asks. */
  client: ServiceClient;
}

/**
 * The usual setup of the job suites: the extension activated, an emulator of the suite's own (demo data, or
 * `config`: an emulator config, e.g. the demo's with one endpoint changed), and the job runner pointed at it with
 * the demo key, so the suite does not depend on the user's connection.
 */
export async function startEmulatorJobs(config?: object): Promise<EmulatorJobs> {
  const ext = await activateExtension();
  const exported = ext.exports as { jobs?: JobRunnerApi } | undefined;
  if (!exported?.jobs) throw new Error('the extension exposes no job runner to tests (it must run in ExtensionMode.Test)');
  const api = exported.jobs;
  const emulator = config ? await startEmulatorWith(ext.extensionPath, config) : await startEmulator(ext.extensionPath);
  const client = api.createClient({ billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: DEMO_KEY });
  api.useClientSource({ getClient: async () => client, secrets: () => [DEMO_KEY] });
  return { api, emulator, client };
}

/** The job runner back on the user's connection, the emulator stopped. Safe after a setup that failed half-way. */
export async function stopEmulatorJobs(jobs: EmulatorJobs | undefined): Promise<void> {
  jobs?.api.useClientSource(undefined);
  await jobs?.emulator.close();
}

/**
 * The hooks of a job suite, registered in the calling `suite`: the emulator (of `config`, else the demo) and the
 * job runner on it for the whole suite (`ready` hears them), every editor closed after each test so the next one
 * starts with none.
 */
export function emulatorJobsInSuite(ready: (jobs: EmulatorJobs) => void, config?: object): void {
  let jobs: EmulatorJobs | undefined;
  suiteSetup(async () => {
    jobs = await startEmulatorJobs(config);
    ready(jobs);
  });
  suiteTeardown(() => stopEmulatorJobs(jobs));
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
}

// Entry point: reads like a table of contents. It creates the shared services and registers each feature;
// every feature pushes what it creates into context.subscriptions (through `activateFeature`). No network and
// no heavy work here (DEVELOPERS.md): features fetch lazily, when a view is shown or a command runs.
import * as vscode from 'vscode';
import { connectDemoProfile } from './demo/demoConnection';
import { createFeatureActivator, reportActivationError } from './log/featureActivation';
import { createExtensionLog } from './log/outputChannelLogger';
import { registerShowLogsCommand } from './log/showLogsCommand';
import { Settings } from './config/settings';
import { createServiceClient } from './core/http/client';
import { serverlessWritesOfRooms } from './rooms/rooms';
import { createWorkerBillingReader } from './core/billing/billingReader';
import { registerConnection, type ConnectionServices } from './connection/registerConnection';
import { registerEndpoints, type EndpointsServices } from './endpoints/registerEndpoints';
import { registerEndpointForms, type EndpointFormsApi } from './endpointForms/registerEndpointForms';
import { registerJobRunner, type JobRunnerApi } from './jobs/registerJobs';
import { registerLocalWorker, type LocalWorkerApi } from './localWorker/registerLocalWorker';
import { registerTune, type TuneServices } from './tune/registerTune';
import { tooltipSplit } from './core/tune/moneyTooltip';
import { sharedEndpointPrices } from './core/cost/endpointPrices';

export function activate(context: vscode.ExtensionContext): { sidebar: SidebarTestApi; jobs: JobRunnerApi | undefined; localWorker: LocalWorkerApi | undefined; tune: TuneServices | undefined } | undefined {
  // Measured from here to the return and logged: `npm run bench` reads it as host.activate (issue 11).
  const started = performance.now();
  // Services every feature shares.
  const log = createExtensionLog();
  context.subscriptions.push(log);
  const logger = log.logger;
  const activateFeature = createFeatureActivator(context, logger);

  const settings = new Settings();
  context.subscriptions.push(settings);
  // Billing bodies are read on a worker thread (started on the first refresh, not here): a year of hourly
  // billing would otherwise block this thread, which every extension of the window shares, for seconds.
  const billingReader = createWorkerBillingReader(context.asAbsolutePath('dist/billingWorker.js'), { warn: (m) => logger.warn(m) });
  context.subscriptions.push({ dispose: () => billingReader.dispose() });

  // Features: one line each. Show Logs first: the notification of any activation error below offers it.
  activateFeature('Show Logs', () => registerShowLogsCommand(log));
  let shared: ConnectionServices | undefined;
  activateFeature('Connection', () => void (shared = registerConnection(context, settings, logger, (s, l) => createServiceClient(s, { logger: l, billingReader, serverlessWrites: serverlessWritesOfRooms }), log)));
  // Every feature below needs the connection: when it could not start (reported above), none of them can.
  if (!shared) return undefined;
  const { connection, statusBar } = shared;
  let endpoints: EndpointsServices | undefined;
  activateFeature('Endpoints', () => void (endpoints = registerEndpoints(context, connection, statusBar, logger)));
  let endpointForms: EndpointFormsApi | undefined;
  activateFeature('Endpoint forms', () => {
    const feature = registerEndpointForms(context, connection, () => endpoints, logger);
    endpointForms = feature.api;
    return feature.disposables;
  });
  let jobs: JobRunnerApi | undefined;
  activateFeature('Job runner', () => {
    const feature = registerJobRunner({ context, connection, settings, logger, sidebarEndpoints: () => endpoints, billingReader,
      // Hosted worker logs go to the Worker Logs channel too, except a locally served worker's: it prints there already.
      workerLogsChannel: (service, endpointId) => {
        const served = localWorker?.server.served;
        return served && served.origin === service && served.endpointId === endpointId ? undefined : localWorker?.logs;
      } });
    jobs = feature.api;
    return feature.disposables;
  });
  // Live health in the Endpoints view looks at endpoints where a job of ours runs (it does not import src/jobs).
  const jobApi = jobs;
  if (endpoints && jobApi) {
    endpoints.tree.health.setRunningJobs({
      endpointIds: () => jobApi.history.all().filter((r) => jobApi.runner.isRunning(r.key)).map((r) => r.endpointId),
      onDidChange: jobApi.runner.onDidChangeRunning,
    });
    // The tooltip's "where the money went" (issue 29): this workspace's execution seconds in the window, priced.
    endpoints.tree.moneySplit = (id, fromMs, toMs, billedUsd) => tooltipSplit(billedUsd,
      jobApi.history.all().reduce((sum, r) => (r.endpointId === id && r.submittedAt >= fromMs && r.submittedAt < toMs ? sum + (r.executionTime ?? 0) / 1000 : sum), 0),
      sharedEndpointPrices.priceOf(connection.profile.billingBaseUrl, id, settings.batchGpuPrices())?.usdPerSecond);
  }

  let tune: TuneServices | undefined;
  activateFeature('Tune', () => {
    const feature = registerTune(context, connection, settings, () => jobApi?.history, logger);
    tune = feature.services;
    return feature.disposables;
  });

  let localWorker: LocalWorkerApi | undefined;
  activateFeature('Local worker', () => {
    const feature = registerLocalWorker(context, connection, settings, logger);
    localWorker = feature.api;
    return feature.disposables;
  });

  // npm start only: open connected to the emulator it started. Not awaited: activation never waits on it.
  void connectDemoProfile(connection, process.env, logger).catch((err) => reportActivationError('The npm start connection', err, logger));

  const took = (performance.now() - started).toFixed(2);
  logger.info(`activated ${context.extension.id} ${String(context.extension.packageJSON.version)} in ${vscode.env.appName} (activate took ${took} ms)`);
  // Test hooks for the real-editor suites only: never part of the API in a user's editor.
  return context.extensionMode === vscode.ExtensionMode.Test ? { sidebar: { connection, statusBar, endpoints, endpointForms }, jobs, localWorker, tune } : undefined;
}

/** What the sidebar's real-editor tests reach through `activate()`'s return value (test mode only). */
export interface SidebarTestApi {
  connection: ReturnType<typeof registerConnection>['connection'];
  statusBar: ReturnType<typeof registerConnection>['statusBar'];
  endpoints: EndpointsServices | undefined;
  endpointForms: EndpointFormsApi | undefined;
}

export function deactivate(): void {}

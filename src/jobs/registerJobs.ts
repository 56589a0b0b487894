// The job runner feature, wired: history, runner, panels, the Jobs view, CodeLens, diagnostics, status bar
// and notifications. extension.ts calls `registerJobRunner` once. Nothing here sends a request at
// activation: interrupted jobs are resumed after activation has returned.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { JobDurationModel, StreamingEndpoints } from '../core/jobs';
import { createServiceClient } from '../core/http/client';
import type { BillingReader } from '../core/billing/billingReader';
import type { ConnectionSettings, ServiceClient } from '../core/service';
import type { Settings } from '../config/settings';
import { HistoryStore } from '../history/historyStore';
import { logJobSteps } from './jobLog';
import { JobsTreeProvider } from '../history/jobsView';
import type { JobPanels } from '../jobPanel/jobPanel';
import { rooms, roomsLoaded, serverlessWritesOfRooms } from '../rooms/rooms';
import type { Rooms } from '../rooms/roomsEntry';
import { JOB_PANEL_VIEW_TYPE, JOBS_VIEW_ID, JobCommands } from './commandIds';
import { EndpointMemory } from './endpointMemory';
import type { EndpointSource } from './endpointPicker';
import type { EndpointsServices } from '../endpoints/registerEndpoints';
import { InputCodeLensProvider, registerInputCodeLens } from './inputCodeLens';
import { InputDiagnostics } from './inputDiagnostics';
import { JobActions, registerJobCommands } from './jobCommands';
import { WorkspaceOutputsWriter } from './jobOutputs';
import { LocalStatus, type JobRecord } from './jobRecord';
import { describeJob } from '../core/jobs/jobLife';
import { WorkerLogsDoor } from './workerLogsDoor';
import { JobRunner } from './jobRunner';
import type { ClientSource, JobPriceSource } from './runnerTypes';
import { sharedEndpointPrices } from '../core/cost';
import { createRunningJobsStatusBar } from './runningJobsStatusBar';
import { registerBatches, type BatchApi } from '../batch/registerBatch';
import { registerGrid, restoreBatchPanel } from '../batchGrid/registerGrid';
import type { BatchPanel } from '../batch/batchPanel';
import { registerCompare } from '../compare/registerCompare';

/** What the real-editor tests reach through the extension's exports (ExtensionMode.Test only). */
/** globalState key of what the poller learned (keys are jobs base URL + endpoint id: nothing secret). */
const DURATIONS_KEY = 'serverlessGpu.jobDurations';
/** globalState key of which endpoints stream their text (jobs base URL + endpoint id: nothing secret). */
const STREAMING_KEY = 'serverlessGpu.streamingEndpoints';
/** How soon after a batch job ends the learned durations are saved (one write for many rows). */
const DURATIONS_SAVE_MS = 2000;

export interface JobRunnerApi {
  runner: JobRunner;
  /** Hosted worker logs of running jobs (issue 28). */
  workerLogs: WorkerLogsDoor;
  history: HistoryStore;
  /** The job panels: their room (dist/rooms.js) is loaded on first use. */
  readonly panels: JobPanels;
  actions: JobActions;
  diagnostics: InputDiagnostics;
  memory: EndpointMemory;
  outputs: WorkspaceOutputsWriter;
  /** Batches (issue 23): they share the connection, the endpoint memory, the durations and the job panels. */
  batches: BatchApi;
  /** Tests: follow jobs with this client source instead of the active connection (undefined: back to it). */
  useClientSource(source: ClientSource | undefined): void;
  /** A fresh history read back from workspaceState, as the next window would. */
  reloadHistoryFromStorage(): HistoryStore;
  /** The job durations as the next window would read them back from globalState. */
  storedDurations(): JobDurationModel;
  /**
   * A service client made by the extension's own bundle: its typed errors are the classes the runner checks
   * with instanceof (a client built by the test bundle throws look-alikes, so a 404 would not read as one).
   */
  createClient(settings: ConnectionSettings): ServiceClient;
  /** dist/rooms.js (src/rooms): whether it is loaded, what its modules see of the shared state, and this bundle's. */
  rooms: { loaded(): boolean; probe(): Rooms['probe']; host: { sharedEndpointPrices: typeof sharedEndpointPrices } };
  /** The Batch panel's serializer (it restores the grid too), for a panel and a state of the test's own (issue 31). */
  restoreBatchPanel(panel: vscode.WebviewPanel, state: unknown): Promise<BatchPanel | undefined>;
}

export interface JobRunnerDeps {
  context: vscode.ExtensionContext;
  connection: ClientSource;
  settings: Settings;
  logger: Logger;
  /** The sidebar's endpoints (billing records, added ones): suggestions for the endpoint pickers. */
  sidebarEndpoints?: () => EndpointsServices | undefined;
  /** The extension's billing reader (its worker thread), for the clients the test API hands out. */
  billingReader?: BillingReader;
  /** The Worker Logs channel, where hosted worker logs go too (issue 28). */
  workerLogsChannel?: (service: string, endpointId: string) => { append(text: string): void } | undefined;
}

export function registerJobRunner(deps: JobRunnerDeps): { disposables: vscode.Disposable[]; api: JobRunnerApi } {
  const { context, settings, logger } = deps;
  const history = new HistoryStore(context.workspaceState, () => settings.historyLimit());
  const outputs = new WorkspaceOutputsWriter(settings, context.globalStorageUri, context.globalState);
  // Learned job durations survive restarts, so the first job of a session on a known endpoint is already polled
  // near its predicted end (src/core/jobs/pollPlan.ts) rather than at the ~1 s beat used for unknown ones.
  const durations = JobDurationModel.fromJSON(context.globalState.get(DURATIONS_KEY));
  // Which endpoints stream is learned once and kept, so a plain endpoint's output is not fetched twice (through
  // /stream too) in every new window (src/core/jobs/followStream.ts).
  const streaming = StreamingEndpoints.fromJSON(context.globalState.get(STREAMING_KEY));
  // A job's cost estimate is priced as a batch's: the user's gpuPrices, else the table by the endpoint's GPUs.
  const prices: JobPriceSource = {
    learn: (client, endpointId) => sharedEndpointPrices.learn(client, endpointId),
    priceOf: (client, endpointId) => sharedEndpointPrices.priceOf(client.settings.billingBaseUrl, endpointId, settings.batchGpuPrices()),
  };
  const runner = new JobRunner(history, deps.connection, outputs, durations, streaming, prices);
  // Batches send through the same connection as single jobs (the tests' own client included).
  let clientSource: ClientSource = deps.connection;
  // "Used here" is remembered per service: the jobs base URL of the profile jobs go to now.
  const memory = new EndpointMemory(context.workspaceState, () => clientSource.profile?.jobsBaseUrl ?? '');
  const diagnostics = new InputDiagnostics();
  const codeLens = new InputCodeLensProvider(memory);

  let actions: JobActions | undefined;
  // The follower is a room (dist/rooms.js), loaded when a job first runs.
  const workerLogs = new WorkerLogsDoor({
    history, isRunning: (key) => runner.isRunning(key), getClient: () => clientSource.getClient(),
    channel: (service, endpointId) => deps.workerLogsChannel?.(service, endpointId), logger,
  }, () => rooms().workerLogs);
  // The job panel host is a room (src/rooms): loaded when a panel is first opened or restored after a reload.
  let jobPanels: JobPanels | undefined;
  const panelsNow = (): JobPanels => (jobPanels ??= new (rooms().jobPanel.JobPanels)(
    context.extensionUri,
    history,
    {
      runAgain: (r) => actions!.runAgain(r),
      runWithSeed: (r, seed) => actions!.runWithSeed(r, seed),
      cancel: (key) => void vscode.commands.executeCommand(JobCommands.stopWaiting, key),
      cancelJob: (key) => void vscode.commands.executeCommand(JobCommands.cancelJob, key),
      retry: (key) => void vscode.commands.executeCommand(JobCommands.retryJob, key),
      isRunning: (key) => runner.isRunning(key),
      errorActions: (key) => runner.errorActions(key),
      outputRoots: () => outputs.roots(),
      retryWait: (key) => runner.retryWait(key),
      onDidChangeWaits: runner.onDidChangeWaits,
      workerLogs: (key) => workerLogs.linesOf(key),
      onDidChangeWorkerLogs: workerLogs.onDidAppend,
    },
    logger,
  ));
  const panels: PanelDoor = { open: (key, options) => panelsNow().open(key, options), isVisible: (key) => jobPanels?.isVisible(key) ?? false, activeKey: () => jobPanels?.activeKey() };
  const commandDeps = { runner, history, panels, memory, diagnostics, codeLens, endpointSources: [endpointsOfSidebar(deps.sidebarEndpoints)] };
  actions = new JobActions(commandDeps);

  const tree = new JobsTreeProvider(history, (key) => runner.isRunning(key), (key) => runner.retryWait(key));
  const view = vscode.window.createTreeView(JOBS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: false });
  const updateBadge = (count: number): void => {
    view.badge = count > 0 ? { value: count, tooltip: `${count} job${count === 1 ? '' : 's'} running` } : undefined;
  };

  const patternChanged = new vscode.EventEmitter<void>();
  const disposables: vscode.Disposable[] = [
    history,
    workerLogs,
    runner,
    diagnostics,
    { dispose: () => jobPanels?.dispose() },
    vscode.window.registerWebviewPanelSerializer(JOB_PANEL_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state) => panelsNow().restore(panel, state) }),
    tree,
    view,
    patternChanged,
    registerInputCodeLens(codeLens, () => settings.inputFilePattern(), patternChanged.event),
    createRunningJobsStatusBar(runner, history),
    logJobSteps(history, logger),
    runner.onDidChangeWaits(() => tree.refresh()),
    runner.onDidChangeRunning((n) => {
      updateBadge(n);
      tree.refresh();
    }),
    runner.onDidFinish((record) => notifyIfHidden(record, panels)),
    // CANCELLED and TIMED_OUT also show in the status bar for a moment, whether or not the panel is visible.
    runner.onDidFinish((record) => {
      const icon = record.status === 'CANCELLED' ? '$(circle-slash)' : record.status === 'TIMED_OUT' ? '$(watch)' : undefined;
      const life = describeJob(record);
      if (icon) vscode.window.setStatusBarMessage(`${icon} Job on ${record.endpointId} ${life.statusText.toLowerCase()} · ${life.durationText}`, 8000);
    }),
    runner.onDidFinish(() => void context.globalState.update(DURATIONS_KEY, durations.toJSON())),
    runner.onDidFinish(() => void context.globalState.update(STREAMING_KEY, streaming.toJSON())),
    settings.onDidChange((e) => {
      if (e.affects('jobsInputFilePattern')) patternChanged.fire();
      if (e.affects('jobsHistoryLimit')) void history.applyLimit();
    }),
    ...registerJobCommands(actions, commandDeps),
  ];
  const batches = registerBatches(
    { extensionUri: context.extensionUri, logger, settings, clients: () => clientSource, memory, endpointSources: commandDeps.endpointSources, durations, history, outputs, panels, inputFilePattern: () => settings.inputFilePattern(), jobsView: tree,
      onSessionStart: (s) => disposables.push(s.onDidChangeRow((row) => row.phase === 'ended' && saveDurations())) },
    logger,
  );
  disposables.push(...batches.disposables);
  // A batch's jobs teach the durations too (its estimates rest on them): kept a few seconds after a row ends, so the
  // next window (a reload, a crash) estimates from them instead of saying "unknown" (issue 27 item 7).
  let saveSoon: ReturnType<typeof setTimeout> | undefined;
  const saveDurations = (): void => {
    saveSoon ??= setTimeout(() => {
      saveSoon = undefined;
      void context.globalState.update(DURATIONS_KEY, durations.toJSON());
    }, DURATIONS_SAVE_MS);
  };
  const gridDeps = { extensionUri: context.extensionUri, logger, manager: () => batches.api.manager, outputRoots: () => outputs.roots() };
  disposables.push(
    new vscode.Disposable(() => saveSoon && clearTimeout(saveSoon)),
    // The grid of a batch and Compare with… (issue 31): commands only; their rooms load on first use.
    ...registerGrid(gridDeps),
    ...registerCompare({ extensionUri: context.extensionUri, logger, history, panels }),
  );

  // After activation: follow again the jobs the last window left running (SPEC 8.6 retention).
  const resume = setTimeout(() => {
    void runner.resumeInterrupted().then(
      (n) => n && logger.info(`resumed ${n} job(s) left running when the window closed`),
      (e: unknown) => logger.error('resuming interrupted jobs failed', e),
    );
  }, 0);
  disposables.push(new vscode.Disposable(() => clearTimeout(resume)));

  const api: JobRunnerApi = {
    runner,
    workerLogs,
    history,
    get panels() { return panelsNow(); },
    actions,
    diagnostics,
    memory,
    outputs,
    batches: batches.api,
    useClientSource: (source) => {
      clientSource = source ?? deps.connection;
      runner.setClientSource(clientSource);
    },
    reloadHistoryFromStorage: () => new HistoryStore(context.workspaceState, () => settings.historyLimit()),
    storedDurations: () => JobDurationModel.fromJSON(context.globalState.get(DURATIONS_KEY)),
    // With the extension's own billing reader (a batch reads its billed amount after it ends); never an inline
    // parser: extension.js carries no billing parser at all (issue 11).
    createClient: (settings) => createServiceClient(settings, { serverlessWrites: serverlessWritesOfRooms, ...(deps.billingReader ? { billingReader: deps.billingReader } : {}) }),
    rooms: { loaded: roomsLoaded, probe: () => rooms().probe, host: { sharedEndpointPrices } },
    restoreBatchPanel: (panel, state) => restoreBatchPanel(gridDeps, panel, state),
  };
  return { disposables, api };
}

/** A job that ends while its panel is hidden (or closed) gets a notification with "Open". */
/** The job panels as the rest of this feature sees them, without loading their room to ask what is not open. */
type PanelDoor = Pick<JobPanels, 'open' | 'isVisible' | 'activeKey'>;

function notifyIfHidden(record: JobRecord, panels: PanelDoor): void {
  if (record.status === LocalStatus.stopped || panels.isVisible(record.key)) return;
  const life = describeJob(record);
  const status = record.status === LocalStatus.error ? 'could not be followed' : life.statusText.toLowerCase();
  const text = `Job on ${record.endpointId} ${status}${record.error ? `: ${record.error.split('\n')[0]}` : ''}${life.durationText ? ` · ${life.durationText}` : ''}`;
  const show = record.status === 'COMPLETED' ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  void show(text, 'Open').then((choice) => {
    if (choice === 'Open') panels.open(record.key);
  });
}

/** The endpoints the sidebar's tree has loaded (none before its first load: typing an id still works). */
function endpointsOfSidebar(get: (() => EndpointsServices | undefined) | undefined): EndpointSource {
  return () => {
    const state = get?.()?.tree.current;
    if (!state || state.kind !== 'loaded') return [];
    // Names come with the endpoint list (issue 10); a deleted endpoint (only in billing) can run nothing.
    // Public models are offered from their catalog, in their own group (endpointPicker.ts).
    return state.model.endpoints.filter((e) => !e.deleted && !e.publicModel).map((e) => ({ id: e.id, ...(e.displayName ? { label: e.displayName } : {}) }));
  };
}

// Serve Worker Locally (issue 14 item 3): a Python file that calls `runpod.serverless.start` is served by the
// bundled emulator as the one worker of a `worker` endpoint named after it, and the "Local worker" connection is
// selected, so every input file, CodeLens and command of the extension runs jobs on it with what hosted endpoints
// have (queue, streaming, cancel, health, outputs saved, history). Worker Logs follow what it prints. Stop and
// Restart Worker; restart on save as an option; the status bar says a local worker is serving.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Settings } from '../config/settings';
import type { Profile } from '../config/profileSettings';
import type { Logger } from '../core/log';
import type { Connection } from '../connection/connection';
import { guardCommand } from '../errors/notify';
import { LocalWorkerServer, type ServedWorker } from './localWorkerServer';
import { checkRunpod, pickInterpreter } from './pythonInterpreter';
import { callsServerlessStart, isInWorkerFolder, LOCAL_WORKER_KEY, missingRunpodMessage, startCallLine } from './workerFile';
import { WorkerLogsChannel } from './workerLogsChannel';

export const LOCAL_WORKER_PROFILE_NAME = 'Local worker';

export const LocalWorkerCommands = {
  serve: 'serverlessGpu.serveWorkerLocally',
  stop: 'serverlessGpu.stopLocalWorker',
  restart: 'serverlessGpu.restartLocalWorker',
  showLogs: 'serverlessGpu.showWorkerLogs',
} as const;

export interface LocalWorkerApi {
  server: LocalWorkerServer;
  logs: WorkerLogsChannel;
}

export function registerLocalWorker(context: vscode.ExtensionContext, connection: Connection, settings: Settings, logger: Logger): { disposables: vscode.Disposable[]; api: LocalWorkerApi } {
  const logs = new WorkerLogsChannel(logger);
  const status = vscode.window.createStatusBarItem('serverlessGpu.localWorker', vscode.StatusBarAlignment.Left, 90);
  status.name = 'Serverless GPU: Local worker';
  status.command = LocalWorkerCommands.showLogs;
  const changed = new vscode.EventEmitter<void>();
  const server = new LocalWorkerServer(context.extensionUri.fsPath, logger, () => {
    // It exited on its own (crashed, killed): nothing is left to follow, and a follower would poll a dead port.
    logs.stop();
    logs.append('The local worker\'s emulator stopped.');
    update();
  });
  const removeProfile = connection.profiles.addSource((): Profile | undefined =>
    server.served ? { name: LOCAL_WORKER_PROFILE_NAME, billingBaseUrl: server.served.origin, jobsBaseUrl: server.served.origin, builtIn: true } : undefined);

  function update(): void {
    const s = server.served;
    if (s) {
      status.text = `$(server-process) Local worker: ${path.basename(s.file)}`;
      status.tooltip = `Serving ${s.file} with ${s.python} on ${s.origin} (endpoint "${s.endpointId}"). Click for Worker Logs.`;
      status.show();
    } else {
      status.hide();
    }
    void vscode.commands.executeCommand('setContext', 'serverlessGpu.localWorkerServing', s !== undefined);
    changed.fire();
  }

  async function serve(arg?: unknown): Promise<ServedWorker | undefined> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== 'file' || !uri.fsPath.endsWith('.py')) {
      void vscode.window.showErrorMessage('Serve Worker Locally: open or select a Python file that calls runpod.serverless.start.');
      return undefined;
    }
    // It runs code from the workspace: never in a workspace the user has not trusted.
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage('Serve Worker Locally runs the file\'s code: trust this workspace first.');
      return undefined;
    }
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    if (!callsServerlessStart(text)) {
      void vscode.window.showErrorMessage(`${path.basename(uri.fsPath)} does not call runpod.serverless.start({"handler": ...}): it is not a worker.`);
      return undefined;
    }
    const { python, source } = await pickInterpreter(settings, uri);
    const check = await checkRunpod(python);
    if (!check.ok) {
      void vscode.window.showErrorMessage(missingRunpodMessage(python, check.detail));
      return undefined;
    }
    logs.append(`Serving ${uri.fsPath} with ${python} (${source}; runpod ${check.version})`);
    const served = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Starting the local worker' }, () => server.start(uri.fsPath, python));
    await connection.setApiKey(LOCAL_WORKER_KEY, { name: LOCAL_WORKER_PROFILE_NAME, billingBaseUrl: served.origin, jobsBaseUrl: served.origin, builtIn: true });
    await connection.switchProfile(LOCAL_WORKER_PROFILE_NAME);
    logs.start(served.origin, served.endpointId);
    update();
    void vscode.window.showInformationMessage(`Local worker serving ${path.basename(uri.fsPath)} as endpoint "${served.endpointId}"; the "${LOCAL_WORKER_PROFILE_NAME}" connection is selected.`);
    return served;
  }

  async function restart(): Promise<ServedWorker | undefined> {
    const s = server.served;
    if (!s) return serve();
    logs.append(`Restarting the worker of ${s.file}`);
    const served = await server.start(s.file, s.python);
    logs.start(served.origin, served.endpointId);
    update();
    return served;
  }

  async function stop(): Promise<void> {
    logs.stop();
    server.served = undefined;
    await server.stop();
    if (connection.profile.name === LOCAL_WORKER_PROFILE_NAME) await connection.switchProfile('Default');
    logs.append('Local worker stopped.');
    update();
  }

  const guard = <A extends unknown[], R>(fn: (...a: A) => R | Promise<R>) => guardCommand(fn, logger, () => connection.secrets());

  const codeLens: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(doc) {
      const line = startCallLine(doc.getText());
      if (line < 0) return [];
      const range = new vscode.Range(line, 0, line, 0);
      if (server.served?.file === doc.uri.fsPath) {
        return [
          new vscode.CodeLens(range, { title: '$(debug-restart) Restart Worker', command: LocalWorkerCommands.restart }),
          new vscode.CodeLens(range, { title: '$(debug-stop) Stop Worker', command: LocalWorkerCommands.stop }),
          new vscode.CodeLens(range, { title: '$(output) Worker Logs', command: LocalWorkerCommands.showLogs }),
        ];
      }
      return [new vscode.CodeLens(range, { title: '$(play) Serve Worker Locally', command: LocalWorkerCommands.serve, arguments: [doc.uri] })];
    },
  };

  const disposables: vscode.Disposable[] = [
    logs, status, changed, server, { dispose: removeProfile },
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, codeLens),
    vscode.commands.registerCommand(LocalWorkerCommands.serve, guard(serve)),
    vscode.commands.registerCommand(LocalWorkerCommands.restart, guard(restart)),
    vscode.commands.registerCommand(LocalWorkerCommands.stop, guard(stop)),
    vscode.commands.registerCommand(LocalWorkerCommands.showLogs, () => logs.channel.show(true)),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      const s = server.served;
      // Not awaited by anyone: guarded, so a failed restart is shown instead of rejecting unhandled. Restarts of
      // several saves (Save All) run one after the other in the server.
      if (s && settings.localWorkerRestartOnSave() && doc.languageId === 'python' && isInWorkerFolder(s.file, doc.uri.fsPath)) void guard(restart)();
    }),
  ];
  return { disposables, api: { server, logs } };
}

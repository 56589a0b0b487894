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
import { rooms } from '../rooms/rooms';
import type { LocalWorkerRoom } from './localWorkerRoom';
import type { LocalWorkerServer, ServedWorker } from './localWorkerServer';
import { isInWorkerFolder, LOCAL_WORKER_PROFILE_NAME, startCallLine } from './workerFile';
import type { WorkerLogsChannel } from './workerLogsChannel';

export { LOCAL_WORKER_PROFILE_NAME };

export const LocalWorkerCommands = {
  serve: 'serverlessGpu.serveWorkerLocally',
  stop: 'serverlessGpu.stopLocalWorker',
  restart: 'serverlessGpu.restartLocalWorker',
  showLogs: 'serverlessGpu.showWorkerLogs',
} as const;

export interface LocalWorkerApi {
  /** The emulator serving the worker and its logs: their room (dist/rooms.js) is loaded on first use. */
  readonly server: LocalWorkerServer;
  readonly logs: WorkerLogsChannel;
}

export function registerLocalWorker(context: vscode.ExtensionContext, connection: Connection, settings: Settings, logger: Logger): { disposables: vscode.Disposable[]; api: LocalWorkerApi } {
  const status = vscode.window.createStatusBarItem('serverlessGpu.localWorker', vscode.StatusBarAlignment.Left, 90);
  status.name = 'Serverless GPU: Local worker';
  status.command = LocalWorkerCommands.showLogs;
  const changed = new vscode.EventEmitter<void>();
  // Serving is a room (src/rooms): loaded on the first Serve Worker Locally, or Show Worker Logs.
  let loaded: LocalWorkerRoom | undefined;
  const room = (): LocalWorkerRoom => (loaded ??= new (rooms().localWorker.LocalWorkerRoom)(context.extensionUri.fsPath, connection, settings, logger, update));
  /** What is served, without loading the room when nothing ever was. */
  const servedNow = (): ServedWorker | undefined => loaded?.server.served;
  const removeProfile = connection.profiles.addSource((): Profile | undefined => {
    const s = servedNow();
    return s ? { name: LOCAL_WORKER_PROFILE_NAME, billingBaseUrl: s.origin, jobsBaseUrl: s.origin, builtIn: true } : undefined;
  });

  function update(): void {
    const s = servedNow();
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
  const serve = (arg?: unknown): Promise<ServedWorker | undefined> => room().serve(arg);
  const restart = (): Promise<ServedWorker | undefined> => room().restart();
  const stop = async (): Promise<void> => loaded?.stop();

  const guard = <A extends unknown[], R>(fn: (...a: A) => R | Promise<R>) => guardCommand(fn, logger, () => connection.secrets());

  const codeLens: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(doc) {
      const line = startCallLine(doc.getText());
      if (line < 0) return [];
      const range = new vscode.Range(line, 0, line, 0);
      if (servedNow()?.file === doc.uri.fsPath) {
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
    status, changed, { dispose: () => loaded?.dispose() }, { dispose: removeProfile },
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, codeLens),
    vscode.commands.registerCommand(LocalWorkerCommands.serve, guard(serve)),
    vscode.commands.registerCommand(LocalWorkerCommands.restart, guard(restart)),
    vscode.commands.registerCommand(LocalWorkerCommands.stop, guard(stop)),
    vscode.commands.registerCommand(LocalWorkerCommands.showLogs, () => room().logs.channel.show(true)),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      const s = servedNow();
      // Not awaited by anyone: guarded, so a failed restart is shown instead of rejecting unhandled. Restarts of
      // several saves (Save All) run one after the other in the server.
      if (s && settings.localWorkerRestartOnSave() && doc.languageId === 'python' && isInWorkerFolder(s.file, doc.uri.fsPath)) void guard(restart)();
    }),
  ];
  return { disposables, api: { get server() { return room().server; }, get logs() { return room().logs; } } };
}

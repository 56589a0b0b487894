// Serving a worker locally, the part that runs only once a user asks for it (a room: dist/rooms.js, src/rooms):
// the interpreter and its runpod check, the emulator that serves the file, Worker Logs following it, and the
// "Local worker" connection selected. registerLocalWorker.ts keeps the commands, the CodeLens and the status bar,
// and loads this on the first Serve Worker Locally (or Show Worker Logs).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Settings } from '../config/settings';
import type { Logger } from '../core/log';
import type { Connection } from '../connection/connection';
import { LocalWorkerServer, type ServedWorker } from './localWorkerServer';
import { checkRunpod, pickInterpreter } from './pythonInterpreter';
import { callsServerlessStart, LOCAL_WORKER_KEY, LOCAL_WORKER_PROFILE_NAME, missingRunpodMessage } from './workerFile';
import { WorkerLogsChannel } from './workerLogsChannel';

export class LocalWorkerRoom implements vscode.Disposable {
  readonly logs: WorkerLogsChannel;
  readonly server: LocalWorkerServer;

  /** `changed`: what is served changed (the status bar, the CodeLens and the connection's profiles follow). */
  constructor(extensionPath: string, private readonly connection: Connection, private readonly settings: Settings, logger: Logger, private readonly changed: () => void) {
    this.logs = new WorkerLogsChannel(logger);
    this.server = new LocalWorkerServer(extensionPath, logger, () => {
      // It exited on its own (crashed, killed): nothing is left to follow, and a follower would poll a dead port.
      this.logs.stop();
      this.logs.append('The local worker\'s emulator stopped.');
      changed();
    });
  }

  dispose(): void {
    this.logs.dispose();
    this.server.dispose();
  }

  async serve(arg?: unknown): Promise<ServedWorker | undefined> {
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
    const { python, source } = await pickInterpreter(this.settings, uri);
    const check = await checkRunpod(python);
    if (!check.ok) {
      void vscode.window.showErrorMessage(missingRunpodMessage(python, check.detail));
      return undefined;
    }
    this.logs.append(`Serving ${uri.fsPath} with ${python} (${source}; runpod ${check.version})`);
    const served = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Starting the local worker' }, () => this.server.start(uri.fsPath, python));
    await this.connection.setApiKey(LOCAL_WORKER_KEY, { name: LOCAL_WORKER_PROFILE_NAME, billingBaseUrl: served.origin, jobsBaseUrl: served.origin, builtIn: true });
    await this.connection.switchProfile(LOCAL_WORKER_PROFILE_NAME);
    this.logs.start(served.origin, served.endpointId);
    this.changed();
    void vscode.window.showInformationMessage(`Local worker serving ${path.basename(uri.fsPath)} as endpoint "${served.endpointId}"; the "${LOCAL_WORKER_PROFILE_NAME}" connection is selected.`);
    return served;
  }

  async restart(): Promise<ServedWorker | undefined> {
    const s = this.server.served;
    if (!s) return this.serve();
    this.logs.append(`Restarting the worker of ${s.file}`);
    const served = await this.server.start(s.file, s.python);
    this.logs.start(served.origin, served.endpointId);
    this.changed();
    return served;
  }

  async stop(): Promise<void> {
    this.logs.stop();
    this.server.served = undefined;
    await this.server.stop();
    if (this.connection.profile.name === LOCAL_WORKER_PROFILE_NAME) await this.connection.switchProfile('Default');
    this.logs.append('Local worker stopped.');
    this.changed();
  }
}

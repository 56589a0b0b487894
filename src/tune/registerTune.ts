// Registers "Tune Endpoint…" (issue 29) on an endpoint of the Endpoints view: one Tune panel per endpoint,
// fed by this workspace's jobs: the Jobs history and the rows of the batch manifests (batch.jsonl) in it.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { Connection } from '../connection/connection';
import type { Settings } from '../config/settings';
import { guardCommand } from '../errors/notify';
import { endpointIdOf } from '../endpoints/endpointItems';
import { modalConfirm } from '../endpoints/endpointCommands';
import type { HistoryStore } from '../history/historyStore';
import { manifestSamples, mergeSamples } from '../core/tune/manifestSamples';
import type { JobSample } from '../core/tune/traffic';
import { TunePanel, type TuneDeps } from './tunePanel';

/** The Jobs history, and every batch manifest of the workspace (read off the thread, parsed in slices). */
async function workspaceJobs(history: HistoryStore | undefined): Promise<JobSample[]> {
  const files = await vscode.workspace.findFiles('**/batch.jsonl', '**/node_modules/**', 200);
  const rows: Awaited<ReturnType<typeof manifestSamples>> = [];
  for (const f of files) {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(f));
    rows.push(...(await manifestSamples(text)));
  }
  return mergeSamples(history?.all() ?? [], rows);
}

export const TUNE_COMMAND = 'serverlessGpu.tuneEndpoint';

export interface TuneServices {
  panels: Map<string, TunePanel>;
  /** Replaced by the real-editor tests only (VS Code refuses modal dialogs to an extension under test). */
  deps: Pick<TuneDeps, 'confirm' | 'applyEndpointSettings'>;
}

export function registerTune(context: vscode.ExtensionContext, connection: Connection, settings: Settings, history: () => HistoryStore | undefined, logger: Logger): { services: TuneServices; disposables: vscode.Disposable[] } {
  const services: TuneServices = { panels: new Map(), deps: { confirm: modalConfirm } };
  const open = async (arg?: unknown): Promise<TunePanel | undefined> => {
    const endpointId = endpointIdOf(arg) ?? await vscode.window.showInputBox({ prompt: 'Endpoint id to tune' });
    if (!endpointId) return undefined;
    const existing = services.panels.get(endpointId);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = new TunePanel(endpointId, {
      extensionUri: context.extensionUri, logger,
      client: () => connection.getClient(),
      jobs: () => workspaceJobs(history()),
      gpuPrices: () => settings.batchGpuPrices(),
      confirm: (m, d, a) => services.deps.confirm(m, d, a),
      applyEndpointSettings: services.deps.applyEndpointSettings,
    }, () => services.panels.delete(endpointId));
    services.panels.set(endpointId, panel);
    return panel;
  };
  const disposables: vscode.Disposable[] = [
    vscode.commands.registerCommand(TUNE_COMMAND, guardCommand(open, logger, () => connection.secrets())),
    { dispose: () => { for (const p of services.panels.values()) p.dispose(); } },
  ];
  return { services, disposables };
}

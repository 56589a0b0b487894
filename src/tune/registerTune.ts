// Registers "Tune Endpoint…" (issue 29) on an endpoint of the Endpoints view: one Tune panel per endpoint,
// fed by the Jobs history. The batch manifests' rows are not read yet (their jobs are in the history only
// when opened from it); the view says which jobs it replays.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { Connection } from '../connection/connection';
import type { Settings } from '../config/settings';
import { guardCommand } from '../errors/notify';
import { endpointIdOf } from '../endpoints/endpointItems';
import { modalConfirm } from '../endpoints/endpointCommands';
import type { HistoryStore } from '../history/historyStore';
import { TunePanel, type TuneDeps } from './tunePanel';

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
      jobs: () => history()?.all() ?? [],
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

// Registers "Tune Endpoint…" (issue 29) on an endpoint of the Endpoints view: one Tune panel per endpoint,
// fed by this workspace's jobs: the Jobs history and the rows of the batch manifests (batch.jsonl) in it. Only
// the command lives here; the panel is a room (src/tune/room.ts), loaded on first use.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { Connection } from '../connection/connection';
import type { Settings } from '../config/settings';
import { guardCommand } from '../errors/notify';
import { endpointIdOf } from '../endpoints/endpointItems';
import type { HistoryStore } from '../history/historyStore';
import { rooms } from '../rooms/rooms';
import type { TunePanel, TuneDeps } from './tunePanel';

export const TUNE_COMMAND = 'serverlessGpu.tuneEndpoint';

export interface TuneServices {
  panels: Map<string, TunePanel>;
  /** Replaced by the real-editor tests only. */
  deps: Pick<TuneDeps, 'applyEndpointSettings'>;
}

export function registerTune(context: vscode.ExtensionContext, connection: Connection, settings: Settings, history: () => HistoryStore | undefined, logger: Logger): { services: TuneServices; disposables: vscode.Disposable[] } {
  const services: TuneServices = { panels: new Map(), deps: { applyEndpointSettings: applyThroughForms } };
  const open = async (arg?: unknown): Promise<TunePanel | undefined> => {
    const endpointId = endpointIdOf(arg) ?? await vscode.window.showInputBox({ prompt: 'Endpoint id to tune' });
    if (!endpointId) return undefined;
    const existing = services.panels.get(endpointId);
    if (existing) {
      existing.reveal();
      return existing;
    }
    // The panel's room (dist/rooms.js) loads here, on the first Tune Endpoint of the session.
    const room = rooms().tune;
    const panel = new room.TunePanel(endpointId, {
      extensionUri: context.extensionUri, logger,
      client: () => connection.getClient(),
      jobs: () => room.workspaceJobs(history()),
      gpuPrices: () => settings.batchGpuPrices(),
      applyEndpointSettings: (c, id, change, note) => services.deps.applyEndpointSettings(c, id, change, note),
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

/**
 * Apply's endpoint-edit path (issue 28 merged with 29): the forms' internal command, which reads the endpoint,
 * checks the values, asks the one question (the readable diff, its money and the replay's figures as `note`),
 * PATCHes exactly the change and follows the rollout. Tune's change is in the PATCH body's words
 * (workers.min/max/idleTimeout, scaling); the command takes the forms'. True when the change was applied.
 */
async function applyThroughForms(_client: unknown, endpointId: string, change: Record<string, unknown>, note: readonly string[]): Promise<boolean> {
  // The command says itself what became of it (declined, invalid, refused): nothing more to say here.
  const outcome = await vscode.commands.executeCommand<{ kind: string } | undefined>('serverlessGpu.applyEndpointChange', endpointId, formSettingsOf(change), note);
  return outcome?.kind === 'applied';
}

/** A PATCH body of tune's fields as the forms' settings (core/serverless/endpointEdit.ts, EndpointSettings). */
export function formSettingsOf(change: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const w = change.workers as { min?: number; max?: number; idleTimeout?: number } | undefined;
  if (w?.min !== undefined) out.workersMin = w.min;
  if (w?.max !== undefined) out.workersMax = w.max;
  if (w?.idleTimeout !== undefined) out.idleTimeout = w.idleTimeout;
  const sc = change.scaling as { type: 'QUEUE_DELAY' | 'REQUEST_COUNT'; queueDelay?: number; requestCount?: number } | undefined;
  if (sc) {
    out.scalerType = sc.type;
    out.scalerValue = sc.type === 'REQUEST_COUNT' ? sc.requestCount : sc.queueDelay;
  }
  return out;
}

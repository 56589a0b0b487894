// Registers Edit Endpoint…, New Endpoint…, New Template…, Delete Endpoint and the internal Apply Endpoint Change
// (Tune Endpoint's way in, issue 29). Only the command table lives here: the forms' host code is a room, reached
// through formsRoom() on first use, never at activation.
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import type { Logger } from '../core/log';
import type { EndpointSettings } from '../core/serverless/endpointEdit';
import type { ServerlessEndpoint } from '../core/serverless/schemas';
import type { EndpointsServices } from '../endpoints/registerEndpoints';
import { endpointIdOf } from '../endpoints/endpointItems';
import { guardCommand } from '../errors/notify';

export const FormCommands = {
  editEndpoint: 'serverlessGpu.editEndpoint',
  newEndpoint: 'serverlessGpu.newEndpoint',
  newTemplate: 'serverlessGpu.newTemplate',
  deleteEndpoint: 'serverlessGpu.deleteEndpoint',
  /** Internal (no palette entry): (endpointId, changed settings, note lines?) -> ChangeOutcome, after the diff and confirmation. */
  applyEndpointChange: 'serverlessGpu.applyEndpointChange',
} as const;

import { rooms } from '../rooms/rooms';

type FormsRoom = typeof import('./room');
let loaded: FormsRoom | undefined;

/** The forms' room, in dist/rooms.js (src/rooms): loaded on first use, never by activation. */
export function formsRoom(): FormsRoom {
  return (loaded ??= rooms().endpointForms);
}

/** Whether the room was loaded (tests: activation must not load it). */
export function formsRoomLoaded(): boolean {
  return loaded !== undefined;
}

export interface EndpointFormsApi {
  /** The endpoint-edit path for other features (Tune Endpoint): diff, money, confirmation, PATCH, read-back, rollout. */
  applyEndpointChange(endpointId: string, changed: Partial<EndpointSettings>, base?: ServerlessEndpoint, note?: readonly string[]): Promise<import('./endpointChange').ChangeOutcome>;
  room: typeof formsRoom;
  loaded: typeof formsRoomLoaded;
}

export function registerEndpointForms(
  context: vscode.ExtensionContext, connection: Connection, endpoints: () => EndpointsServices | undefined, logger: Logger,
): { api: EndpointFormsApi; disposables: vscode.Disposable[] } {
  const deps = {
    connection, logger, extensionUri: context.extensionUri,
    confirm: () => endpoints()?.confirm ?? (async () => false),
    view: () => endpoints()?.view,
    refreshTree: async () => { await endpoints()?.tree.refresh(); },
  };
  const guard = <A extends unknown[], R>(fn: (...a: A) => R | Promise<R>) => guardCommand(fn, logger, () => connection.secrets());
  const pickEndpoint = async (arg: unknown, title: string): Promise<string | undefined> => {
    const id = endpointIdOf(arg);
    if (id) return id;
    const nodes = endpoints()?.tree.loaded?.model.endpoints.filter((e) => !e.deleted && !e.publicModel) ?? [];
    const pick = await vscode.window.showQuickPick(nodes.map((e) => ({ label: e.displayName ?? e.id, description: e.displayName ? e.id : undefined, id: e.id })), { title });
    return pick?.id;
  };
  const api: EndpointFormsApi = {
    applyEndpointChange: (endpointId, changed, base, note) => formsRoom().applyEndpointChange(deps, endpointId, changed, base, note),
    room: formsRoom,
    loaded: formsRoomLoaded,
  };
  const disposables = [
    vscode.commands.registerCommand(FormCommands.editEndpoint, guard(async (arg?: unknown) => {
      const id = await pickEndpoint(arg, 'Edit Endpoint: which endpoint?');
      return id ? formsRoom().EditEndpointPanel.show(deps, id) : undefined;
    })),
    vscode.commands.registerCommand(FormCommands.newEndpoint, guard((args?: unknown) =>
      formsRoom().newEndpoint(deps, typeof args === 'object' && args !== null && !endpointIdOf(args) ? args as import('./endpointLifecycle').NewEndpointArgs : {}))),
    vscode.commands.registerCommand(FormCommands.newTemplate, guard((args?: unknown) =>
      formsRoom().newTemplate(deps, typeof args === 'object' && args !== null ? args as { name?: string; image?: string } : {}))),
    vscode.commands.registerCommand(FormCommands.deleteEndpoint, guard(async (arg?: unknown) => {
      const id = await pickEndpoint(arg, 'Delete Endpoint: which endpoint?');
      return id ? formsRoom().deleteEndpoint(deps, id) : undefined;
    })),
    vscode.commands.registerCommand(FormCommands.applyEndpointChange, guard((endpointId: string, changed: Partial<EndpointSettings>, note?: readonly string[]) =>
      api.applyEndpointChange(endpointId, changed, undefined, Array.isArray(note) ? note.filter((l) => typeof l === 'string') : []))),
    { dispose: () => { if (loaded) loaded.stopRolloutWatches(); } },
  ];
  return { api, disposables };
}

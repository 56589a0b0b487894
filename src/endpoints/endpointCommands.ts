// The Endpoints view's commands: Refresh, Add Endpoint, Remove Endpoint, Change Billing Window, Purge Queue.
// Each returns what it did, so tests can drive them through executeCommand and check the result.
import * as vscode from 'vscode';
import { Commands } from '../connection/commandIds';
import type { Connection } from '../connection/connection';
import { mayBeMissingRoute } from '../core/runtime/routeSupport';
import { BUCKET_SIZES, type BucketSize } from '../core/schemas';
import type { AddedEndpoints } from './addedEndpoints';
import { BUCKET_ADJECTIVE, PRESET_IDS, PRESETS, validateRange, validateRfc3339, type BillingWindow } from './billingWindow';
import type { EndpointsTree } from './endpointsTree';
import { endpointIdOf } from './endpointItems';

// Endpoint ids are path segments of the job routes (SPEC 4.2): keep them to what deployments and public
// model ids use, so nothing odd ends up in a URL.
const ENDPOINT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function validateEndpointId(v: string): string | undefined {
  const t = v.trim();
  if (!t) return 'Enter an endpoint id, e.g. abc123xyz or black-forest-labs-flux-1-schnell';
  if (!ENDPOINT_ID.test(t)) return 'An endpoint id has letters, digits, ".", "_" and "-" only (at most 128)';
  return undefined;
}

export async function addEndpoint(tree: EndpointsTree, connection: Connection, added: AddedEndpoints, id?: string, displayName?: string): Promise<string | undefined> {
  const endpointId = (id ?? (await vscode.window.showInputBox({
    title: 'Add Endpoint (1/2)',
    prompt: 'The endpoint id (a dedicated endpoint id or a public model id)',
    ignoreFocusOut: true,
    validateInput: validateEndpointId,
  })))?.trim();
  if (!endpointId || validateEndpointId(endpointId)) return undefined;
  const name = displayName ?? (id !== undefined ? undefined : await vscode.window.showInputBox({
    title: 'Add Endpoint (2/2)',
    prompt: `Optional display name for ${endpointId} (leave empty to show the id)`,
    ignoreFocusOut: true,
  }));
  if (name === undefined && id === undefined) return undefined; // Escape on the second box cancels
  await added.add(connection.profile.name, name?.trim() ? { id: endpointId, displayName: name.trim() } : { id: endpointId });
  await tree.refresh();
  return endpointId;
}

export async function removeEndpoint(tree: EndpointsTree, connection: Connection, added: AddedEndpoints, arg?: unknown): Promise<boolean> {
  let id = endpointIdOf(arg);
  const profile = connection.profile.name;
  if (!id) {
    const list = added.list(profile);
    if (!list.length) {
      void vscode.window.showInformationMessage('No endpoints were added by hand for this profile; endpoints with billing records are listed by the service.');
      return false;
    }
    const pick = await vscode.window.showQuickPick(list.map((e) => ({ label: e.displayName ?? e.id, description: e.displayName ? e.id : undefined, id: e.id })), { title: 'Remove Endpoint' });
    id = pick?.id;
  }
  if (!id) return false;
  const removed = await added.remove(profile, id);
  if (removed) await tree.refresh();
  return removed;
}

interface WindowPick extends vscode.QuickPickItem {
  window?: BillingWindow;
  custom?: true;
}

/** The window quick pick; a custom range asks for start, end (both validated as typed) and bucket size. */
export async function changeBillingWindow(tree: EndpointsTree, preset?: BillingWindow): Promise<BillingWindow | undefined> {
  if (preset) {
    await tree.setWindow(preset);
    return preset;
  }
  const current = tree.window;
  const items: WindowPick[] = PRESET_IDS.map((p) => ({
    label: `${current.kind === 'preset' && current.preset === p ? '$(check) ' : ''}${PRESETS[p].label}`,
    description: p === 'today' ? 'from 00:00 UTC, hourly' : BUCKET_ADJECTIVE[PRESETS[p].bucketSize],
    window: { kind: 'preset', preset: p },
  }));
  items.push({ label: `${current.kind === 'custom' ? '$(check) ' : ''}Custom range…`, description: 'RFC 3339 start and end', custom: true });
  const pick = await vscode.window.showQuickPick(items, { title: 'Billing Window' });
  if (!pick) return undefined;
  let chosen = pick.window;
  if (pick.custom) {
    const start = await vscode.window.showInputBox({
      title: 'Custom Billing Window: start (1/3)',
      prompt: 'Start, RFC 3339 (snapped down to its bucket)',
      value: current.kind === 'custom' ? current.startTime : '',
      placeHolder: '2026-01-01T00:00:00Z',
      ignoreFocusOut: true,
      validateInput: validateRfc3339,
    });
    if (!start) return undefined;
    const end = await vscode.window.showInputBox({
      title: 'Custom Billing Window: end (2/3)',
      prompt: 'End, RFC 3339, exclusive (snapped up to the end of its bucket)',
      value: current.kind === 'custom' ? current.endTime : '',
      placeHolder: '2026-02-01T00:00:00Z',
      ignoreFocusOut: true,
      validateInput: (v) => validateRange(start, v),
    });
    if (!end) return undefined;
    const size = await vscode.window.showQuickPick(
      BUCKET_SIZES.map((s) => ({ label: BUCKET_ADJECTIVE[s], size: s as BucketSize })),
      { title: 'Custom Billing Window: bucket size (3/3)' },
    );
    if (!size) return undefined;
    chosen = { kind: 'custom', startTime: start.trim(), endTime: end.trim(), bucketSize: size.size };
  }
  if (!chosen) return undefined;
  await tree.setWindow(chosen);
  return chosen;
}

export interface PurgeOutcome {
  endpointId: string;
  /** Jobs in queue at the look just before asking; undefined when the service has no health route. */
  queued?: number;
  /** Jobs in progress at that look: they go on. */
  inProgress?: number;
  /** What the service removed; undefined when nothing was sent (declined, or nothing queued). */
  removed?: number;
  declined?: true;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Asks before a destructive action; true to go on. */
export type Confirm = (message: string, detail: string, action: string) => Promise<boolean>;

/** A modal warning with the action as its one button (Cancel is added by the editor). */
export const modalConfirm: Confirm = async (message, detail, action) =>
  (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;

/**
 * Purge Queue: counts the queue with /health just before, asks in a modal naming that count and that running
 * jobs go on, then POST /purge-queue and reports what the service removed. Nothing queued: says so, sends nothing.
 */
export async function purgeQueue(tree: EndpointsTree, connection: Connection, arg?: unknown, confirm: Confirm = modalConfirm): Promise<PurgeOutcome | undefined> {
  const nodes = tree.loaded?.model.endpoints.filter((e) => !e.deleted) ?? [];
  let endpointId = endpointIdOf(arg);
  if (!endpointId) {
    const pick = await vscode.window.showQuickPick(
      nodes.map((e) => ({ label: e.displayName ?? e.id, description: e.displayName ? e.id : undefined, id: e.id })),
      { title: 'Purge Queue: which endpoint?', placeHolder: nodes.length ? undefined : 'No endpoints in the Endpoints view' },
    );
    endpointId = pick?.id;
  }
  if (!endpointId) return undefined;
  const node = nodes.find((e) => e.id === endpointId);
  const name = node?.displayName ? `${node.displayName} (${endpointId})` : endpointId;
  const client = await connection.getClient();
  if (!client) {
    const choice = await vscode.window.showWarningMessage('Set an API key first: purging a queue needs one.', 'Set API Key');
    if (choice) await vscode.commands.executeCommand(Commands.setApiKey);
    return undefined;
  }
  let queued: number | undefined;
  let inProgress: number | undefined;
  try {
    const health = await tree.health.lookNow(endpointId, client);
    queued = health.jobs.inQueue;
    inProgress = health.jobs.inProgress;
  } catch (e) {
    if (!mayBeMissingRoute(e)) throw e;
    // No health route: the purge can still be asked for, without a count.
  }
  if (queued === 0) {
    void vscode.window.showInformationMessage(`No jobs are waiting in the queue of ${name}${inProgress ? `; ${plural(inProgress, 'job')} in progress go on` : ''}. Nothing was purged.`);
    return { endpointId, queued, ...(inProgress !== undefined ? { inProgress } : {}) };
  }
  const what = queued === undefined ? 'Every queued job will be removed' : `${plural(queued, 'queued job')} will be removed`;
  const running = inProgress === undefined ? 'Running jobs continue.' : `${plural(inProgress, 'running job')} ${inProgress === 1 ? 'continues' : 'continue'}.`;
  const go = await confirm(`Purge the queue of ${name}?`, `${what} (they end CANCELLED). ${running}`, 'Purge Queue');
  const counts = { ...(queued !== undefined ? { queued } : {}), ...(inProgress !== undefined ? { inProgress } : {}) };
  if (!go) return { endpointId, ...counts, declined: true };
  let removed: number;
  try {
    removed = (await client.purgeQueue(endpointId)).removed;
  } catch (e) {
    if (!mayBeMissingRoute(e)) throw e;
    void vscode.window.showWarningMessage(`The service has no purge-queue route for ${name} (it answered ${e.status}); nothing was purged.`);
    return { endpointId, ...counts };
  }
  void vscode.window.showInformationMessage(`Purged the queue of ${name}: ${plural(removed, 'queued job')} removed; running jobs continue.`);
  void tree.health.lookNow(endpointId, client).catch(() => undefined);
  return { endpointId, ...counts, removed };
}

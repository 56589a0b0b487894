// The Endpoints view's commands: Refresh, Add Endpoint, Remove Endpoint, Change Billing Window. Each returns
// what it did, so tests can drive them through executeCommand and check the result.
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
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

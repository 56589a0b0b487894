// The one path an endpoint change takes to the service (issue 28; Tune Endpoint, issue 29, applies through it
// too): check the values (field + range, nothing sent), show the diff and what it means in money, ask (a modal;
// a raise of always-on spend says so first), PATCH exactly the changed fields after re-reading the endpoint (a
// change made elsewhere since the form read it stops here: the client's conflict check), read it back and say
// what changed, then follow the release's rollout in the Endpoints view.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { BadInputError, ForbiddenError, ValidationError } from '../core/http/errors';
import { EditConflictError, editEndpoint, settingsOf, type EditResult, type EndpointSettings } from '../core/serverless/endpointEdit';
import type { GpuType } from '../core/serverless/resourceSchemas';
import type { ServerlessEndpoint } from '../core/serverless/schemas';
import type { ServiceClient } from '../core/service';
import { describeError } from '../errors/describeError';
import { changeText } from './changeText';
import { checkValues, formValuesOf } from './settingRanges';
import { followRollout } from './rolloutWatch';
import type { FormsDeps } from './formsDeps';

export type { FormsDeps } from './formsDeps';

export type ChangeOutcome =
  | { kind: 'applied'; result: EditResult; summary: string }
  | { kind: 'unchanged' }
  | { kind: 'declined'; diff: string[] }
  | { kind: 'invalid'; errors: string[] }
  | { kind: 'conflict'; message: string; current: ServerlessEndpoint }
  | { kind: 'refused'; message: string; errors: string[] };

export async function clientOf(deps: FormsDeps): Promise<ServiceClient> {
  const client = await deps.connection.getClient();
  if (!client) throw new BadInputError('Set an API key first: changing an endpoint needs one with write access (endpoints:write).');
  return client;
}

/** The GPU catalog, or undefined when the service cannot give it (prices are then said to be unknown). */
export async function readCatalog(client: ServiceClient, logger: Logger): Promise<GpuType[] | undefined> {
  try {
    return (await client.listGpuTypes()).gpus;
  } catch (e) {
    logger.warn(`GPU catalog not read: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** A write the service refused, in words a user can act on (a 403 names the missing write access plainly). */
export function refusalText(e: unknown, what: string, secrets: readonly string[] = []): { message: string; errors: string[] } | undefined {
  if (e instanceof ForbiddenError) {
    return { message: `Your API key may not ${what}: it has no write access to endpoints (the endpoints:write scope). Nothing was changed. Use a key with read/write access to endpoints.`, errors: [] };
  }
  if (e instanceof ValidationError) {
    return { message: `The service refused to ${what} (${e.status}): ${e.errors.length ? e.errors.join('; ') : e.message}. Nothing was changed.`, errors: e.errors };
  }
  if (e instanceof BadInputError) return { message: e.message, errors: [] };
  if (e instanceof EditConflictError) return undefined;
  return { message: describeError(e, { secrets }).message, errors: [] };
}

function nameOf(e: ServerlessEndpoint): string {
  return e.name && e.name !== e.id ? `${e.name} (${e.id})` : e.id;
}

/**
 * Applies `changed` (only the settings the user changed) to the endpoint. `base`: the endpoint as the form
 * showed it, so a change made elsewhere since is caught before sending. `note`: lines the caller adds under the
 * diff and money in the confirmation (Tune: what the replay says of the change). Never throws for what the user can fix:
 * the outcome says it (and a notification shows it).
 */
export async function applyEndpointChange(
  deps: FormsDeps, endpointId: string, changed: Partial<EndpointSettings>, base?: ServerlessEndpoint, note: readonly string[] = [],
): Promise<ChangeOutcome> {
  try {
    return await applyChecked(deps, endpointId, changed, base, note);
  } catch (e) {
    // A refusal of the first read (a key with no access to endpoints at all) is said as plainly as the PATCH's.
    const refused = refusalText(e, `change ${endpointId}`, deps.connection.secrets());
    if (!refused) throw e;
    void vscode.window.showErrorMessage(refused.message);
    return { kind: 'refused', ...refused };
  }
}

async function applyChecked(
  deps: FormsDeps, endpointId: string, changed: Partial<EndpointSettings>, base: ServerlessEndpoint | undefined, note: readonly string[],
): Promise<ChangeOutcome> {
  const client = await clientOf(deps);
  const before = base ?? (await client.getEndpoint(endpointId));
  const current = settingsOf(before);
  const next: EndpointSettings = { ...current, ...Object.fromEntries(Object.entries(changed).filter(([, v]) => v !== undefined)) };
  const catalog = await readCatalog(client, deps.logger);
  const knownPools = catalog ? [...new Set(catalog.flatMap((g) => (g.pool ? [g.pool] : [])))] : next.gpuPools;
  const invalid = checkValues(formValuesOf(next), knownPools).map((e) => e.message);
  if (invalid.length) {
    void vscode.window.showErrorMessage(`Not sent: ${invalid.join('; ')}.`);
    return { kind: 'invalid', errors: invalid };
  }
  const text = changeText(current, next, catalog);
  if (!text.diff.length) {
    void vscode.window.showInformationMessage(`Nothing to change on ${nameOf(before)}: every value is already set.`);
    return { kind: 'unchanged' };
  }
  const question = text.raisesAlwaysOn
    ? `This raises what ${nameOf(before)} costs even with no job. Apply the change?`
    : `Apply the change to ${nameOf(before)}?`;
  // The one question of a change, whoever asks for it (Tune Endpoint adds its replay's figures as `note`).
  const go = await deps.confirm()(question, [...text.diff, '', ...text.money, ...(note.length ? ['', ...note] : [])].join('\n'), 'Apply');
  if (!go) return { kind: 'declined', diff: text.diff };
  let result: EditResult;
  try {
    result = await editEndpoint(client, endpointId, changed, before);
  } catch (e) {
    if (e instanceof EditConflictError) {
      void vscode.window.showWarningMessage(e.message);
      return { kind: 'conflict', message: e.message, current: e.current };
    }
    const refused = refusalText(e, `change ${nameOf(before)}`, deps.connection.secrets());
    if (!refused) throw e;
    void vscode.window.showErrorMessage(refused.message);
    return { kind: 'refused', ...refused };
  }
  const said = result.changed.map((c) => c.text).join('; ') || 'nothing (the service kept every value)';
  const missed = result.notApplied.length ? ` Not applied by the service: ${result.notApplied.join(', ')}.` : '';
  const summary = `Changed ${nameOf(result.after)}: ${said}.${missed}`;
  void vscode.window.showInformationMessage(summary);
  void deps.refreshTree().catch(() => undefined);
  // Only a container change cuts a release; a scaling change has no rollout to follow.
  if (result.sent.image !== undefined || result.sent.env !== undefined || result.sent.args !== undefined) followRollout(deps, client, result.after);
  return { kind: 'applied', result, summary };
}

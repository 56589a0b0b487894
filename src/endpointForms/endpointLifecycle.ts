// New Endpoint… (from an image or a template, pools picked from the GPU catalog with their prices, the five
// settings at the platform's create defaults), New Template…, and Delete Endpoint (a modal naming it, its
// running workers and what they cost). Steps are quick inputs, VS Code's own way to ask a few things in a row;
// the settings are changed afterwards in the Edit Endpoint form. A command given its arguments asks nothing
// (scripts and tests), and every value is checked as in the form before anything is sent.
import * as vscode from 'vscode';
import { workerPricePerHour } from '../core/serverless/endpointMoney';
import type { CreateEndpointRequest } from '../core/serverless/requestSchemas';
import type { ServerlessEndpoint } from '../core/serverless/schemas';
import type { Template } from '../core/serverless/resourceSchemas';
import { formatUsd as usd } from '../core/billing/usd';
import { clientOf, readCatalog, refusalText, type FormsDeps } from './endpointChange';
import { checkValues, NEW_ENDPOINT_DEFAULTS, type FormValues } from './settingRanges';

export interface NewEndpointArgs {
  name?: string;
  image?: string;
  templateId?: string;
  pools?: string[];
}

const validImage = (v: string): string | undefined => (!v.trim() || /\s/.test(v.trim()) ? 'An image name, e.g. runpod/worker-comfyui:5.1.0 (no spaces)' : undefined);

function defaultsText(): string {
  const d = NEW_ENDPOINT_DEFAULTS;
  return `workers ${d.workersMin}–${d.workersMax}, idle timeout ${d.idleTimeout} s, queue delay ${d.scalerValue} s, execution timeout ${d.timeoutSeconds} s, flashboot ${d.flashboot}`;
}

/** New Endpoint…: returns the created endpoint, or undefined when cancelled or refused (said to the user). */
export async function newEndpoint(deps: FormsDeps, args: NewEndpointArgs = {}): Promise<ServerlessEndpoint | undefined> {
  const client = await clientOf(deps);
  const asking = args.image === undefined && args.templateId === undefined;
  let image = args.image;
  let template: Template | undefined;
  if (args.templateId) template = await client.getTemplate(args.templateId);
  if (asking) {
    const templates = (await client.listTemplates()).templates;
    const pick = await vscode.window.showQuickPick<vscode.QuickPickItem & { template?: Template }>([
      { label: 'From an image…', description: 'a container image name' },
      ...(templates.length ? [{ label: 'Templates', kind: vscode.QuickPickItemKind.Separator }] : []),
      ...templates.map((t) => ({ label: t.name, description: t.image, detail: t.id, template: t })),
    ], { title: 'New Endpoint (1/3): from', ignoreFocusOut: true });
    if (!pick) return undefined;
    template = pick.template;
    if (!template) {
      image = (await vscode.window.showInputBox({ title: 'New Endpoint (1/3): image', prompt: 'The container image', ignoreFocusOut: true, validateInput: validImage }))?.trim();
      if (!image) return undefined;
    }
  }
  const suggested = template?.name ?? image?.split('/').pop()?.split(':')[0] ?? 'endpoint';
  const name = args.name ?? (await vscode.window.showInputBox({ title: 'New Endpoint (2/3): name', value: suggested, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A name, not empty') }))?.trim();
  if (!name) return undefined;
  const catalog = await readCatalog(client, deps.logger);
  const known = catalog ? [...new Set(catalog.flatMap((g) => (g.pool ? [g.pool] : [])))] : [];
  let pools = args.pools;
  if (!pools) {
    const items = known.map((pool) => {
      const price = catalog && workerPricePerHour(catalog, [pool], 1);
      const gpus = (catalog ?? []).filter((g) => g.pool === pool).map((g) => g.name).join(', ');
      return { label: pool, description: price === undefined ? 'no price' : `${usd(price as number)}/h per GPU`, detail: gpus, picked: pool === known[0] };
    });
    const picked = await vscode.window.showQuickPick(items, { title: 'New Endpoint (3/3): GPU pools (workers land on any)', canPickMany: true, ignoreFocusOut: true, placeHolder: `Created with ${defaultsText()}` });
    if (!picked?.length) return undefined;
    pools = picked.map((p) => p.label);
  }
  const d = NEW_ENDPOINT_DEFAULTS;
  const values: FormValues = { ...d, gpuPools: pools, image: image ?? template?.image ?? '' };
  const invalid = checkValues(values, known.length ? known : pools).map((e) => e.message);
  if (invalid.length) {
    void vscode.window.showErrorMessage(`Not sent: ${invalid.join('; ')}.`);
    return undefined;
  }
  const body: CreateEndpointRequest = {
    name, type: 'QUEUE', ...(template ? { templateId: template.id } : { image }),
    gpu: { pools, count: d.gpuCount },
    workers: { min: d.workersMin, max: d.workersMax, idleTimeout: d.idleTimeout! },
    scaling: { type: 'QUEUE_DELAY', queueDelay: d.scalerValue },
    timeout: d.timeoutSeconds * 1000, flashboot: d.flashboot,
  };
  try {
    const created = await client.createEndpoint(body);
    void vscode.window.showInformationMessage(`Created endpoint ${created.name} (${created.id}) with ${defaultsText()}; change them with Edit Endpoint…`);
    await deps.refreshTree().catch(() => undefined);
    return created;
  } catch (e) {
    const refused = refusalText(e, 'create an endpoint', deps.connection.secrets());
    void vscode.window.showErrorMessage(refused?.message ?? String(e));
    return undefined;
  }
}

/** New Template…: a name and an image. */
export async function newTemplate(deps: FormsDeps, args: { name?: string; image?: string } = {}): Promise<Template | undefined> {
  const client = await clientOf(deps);
  const image = args.image ?? (await vscode.window.showInputBox({ title: 'New Template (1/2): image', ignoreFocusOut: true, validateInput: validImage }))?.trim();
  if (!image) return undefined;
  const name = args.name ?? (await vscode.window.showInputBox({ title: 'New Template (2/2): name', value: image.split('/').pop()?.split(':')[0] ?? '', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A name, not empty') }))?.trim();
  if (!name) return undefined;
  try {
    const t = await client.createTemplate({ name, image, serverless: true });
    void vscode.window.showInformationMessage(`Created template ${t.name} (${t.id}); New Endpoint… offers it.`);
    return t;
  } catch (e) {
    void vscode.window.showErrorMessage(refusalText(e, 'create a template', deps.connection.secrets())?.message ?? String(e));
    return undefined;
  }
}

export interface DeleteOutcome {
  endpointId: string;
  deleted: boolean;
  /** What the modal said. */
  question?: string;
  detail?: string;
  refused?: string;
}

/** Delete Endpoint: a modal naming it, its running workers and what they cost an hour; then DELETE. */
export async function deleteEndpoint(deps: FormsDeps, endpointId: string): Promise<DeleteOutcome> {
  const client = await clientOf(deps);
  let read: [ServerlessEndpoint, Awaited<ReturnType<typeof client.listEndpointWorkers>> | undefined, Awaited<ReturnType<typeof readCatalog>>];
  try {
    read = await Promise.all([
      client.getEndpoint(endpointId), client.listEndpointWorkers(endpointId).catch(() => undefined), readCatalog(client, deps.logger),
    ]);
  } catch (e) {
    const refused = refusalText(e, `delete ${endpointId}`, deps.connection.secrets())?.message ?? String(e);
    void vscode.window.showErrorMessage(refused);
    return { endpointId, deleted: false, refused };
  }
  const [endpoint, workers, catalog] = read;
  const name = endpoint.name && endpoint.name !== endpoint.id ? `${endpoint.name} (${endpoint.id})` : endpoint.id;
  const perWorker = catalog ? workerPricePerHour(catalog, endpoint.gpu?.pools ?? [], endpoint.gpu?.count ?? 1) : undefined;
  const s = workers?.summary;
  const running = s === undefined
    ? 'Its workers could not be read.'
    : s.total === 0
      ? 'No worker is running.'
      : `${s.total} worker${s.total === 1 ? '' : 's'} running (${s.running} busy, ${s.idle} idle, ${s.initializing} starting)${perWorker === undefined ? '' : ` at ${usd(perWorker)}/h each: ${usd(perWorker * s.total)} an hour`}; they stop.`;
  const question = `Delete endpoint ${name}?`;
  const detail = `${running} Its queued and running jobs are cancelled. This cannot be undone.`;
  if (!(await deps.confirm()(question, detail, 'Delete Endpoint'))) return { endpointId, deleted: false, question, detail };
  try {
    await client.deleteEndpoint(endpointId);
  } catch (e) {
    const refused = refusalText(e, `delete ${name}`, deps.connection.secrets())?.message ?? String(e);
    void vscode.window.showErrorMessage(refused);
    return { endpointId, deleted: false, question, detail, refused };
  }
  void vscode.window.showInformationMessage(`Deleted endpoint ${name}.`);
  await deps.refreshTree().catch(() => undefined);
  return { endpointId, deleted: true, question, detail };
}

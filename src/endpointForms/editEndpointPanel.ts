// "Edit Endpoint…": one webview form per endpoint with the five settings (workers min and max, scaler type and
// value, idle timeout, execution timeout), GPU pools (from the catalog, with prices) and count, flashboot and
// the image. It shows the current values and each one's range, the diff and its money as the user types (the
// host computes them: one definition of the words), and applies through applyEndpointChange (the confirmation,
// the conflict check, the read-back, the rollout). Part of the forms' room (loaded on first use).
import * as vscode from 'vscode';
import { keepPoolOrder, settingsOf } from '../core/serverless/endpointEdit';
import type { GpuType } from '../core/serverless/resourceSchemas';
import type { ServerlessEndpoint } from '../core/serverless/schemas';
import { renderWebviewHtml, webviewOptions } from '../webview/html';
import { WebviewChannel } from '../webview/messages';
import { changeText } from './changeText';
import { applyEndpointChange, clientOf, readCatalog, type ChangeOutcome, type FormsDeps } from './endpointChange';
import { FromWebview, ToWebview, type FormValuesMessage, type Preview } from './protocol';
import { checkValues, formValuesOf, LABELS, rangeText, settingsOfForm, type FormField, type FormValues } from './settingRanges';

export const EDIT_ENDPOINT_VIEW_TYPE = 'serverlessGpu.editEndpoint';

const FIELDS = Object.keys(LABELS) as FormField[];

function formValues(m: FormValuesMessage): FormValues {
  const n = (v: number | null): number => (v === null ? Number.NaN : v);
  return {
    workersMin: n(m.workersMin), workersMax: n(m.workersMax), idleTimeout: m.idleTimeout === null ? undefined : m.idleTimeout,
    scalerType: m.scalerType as FormValues['scalerType'], scalerValue: n(m.scalerValue), timeoutSeconds: n(m.timeoutSeconds),
    gpuPools: m.gpuPools, gpuCount: n(m.gpuCount), flashboot: m.flashboot as FormValues['flashboot'], image: m.image,
  };
}

function message(v: FormValues): FormValuesMessage {
  const n = (x: number | undefined): number | null => (x === undefined || !Number.isFinite(x) ? null : x);
  return {
    workersMin: n(v.workersMin), workersMax: n(v.workersMax), idleTimeout: n(v.idleTimeout), scalerType: v.scalerType,
    scalerValue: n(v.scalerValue), timeoutSeconds: n(v.timeoutSeconds), gpuPools: v.gpuPools, gpuCount: n(v.gpuCount),
    flashboot: v.flashboot, image: v.image,
  };
}

export class EditEndpointPanel implements vscode.Disposable {
  private static readonly open = new Map<string, EditEndpointPanel>();
  private readonly channel: WebviewChannel<FromWebview, ToWebview>;
  private readonly resultEmitter = new vscode.EventEmitter<ChangeOutcome>();
  /** Each apply's outcome (tests wait on it). */
  readonly onDidApply = this.resultEmitter.event;
  lastPreview: Preview | undefined;
  lastResult: Extract<ToWebview, { type: 'result' }> | undefined;
  private busy = false;

  /** Opens (or reveals) the form of `endpointId`, reading it and the catalog first. */
  static async show(deps: FormsDeps, endpointId: string): Promise<EditEndpointPanel> {
    const existing = EditEndpointPanel.open.get(endpointId);
    if (existing) {
      existing.panel.reveal();
      await existing.reload();
      return existing;
    }
    const client = await clientOf(deps);
    const [endpoint, catalog] = await Promise.all([client.getEndpoint(endpointId), readCatalog(client, deps.logger)]);
    const panel = vscode.window.createWebviewPanel(EDIT_ENDPOINT_VIEW_TYPE, `Edit ${endpoint.name || endpointId}`, vscode.ViewColumn.Active, webviewOptions(deps.extensionUri));
    const form = new EditEndpointPanel(deps, panel, endpoint, catalog);
    EditEndpointPanel.open.set(endpointId, form);
    return form;
  }

  /** The open form of an endpoint (tests). */
  static of(endpointId: string): EditEndpointPanel | undefined {
    return EditEndpointPanel.open.get(endpointId);
  }

  private constructor(
    private readonly deps: FormsDeps, readonly panel: vscode.WebviewPanel, private base: ServerlessEndpoint, private catalog: GpuType[] | undefined,
  ) {
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'icons', 'serverless-gpu.svg');
    this.channel = new WebviewChannel<FromWebview, ToWebview>(panel.webview, FromWebview, (m) => this.onMessage(m), deps.logger, ToWebview);
    panel.webview.html = renderWebviewHtml({
      webview: panel.webview, extensionUri: deps.extensionUri, title: 'Edit Endpoint',
      script: ['dist', 'webview', 'endpointForm.js'], styles: [['media', 'endpointForm', 'style.css']],
    });
    panel.onDidDispose(() => this.dispose());
    this.sendInit();
  }

  get endpointId(): string {
    return this.base.id;
  }

  /** The pools offered: the endpoint's own first, in its order (its preference), then the catalog's others. */
  private pools(): string[] {
    const fromCatalog = this.catalog ? [...new Set(this.catalog.flatMap((g) => (g.pool ? [g.pool] : [])))] : [];
    const own = settingsOf(this.base).gpuPools;
    return [...new Set([...own, ...fromCatalog])];
  }

  /**
   * The values as the user means them: the page lists pools as checkboxes, so its selection comes in the list's
   * order, not the endpoint's. The endpoint's pools keep their order and new ones are appended, so a selection
   * left alone is no change (no diff line, nothing in the PATCH).
   */
  private withPoolOrder(values: FormValues): FormValues {
    return Array.isArray(values.gpuPools) ? { ...values, gpuPools: keepPoolOrder(settingsOf(this.base).gpuPools, values.gpuPools) } : values;
  }

  private sendInit(notice?: string): void {
    const values = formValuesOf(settingsOf(this.base));
    const pools = this.pools().map((pool) => {
      const gpus = (this.catalog ?? []).filter((g) => g.pool === pool);
      const prices = gpus.flatMap((g) => (typeof g.price.serverless === 'number' ? [g.price.serverless] : []));
      return { pool, perHour: prices.length ? Math.max(...prices) : null, gpus: gpus.map((g) => `${g.name} ${g.memory} GB`).join(', ') };
    });
    this.channel.post({
      type: 'init', endpointId: this.base.id, name: this.base.name || this.base.id, values: message(values), pools,
      preview: this.preview(values), ...(notice ? { notice } : {}),
    });
  }

  /** The diff, money, errors and ranges of the values as typed. */
  preview(typed: FormValues): Preview {
    const values = this.withPoolOrder(typed);
    const current = settingsOf(this.base);
    const errors = Object.fromEntries(checkValues(values, this.pools()).map((e) => [e.field, e.message]));
    const next = { ...current, ...settingsOfForm({ ...values, image: typeof values.image === 'string' ? values.image : '' }) };
    const text = Object.keys(errors).length ? { diff: [], money: [], raisesAlwaysOn: false } : changeText(current, next, this.catalog);
    return {
      diff: text.diff, money: text.money, raisesAlwaysOn: text.raisesAlwaysOn, errors,
      ranges: FIELDS.map((name) => ({ name, range: rangeText(name, values) })),
    };
  }

  private async onMessage(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        break;
      case 'values':
        this.lastPreview = this.preview(formValues(m.values));
        this.channel.post({ type: 'preview', preview: this.lastPreview });
        break;
      case 'apply':
        await this.submit(formValues(m.values));
        break;
      case 'reload':
        await this.reload();
        break;
    }
  }

  /** Reads the endpoint and the catalog again and starts the form from them. */
  async reload(notice?: string): Promise<void> {
    const client = await clientOf(this.deps);
    [this.base, this.catalog] = await Promise.all([client.getEndpoint(this.base.id), readCatalog(client, this.deps.logger)]);
    this.sendInit(notice);
  }

  private result(ok: boolean, text: string, errors: string[] = []): void {
    this.lastResult = { type: 'result', ok, message: text, errors };
    this.channel.post(this.lastResult);
  }

  /** Apply, as the page's button does: checked here (nothing sent when invalid), then the one change path. */
  async submit(typed: FormValues): Promise<ChangeOutcome> {
    const values = this.withPoolOrder(typed);
    if (this.busy) return { kind: 'declined', diff: [] };
    const invalid = checkValues(values, this.pools());
    let outcome: ChangeOutcome;
    if (invalid.length) {
      outcome = { kind: 'invalid', errors: invalid.map((e) => e.message) };
      this.result(false, 'Not sent: fix the fields marked.', outcome.errors);
    } else {
      this.busy = true;
      this.channel.post({ type: 'busy', busy: true });
      try {
        outcome = await applyEndpointChange(this.deps, this.base.id, settingsOfForm(values), this.base);
      } catch (e) {
        outcome = { kind: 'refused', message: e instanceof Error ? e.message : String(e), errors: [] };
      } finally {
        this.busy = false;
        this.channel.post({ type: 'busy', busy: false });
      }
      this.report(outcome);
    }
    this.resultEmitter.fire(outcome);
    return outcome;
  }

  private report(outcome: ChangeOutcome): void {
    switch (outcome.kind) {
      case 'applied':
        this.base = outcome.result.after;
        this.sendInit();
        this.result(true, outcome.summary);
        break;
      case 'conflict':
        this.base = outcome.current;
        this.sendInit(outcome.message);
        this.result(false, outcome.message);
        break;
      case 'unchanged':
        this.result(true, 'Nothing to change: every value is already set.');
        break;
      case 'declined':
        this.result(false, 'Not applied: you cancelled. Nothing was sent.');
        break;
      case 'invalid':
        this.result(false, 'Not sent: fix the fields marked.', outcome.errors);
        break;
      case 'refused':
        this.result(false, outcome.message, outcome.errors);
        break;
    }
  }

  dispose(): void {
    if (EditEndpointPanel.open.get(this.base.id) === this) EditEndpointPanel.open.delete(this.base.id);
    this.channel.dispose();
    this.resultEmitter.dispose();
  }
}

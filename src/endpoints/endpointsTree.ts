// The Endpoints tree: one billing request per refresh (with the account's endpoint list beside it, where the
// service has one), cached, so expanding a node never sends a request. Errors become an item with an action
// (never a modal, never a throw into the extension host); a 429 is retried by itself once its wait is over.
// The first request is sent when the view first asks for its children, not at activation. Live health is
// endpointHealth.ts's, drawn into the endpoint items.
import * as vscode from 'vscode';
import { hostOf } from '../config/profileSettings';
import type { Logger } from '../core/log';
import { mayBeMissingRoute, sharedRouteSupport } from '../core/runtime/routeSupport';
import type { CallOptions, ServiceClient } from '../core/service';
import type { BillingTableResult } from '../core/billing/readBillingBody';
import { describeError, type ErrorDescription } from '../errors/describeError';
import type { Connection } from '../connection/connection';
import { Commands } from '../connection/commandIds';
import type { AddedEndpoints } from './addedEndpoints';
import { buildBillingTree, type BillingTreeModel, type ListedEndpoint } from './billingTreeModel';
import { EndpointHealth } from './endpointHealth';
import { formatUsd } from '../core/billing/usd';
import { sharedEndpointPrices } from '../core/cost';
import { describeWindow, parseStoredWindow, windowLabel, windowQuery, type BillingWindow } from './billingWindow';
import { BucketItem, EndpointItem, MessageItem, PublicModelsItem, type MessageNode, type PublicModelsNode, type TreeNode } from './endpointItems';
import type { EndpointNode } from './billingTreeModel';
import { bucketTooltip, endpointTooltip } from './itemText';

export const ENDPOINTS_VIEW_ID = 'serverlessGpu.endpoints';
/** Context key: true when the active profile has no key; the welcome view's `when`. */
export const NO_KEY_CONTEXT = 'serverlessGpu.noKey';
const WINDOW_STATE_KEY = 'serverlessGpu.billingWindow';

export type TreeState =
  | { kind: 'idle' }
  | { kind: 'noKey' }
  | { kind: 'loaded'; result: BillingTableResult; model: BillingTreeModel }
  | { kind: 'error'; error: ErrorDescription; retryAt?: number };

export interface LoadedBilling {
  window: BillingWindow;
  result: BillingTableResult;
  model: BillingTreeModel;
}

export class EndpointsTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly loadedEmitter = new vscode.EventEmitter<LoadedBilling | undefined>();
  /** After every refresh: the data on success, undefined when there is none (no key, error). */
  readonly onDidLoad = this.loadedEmitter.event;

  private state: TreeState = { kind: 'idle' };
  private generation = 0;
  private inFlight: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private view: vscode.TreeView<TreeNode> | undefined;
  /** The "Public models" group of each loaded model's endpoints (null: none). */
  private readonly groups = new WeakMap<readonly EndpointNode[], PublicModelsNode | null>();
  private readonly disposables: vscode.Disposable[] = [];
  private currentWindow: BillingWindow;
  /** Live health of the listed endpoints, asked for only while the view is visible. */
  readonly health: EndpointHealth;
  /** "Where the money went" lines for an endpoint's tooltip (issue 29; wired in extension.ts from the Jobs history). */
  moneySplit: ((endpointId: string, fromMs: number, toMs: number, billedUsd: number) => string | undefined) | undefined;
  /** Clients whose key may not read the endpoint list (403): not asked again until the key changes. */
  private readonly listForbidden = new WeakSet<ServiceClient>();

  constructor(
    private readonly connection: Connection,
    private readonly added: AddedEndpoints,
    private readonly state_: vscode.Memento,
    private readonly logger: Logger,
  ) {
    this.currentWindow = parseStoredWindow(state_.get(WINDOW_STATE_KEY));
    this.health = new EndpointHealth(() => this.view?.visible ?? false, logger);
    this.disposables.push(
      this.changed,
      this.loadedEmitter,
      this.health,
      this.health.onDidChange((ids) => this.redraw(ids)),
      connection.onDidChange(() => this.connectionChanged()),
    );
  }

  /** Creates the view; call once. */
  createView(): vscode.TreeView<TreeNode> {
    this.view = vscode.window.createTreeView(ENDPOINTS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(this.view, this.view.onDidChangeVisibility((e) => {
      this.health.setVisible(e.visible);
      // Data dropped while the view was hidden (a new key or profile) is fetched when it is shown again.
      if (e.visible) this.loadIfIdle();
    }));
    return this.view;
  }

  /**
   * A new key, profile or service. Shown: refresh now. Hidden: send nothing (issue 11: no request until a view
   * of ours is visible or a command runs); drop what was shown, which belongs to the old connection, and fetch
   * when the view (or the cost chart, through `refresh`) next asks.
   */
  private connectionChanged(): void {
    if (this.view?.visible) {
      void this.refresh();
      return;
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.abort?.abort();
    this.generation++;
    this.inFlight = undefined; // superseded: the next loadIfIdle must not wait for it
    const hadData = this.state.kind !== 'idle';
    this.state = { kind: 'idle' };
    this.health.track(undefined, []);
    if (!hadData) return;
    this.updateViewText();
    this.changed.fire(undefined);
    this.loadedEmitter.fire(undefined);
  }

  dispose(): void {
    clearTimeout(this.retryTimer);
    this.abort?.abort();
    for (const d of this.disposables) d.dispose();
  }

  get window(): BillingWindow {
    return this.currentWindow;
  }

  get current(): TreeState {
    return this.state;
  }

  /** The data of the last successful refresh, if the tree shows data now. */
  get loaded(): LoadedBilling | undefined {
    return this.state.kind === 'loaded' ? { window: this.currentWindow, result: this.state.result, model: this.state.model } : undefined;
  }

  async setWindow(w: BillingWindow): Promise<void> {
    this.currentWindow = w;
    await this.state_.update(WINDOW_STATE_KEY, w);
    await this.refresh();
  }

  /** Starts a refresh when there is no data and none is on its way (a view of ours wants data). */
  loadIfIdle(): void {
    if (this.state.kind === 'idle' && !this.inFlight) void this.refresh();
  }

  /** Resolves when the refresh in flight (if any) is done: for tests and for callers that need the data. */
  async whenIdle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /** Sends one billing request and rebuilds the cache. A newer refresh supersedes an older one. */
  refresh(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.abort?.abort();
    const gen = ++this.generation;
    const controller = new AbortController();
    this.abort = controller;
    const run = this.load(gen, controller.signal);
    const tracked: Promise<void> = this.view
      ? Promise.resolve(vscode.window.withProgress({ location: { viewId: ENDPOINTS_VIEW_ID } }, () => run))
      : run;
    const done = tracked.finally(() => {
      if (this.inFlight === done) this.inFlight = undefined;
    });
    this.inFlight = done;
    return done;
  }

  private async load(gen: number, signal: AbortSignal): Promise<void> {
    let next: TreeState;
    let client: ServiceClient | undefined;
    try {
      client = await this.connection.getClient();
      if (!client) {
        next = { kind: 'noKey' };
      } else {
        const [result, listed] = await Promise.all([
          client.listBillingTable(windowQuery(this.currentWindow), { signal }),
          this.listEndpoints(client, { signal }),
        ]);
        const model = buildBillingTree(result.table, this.added.list(this.connection.profile.name), listed);
        next = { kind: 'loaded', result, model };
        for (const w of result.warnings) this.logger.warn(`Billing response: ${w}`);
      }
    } catch (e) {
      if (gen !== this.generation) return; // superseded: its abort is not an error to show
      const error = describeError(e, {
        operation: 'billing',
        host: hostOf(this.connection.profile.billingBaseUrl),
        retry: { title: 'Retry', command: Commands.refreshEndpoints },
        secrets: this.connection.secrets(),
      });
      this.logger.warn(`Billing request failed: ${error.message}`);
      next = { kind: 'error', error };
      if (error.retryAfterMs !== undefined) {
        const wait = Math.max(error.retryAfterMs, 1000);
        next.retryAt = Date.now() + wait;
        this.retryTimer = setTimeout(() => void this.refresh(), wait);
      }
    }
    if (gen !== this.generation) return;
    this.state = next;
    this.health.track(next.kind === 'loaded' ? client : undefined, next.kind === 'loaded' ? next.model.endpoints.filter((e) => e.listed).map((e) => e.id) : []);
    await vscode.commands.executeCommand('setContext', NO_KEY_CONTEXT, next.kind === 'noKey');
    this.updateViewText();
    this.changed.fire(undefined);
    this.loadedEmitter.fire(this.loaded);
  }

  /**
   * GET /v2/serverless, when the service has it: the names, and which billed endpoints still exist. Undefined
   * (billing alone, as before the list existed) when the service has no such route (404 / 405, learned once per
   * service) or the list cannot be read now (a key without endpoints:read, remembered for this key; any other
   * error, logged): the list only adds to the view, it never keeps the costs from showing.
   */
  private async listEndpoints(client: ServiceClient, options: CallOptions): Promise<ListedEndpoint[] | undefined> {
    const service = client.settings.billingBaseUrl;
    if (sharedRouteSupport.get(service, 'endpointList') === 'no' || this.listForbidden.has(client)) return undefined;
    try {
      const { endpoints } = await client.listEndpoints(options);
      sharedRouteSupport.set(service, 'endpointList', 'yes');
      // Their GPUs price a single job's cost estimate at its end without a request of its own.
      sharedEndpointPrices.remember(service, endpoints);
      return endpoints.map((e) => ({ id: e.id, name: e.name }));
    } catch (e) {
      if (options.signal?.aborted) return undefined;
      if (mayBeMissingRoute(e) && sharedRouteSupport.get(service, 'endpointList') !== 'yes') {
        sharedRouteSupport.set(service, 'endpointList', 'no');
        this.logger.info(`Endpoint list: the service at ${hostOf(service)} has no GET /v2/serverless; endpoints are shown by id.`);
        return undefined;
      }
      const error = describeError(e, { operation: 'other', host: hostOf(service), secrets: this.connection.secrets() });
      if (error.kind === 'forbidden') this.listForbidden.add(client);
      this.logger.warn(`Endpoint list (GET /v2/serverless) failed, endpoints are shown by id: ${error.message}`);
      return undefined;
    }
  }

  /** Redraws the items of these endpoints (their health changed). */
  private redraw(ids: readonly string[]): void {
    if (this.state.kind !== 'loaded') return;
    const wanted = new Set(ids);
    for (const node of this.state.model.endpoints) if (wanted.has(node.id)) this.changed.fire(node);
  }

  private updateViewText(): void {
    if (!this.view) return;
    const s = this.state;
    if (s.kind === 'loaded') {
      this.view.description = describeWindow(this.currentWindow, s.model.window, formatUsd(s.model.totals.total));
      this.view.message = s.result.warnings.length ? `⚠ ${s.result.warnings.join(' ')}` : undefined;
    } else {
      this.view.description = windowLabel(this.currentWindow);
      this.view.message = undefined;
    }
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'endpoint': return new EndpointItem(node, this.health.get(node.id));
      case 'bucket': return new BucketItem(node);
      case 'message': return new MessageItem(node);
      case 'publicModels': return new PublicModelsItem(node);
    }
  }

  /** Tooltips on hover only (see itemText.ts). */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    if (node.kind === 'endpoint' && this.state.kind === 'loaded') {
      const w = this.state.model.window;
      const split = this.moneySplit?.(node.id, Date.parse(w.startTime), Date.parse(w.endTime), node.amounts.total);
      item.tooltip = endpointTooltip(node, w, this.health.get(node.id), split);
    }
    if (node.kind === 'bucket') item.tooltip = bucketTooltip(node);
    return item;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (node) return node.kind === 'endpoint' ? node.buckets : node.kind === 'publicModels' ? [...node.endpoints] : [];
    const s = this.state;
    switch (s.kind) {
      case 'idle':
        // First time the view is shown: fetch now (not at activation); the progress bar shows meanwhile.
        this.loadIfIdle();
        return [];
      case 'noKey':
        return []; // the welcome view (viewsWelcome, when serverlessGpu.noKey) takes the space
      case 'error':
        return [this.errorNode(s)];
      case 'loaded': {
        const group = this.publicModelsOf(s.model.endpoints);
        const own = s.model.endpoints.filter((e) => !e.publicModel);
        if (own.length || group) return [...own, ...(group ? [group] : [])];
        return [{
          kind: 'message',
          severity: 'info',
          description: { message: 'No usage in this billing window.', actions: [{ title: 'Add Endpoint', command: Commands.addEndpoint }] },
        }];
      }
    }
  }

  /** The "Public models" group of a loaded model, made once per model (getParent returns the same node). */
  private publicModelsOf(endpoints: readonly EndpointNode[]): PublicModelsNode | undefined {
    const cached = this.groups.get(endpoints);
    if (cached !== undefined) return cached ?? undefined;
    const models = endpoints.filter((e) => e.publicModel);
    const group: PublicModelsNode | undefined = models.length ? { kind: 'publicModels', endpoints: models } : undefined;
    this.groups.set(endpoints, group ?? null);
    return group;
  }

  private errorNode(s: Extract<TreeState, { kind: 'error' }>): MessageNode {
    return { kind: 'message', severity: 'error', description: s.error };
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node.kind === 'endpoint' && node.publicModel && this.state.kind === 'loaded') return this.publicModelsOf(this.state.model.endpoints);
    return node.kind === 'bucket' ? node.parent : undefined;
  }
}

// The live health of the Endpoints view's endpoints (GET /v2/{id}/health): one look at every listed endpoint
// when the tree loads, then looks again every few seconds at the endpoints with work (busy at the last look,
// or running a job of ours), only while the view is visible: nothing is sent while it is hidden. A service
// without the health route is learned once (RouteSupport) and never asked again. No `vscode` import (its events
// are plain listeners, which a vscode.Event also is), so the unit tests drive it against a real local server.
import type { Logger } from '../core/log';
import { mayBeMissingRoute, sharedRouteSupport, type RouteSupport } from '../core/runtime/routeSupport';
import type { HealthResponse } from '../core/runtime/schemas';
import { sharedHealthAnswers } from '../core/jobs/queueReason';
import type { ServiceClient } from '../core/service';
import { endpointsToPoll, nextHealthPollMs } from './healthPlan';
import type { HealthLook } from './healthText';

/** At most this many endpoints get live health (the first ones of the tree): one request each per look. */
export const MAX_HEALTH_ENDPOINTS = 25;
/** Requests of one look sent at once. */
const CONCURRENCY = 4;
/** Shown again after this long hidden, every endpoint is looked at again (jobs may have been sent from elsewhere). */
export const HEALTH_STALE_MS = 10_000;
/** Jobs starting in a burst make one look, not one each. */
const RUNNING_DEBOUNCE_MS = 250;

interface Disposable {
  dispose(): void;
}

/** The jobs the job runner follows now, by endpoint (wired in extension.ts; the Endpoints view does not import src/jobs). */
export interface RunningJobs {
  endpointIds(): Iterable<string>;
  /** A vscode.Event fits. */
  onDidChange(listener: () => void): Disposable;
}

export class EndpointHealth implements Disposable {
  private readonly looks = new Map<string, HealthLook>();
  private readonly listeners = new Set<(ids: readonly string[]) => void>();
  private client: ServiceClient | undefined;
  private watched: string[] = [];
  private running: RunningJobs | undefined;
  private runningSub: Disposable | undefined;
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private abort = new AbortController();
  private inFlight: Promise<void> | undefined;
  private generation = 0;
  private readonly warned = new Set<string>();

  constructor(
    private readonly isVisible: () => boolean,
    private readonly logger: Logger,
    private readonly routes: RouteSupport = sharedRouteSupport,
  ) {}

  dispose(): void {
    this.stop();
    this.runningSub?.dispose();
    this.listeners.clear();
  }

  /** Endpoints whose health changed (their items must be redrawn). */
  onDidChange(listener: (ids: readonly string[]) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  private fire(ids: readonly string[]): void {
    for (const l of [...this.listeners]) l(ids);
  }

  /** The last look at an endpoint, if any. */
  get(endpointId: string): HealthLook | undefined {
    return this.looks.get(endpointId);
  }

  /** Jobs of ours running on an endpoint make it looked at (and keep it so while they run). */
  setRunningJobs(running: RunningJobs): void {
    this.runningSub?.dispose();
    this.running = running;
    this.runningSub = running.onDidChange(() => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.wake(), RUNNING_DEBOUNCE_MS);
    });
  }

  /**
   * The tree loaded: these endpoints (the account's list, in tree order) have health; undefined client or an
   * empty list stops everything. Looks at all of them once, now, if the view is visible.
   */
  track(client: ServiceClient | undefined, endpointIds: readonly string[]): void {
    this.stop();
    this.generation++;
    if (client !== this.client) this.looks.clear();
    this.client = client;
    this.watched = client ? endpointIds.slice(0, MAX_HEALTH_ENDPOINTS) : [];
    for (const id of [...this.looks.keys()]) if (!this.watched.includes(id)) this.looks.delete(id);
    if (this.isVisible()) this.look(this.watched);
  }

  /**
   * The view was shown or hidden: hidden stops every request; shown looks at what is busy, unknown, or was
   * last looked at more than HEALTH_STALE_MS ago (a queue may have grown from another client meanwhile).
   */
  setVisible(visible: boolean): void {
    if (!visible) {
      this.stop();
      return;
    }
    const now = Date.now();
    this.look(this.watched.filter((id) => (this.looks.get(id)?.at ?? -Infinity) < now - HEALTH_STALE_MS).concat(this.busy()));
  }

  /** One look at one endpoint now, whatever its state (Purge Queue counts the queue just before asking). */
  async lookNow(endpointId: string, client: ServiceClient): Promise<HealthResponse> {
    const health = await client.health(endpointId);
    this.routes.set(client.settings.jobsBaseUrl, 'health', 'yes');
    sharedHealthAnswers.publish(client, endpointId, health, Date.now());
    if (client === this.client && this.watched.includes(endpointId)) {
      this.looks.set(endpointId, { health, at: Date.now() });
      this.fire([endpointId]);
      this.schedule();
    }
    return health;
  }

  /** Resolves when no look is in flight (tests). */
  async whenIdle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /** True while a next look is planned (tests: polling stops when nothing is busy or the view is hidden). */
  get polling(): boolean {
    return this.timer !== undefined || this.inFlight !== undefined;
  }

  private busy(): string[] {
    return endpointsToPoll(this.watched, this.looks, new Set(this.running?.endpointIds() ?? []));
  }

  private stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.debounce);
    this.timer = undefined;
    this.abort.abort();
    this.abort = new AbortController();
  }

  /** A job started or ended: look at once if nothing is in flight (the plan continues from there). */
  private wake(): void {
    if (!this.isVisible() || this.inFlight) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.look(this.busy());
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    if (!client || !this.isVisible() || this.inFlight || this.busy().length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.look(this.busy());
    }, nextHealthPollMs(client.rateLimits, Date.now()));
  }

  private look(ids: readonly string[]): void {
    const client = this.client;
    if (!client || ids.length === 0 || !this.isVisible()) return;
    if (this.routes.get(client.settings.jobsBaseUrl, 'health') === 'no') return;
    const gen = this.generation;
    const signal = this.abort.signal;
    const run = this.lookAll(client, [...new Set(ids)], signal, gen);
    const done = run.finally(() => {
      if (this.inFlight === done) this.inFlight = undefined;
      if (gen === this.generation && !signal.aborted) this.schedule();
    });
    this.inFlight = done;
  }

  private async lookAll(client: ServiceClient, ids: string[], signal: AbortSignal, gen: number): Promise<void> {
    const changed: string[] = [];
    const queue = [...ids];
    const worker = async (): Promise<void> => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        if (signal.aborted || this.routes.get(client.settings.jobsBaseUrl, 'health') === 'no') return;
        try {
          const health = await client.health(id, { signal });
          this.routes.set(client.settings.jobsBaseUrl, 'health', 'yes');
          // The newest read of the endpoint: a queued job's reason is told from it too (one read, one story).
          sharedHealthAnswers.publish(client, id, health, Date.now());
          if (gen !== this.generation) return;
          this.looks.set(id, { health, at: Date.now() });
          changed.push(id);
        } catch (e) {
          if (signal.aborted) return;
          this.failed(client, id, e);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
    if (changed.length && gen === this.generation) this.fire(changed);
  }

  private failed(client: ServiceClient, id: string, e: unknown): void {
    const service = client.settings.jobsBaseUrl;
    // The endpoint is in the account's list, so a 404 / 405 / 501 here is the route missing, not the endpoint.
    if (mayBeMissingRoute(e) && this.routes.get(service, 'health') !== 'yes') {
      this.routes.set(service, 'health', 'no');
      this.logger.info(`Endpoint health: the service at ${new URL(service).host} has no health route; live health is off for it.`);
      return;
    }
    // Anything else (a key without jobs:read, a 5xx, the network) keeps the last look; logged once per endpoint.
    const message = e instanceof Error ? e.message : String(e);
    if (!this.warned.has(id)) this.logger.warn(`Endpoint health of ${id}: ${message}`);
    this.warned.add(id);
  }
}

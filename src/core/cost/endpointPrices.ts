// What the editor knows of each endpoint's GPUs (`gpu.pools`, `gpu.count`), kept so a single job's cost estimate
// at its end needs no request and never waits: the Endpoints view's list (GET /v2/serverless) and a batch's
// planning (GET /v2/serverless/{id}) leave the shapes here as they read them. A job on an endpoint not read yet
// asks for it once, in the background, when it is submitted (its end is seconds away at least); a public model
// has no endpoint of the account to read and reports its own cost, so it is never asked for.
import { sharedRouteSupport, type RouteSupport } from '../runtime/routeSupport';
import { publicModel } from '../serverless/publicModels';
import type { GpuType } from '../serverless/catalogSchemas';
import type { ServerlessEndpoint } from '../serverless/schemas';
import type { ServiceClient } from '../service';
import type { PricePerSecond } from './jobCost';
import { endpointPrice } from './priceTable';

type Shape = Pick<ServerlessEndpoint, 'gpu'>;

/** Most endpoints kept: an account has tens; a bound keeps a long session from growing without end. */
const MAX_KEPT = 500;
/**
 * How long an endpoint that could not be read is not asked for again: a service without the route (a local
 * worker's), a key without endpoints:read, or a deleted endpoint would otherwise cost every job a request.
 */
const UNREADABLE_MS = 10 * 60_000;

export class EndpointPrices {
  /** By service (the REST base URL) and endpoint id. */
  private readonly shapes = new Map<string, Shape>();
  private readonly asking = new Set<string>();
  /** When each endpoint last could not be read (epoch ms). */
  private readonly unreadable = new Map<string, number>();
  /** Each service's GPU catalog, pool -> USD per GPU per hour (issue 28: prices from the catalog). */
  private readonly catalogs = new Map<string, Map<string, number>>();
  private readonly catalogAsked = new Map<string, number>();

  constructor(private readonly routes: RouteSupport = sharedRouteSupport, private readonly now: () => number = Date.now) {}

  /** Keeps the shapes of endpoints just read from `service`. */
  remember(service: string, endpoints: ReadonlyArray<Pick<ServerlessEndpoint, 'id' | 'gpu'>>): void {
    for (const e of endpoints) {
      const key = keyOf(service, e.id);
      this.shapes.delete(key);
      this.shapes.set(key, { gpu: e.gpu });
    }
    while (this.shapes.size > MAX_KEPT) this.shapes.delete(this.shapes.keys().next().value!);
  }

  /**
   * Reads the endpoint's shape in the background when it is not known yet (never awaited: a job must not wait
   * on a price). A failure leaves it unknown (the cost then says so), not asked again for UNREADABLE_MS; nor is
   * a service known to have no endpoint list (learned by the Endpoints view).
   */
  learn(client: ServiceClient, endpointId: string): void {
    const service = client.settings.billingBaseUrl;
    this.learnCatalog(client);
    const key = keyOf(service, endpointId);
    if (publicModel(endpointId) || this.shapes.has(key) || this.asking.has(key)) return;
    if (this.routes.get(service, 'endpointList') === 'no' || this.now() - (this.unreadable.get(key) ?? -Infinity) < UNREADABLE_MS) return;
    this.asking.add(key);
    void client.getEndpoint(endpointId).then(
      (endpoint) => {
        this.unreadable.delete(key);
        this.remember(service, [endpoint]);
      },
      () => void this.unreadable.set(key, this.now()),
    ).finally(() => this.asking.delete(key));
  }

  /** Keeps a service's GPU catalog (the forms read it too): each pool's highest serverless price per hour. */
  rememberCatalog(service: string, gpus: ReadonlyArray<Pick<GpuType, 'pool' | 'price'>>): void {
    const perHour = new Map<string, number>();
    for (const g of gpus) {
      const p = g.price.serverless;
      if (g.pool && typeof p === 'number' && p >= 0 && p > (perHour.get(g.pool) ?? -1)) perHour.set(g.pool, p);
    }
    this.catalogs.set(service, perHour);
  }

  /** Reads the service's GPU catalog once in the background (again after UNREADABLE_MS when it failed). */
  learnCatalog(client: ServiceClient): void {
    const service = client.settings.billingBaseUrl;
    if (this.catalogs.has(service) || this.now() - (this.catalogAsked.get(service) ?? -Infinity) < UNREADABLE_MS) return;
    this.catalogAsked.set(service, this.now());
    void client.listGpuTypes().then((r) => this.rememberCatalog(service, r.gpus), () => undefined);
  }

  /** The price per second of a job of `endpointId` now, from what is known (undefined: not known). */
  priceOf(service: string, endpointId: string, gpuPrices: Readonly<Record<string, number>>): PricePerSecond | undefined {
    return endpointPrice(this.shapes.get(keyOf(service, endpointId)), gpuPrices, this.catalogs.get(service));
  }
}

function keyOf(service: string, endpointId: string): string {
  return `${service}\n${endpointId}`;
}

/** The one the Endpoints view, batches and the job runner share. */
export const sharedEndpointPrices = new EndpointPrices();

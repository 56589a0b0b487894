// What the editor knows of each endpoint's GPUs (`gpu.pools`, `gpu.count`), kept so a single job's cost estimate
// at its end needs no request and never waits: the Endpoints view's list (GET /v2/serverless) and a batch's
// planning (GET /v2/serverless/{id}) leave the shapes here as they read them. A job on an endpoint not read yet
// asks for it once, in the background, when it is submitted (its end is seconds away at least); a public model
// has no endpoint of the account to read and reports its own cost, so it is never asked for.
import { publicModel } from '../serverless/publicModels';
import type { ServerlessEndpoint } from '../serverless/schemas';
import type { ServiceClient } from '../service';
import type { PricePerSecond } from './jobCost';
import { endpointPrice } from './priceTable';

type Shape = Pick<ServerlessEndpoint, 'gpu'>;

/** Most endpoints kept: an account has tens; a bound keeps a long session from growing without end. */
const MAX_KEPT = 500;

export class EndpointPrices {
  /** By service (the REST base URL) and endpoint id. */
  private readonly shapes = new Map<string, Shape>();
  private readonly asking = new Set<string>();

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
   * on a price). A failure leaves it unknown, to be asked again by the next job; the cost then says unknown.
   */
  learn(client: ServiceClient, endpointId: string): void {
    const service = client.settings.billingBaseUrl;
    const key = keyOf(service, endpointId);
    if (publicModel(endpointId) || this.shapes.has(key) || this.asking.has(key)) return;
    this.asking.add(key);
    void client.getEndpoint(endpointId).then(
      (endpoint) => this.remember(service, [endpoint]),
      () => undefined,
    ).finally(() => this.asking.delete(key));
  }

  /** The price per second of a job of `endpointId` now, from what is known (undefined: not known). */
  priceOf(service: string, endpointId: string, gpuPrices: Readonly<Record<string, number>>): PricePerSecond | undefined {
    return endpointPrice(this.shapes.get(keyOf(service, endpointId)), gpuPrices);
  }
}

function keyOf(service: string, endpointId: string): string {
  return `${service}\n${endpointId}`;
}

/** The one the Endpoints view, batches and the job runner share. */
export const sharedEndpointPrices = new EndpointPrices();

// A per-GPU price table (USD per second, flex workers), for dedicated endpoints whose price the billing route
// cannot give yet (no billed seconds known). From docs.runpod.io/serverless/pricing as read on 2026-11-25; keyed
// by the GPU pool ids an endpoint lists in `gpu.pools` (GET /v2/serverless/{id}). The user overrides any entry
// (a setting): prices change, and accounts have their own.
import type { ServerlessEndpoint } from '../serverless/schemas';
import type { PricePerSecond } from './jobCost';
import { formatUsd } from '../billing/usd';

export const DEFAULT_GPU_PRICES: Readonly<Record<string, { usdPerSecond: number; name: string }>> = {
  AMPERE_16: { usdPerSecond: 0.00016, name: 'A4000 / A4500 / RTX 4000' },
  AMPERE_24: { usdPerSecond: 0.00019, name: 'L4 / A5000 / 3090' },
  ADA_24: { usdPerSecond: 0.00031, name: 'RTX 4090' },
  AMPERE_48: { usdPerSecond: 0.00034, name: 'A6000 / A40' },
  ADA_48_PRO: { usdPerSecond: 0.00053, name: 'L40 / L40S / 6000 Ada' },
  AMPERE_80: { usdPerSecond: 0.00076, name: 'A100 80GB' },
  ADA_80_PRO: { usdPerSecond: 0.00116, name: 'H100' },
  HOPPER_141: { usdPerSecond: 0.00155, name: 'H200' },
};

/**
 * The price of one worker of `endpoint`: its pools' highest price (workers land on any listed pool, so the
 * estimate does not come out low), times its GPUs per worker. `overrides` (pool id -> USD/s) win.
 */
export function priceFromTable(endpoint: Pick<ServerlessEndpoint, 'gpu'>, overrides: Readonly<Record<string, number>> = {}): PricePerSecond | undefined {
  const pools = endpoint.gpu?.pools ?? [];
  const count = endpoint.gpu?.count ?? 1;
  let best: { pool: string; usd: number; own: boolean } | undefined;
  for (const pool of pools) {
    const own = overrides[pool];
    const usd = typeof own === 'number' && own >= 0 ? own : DEFAULT_GPU_PRICES[pool]?.usdPerSecond;
    if (usd !== undefined && (!best || usd > best.usd)) best = { pool, usd, own: typeof own === 'number' };
  }
  if (!best) return undefined;
  const name = DEFAULT_GPU_PRICES[best.pool]?.name ?? best.pool;
  const gpus = count > 1 ? ` x ${count} GPUs` : '';
  return {
    usdPerSecond: best.usd * count,
    pool: best.pool,
    gpus: count,
    source: `${best.own ? 'your price table' : 'price table'}: ${name} (${best.pool}) ${formatUsd(best.usd)}/s${gpus}`,
  };
}

/**
 * The price of one worker from the service's GPU catalog (GET /v2/catalog/gpus: pool -> USD per GPU per hour):
 * its pools' highest price times its GPUs per worker, the user's own prices winning as in the table. Undefined
 * when a pool has neither a catalog price nor the user's (the table is then the fallback).
 */
export function priceFromCatalog(
  endpoint: Pick<ServerlessEndpoint, 'gpu'>, catalogPerHour: ReadonlyMap<string, number>, overrides: Readonly<Record<string, number>> = {},
): PricePerSecond | undefined {
  const pools = endpoint.gpu?.pools ?? [];
  const count = endpoint.gpu?.count ?? 1;
  let best: { pool: string; usd: number; own: boolean } | undefined;
  for (const pool of pools) {
    const own = overrides[pool];
    const hourly = catalogPerHour.get(pool);
    // Rounded to 1e-10 $/s: 0.576/3600 is 0.00015999999999999999 in floating point, and the words show the price.
    const usd = typeof own === 'number' && own >= 0 ? own : hourly !== undefined ? Math.round((hourly / 3600) * 1e10) / 1e10 : undefined;
    if (usd === undefined) return undefined;
    if (!best || usd > best.usd) best = { pool, usd, own: typeof own === 'number' };
  }
  if (!best) return undefined;
  const gpus = count > 1 ? ` x ${count} GPUs` : '';
  const what = best.own ? `your price table: ${best.pool} ${formatUsd(best.usd)}/s` : `the service's GPU catalog: ${best.pool} ${formatUsd(catalogPerHour.get(best.pool)!)}/h = ${formatUsd(best.usd)}/s`;
  return { usdPerSecond: best.usd * count, source: `${what}${gpus}` };
}

/**
 * The price per second a job of `endpoint` is estimated with, a batch's and a single job's alike: by its GPU
 * pools and count, the user's own prices (`serverlessGpu.batch.gpuPrices`) winning, then the service's GPU
 * catalog when it was read (issue 28), then the table (the fallback; its source says which was used). Undefined
 * without the endpoint's shape (a public endpoint has none to read, or it was not read).
 */
export function endpointPrice(
  endpoint: Pick<ServerlessEndpoint, 'gpu'> | undefined, gpuPrices: Readonly<Record<string, number>>, catalogPerHour?: ReadonlyMap<string, number>,
): PricePerSecond | undefined {
  if (!endpoint) return undefined;
  return (catalogPerHour && priceFromCatalog(endpoint, catalogPerHour, gpuPrices)) || priceFromTable(endpoint, gpuPrices);
}

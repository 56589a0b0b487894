// What a change of an endpoint means in money, from the GPU catalog (GET /v2/catalog/gpus): a pool's price
// per hour, and what always-on workers cost a day (workers.min x the pool's price x GPUs per worker x 24 h).
// Workers land on any listed pool, so an endpoint's price is its dearest pool's (an estimate that does not come
// out low, as the price table's). Numbers only: the editor formats them. Undefined where the catalog does not
// know the pool (the words then say the price is unknown rather than $0).
import type { GpuType } from './resourceSchemas';
import type { EndpointSettings } from './endpointEdit';

/** USD per GPU per hour of a serverless pool: the highest serverless price among its GPU types. */
export function poolPricePerHour(catalog: readonly GpuType[], pool: string): number | undefined {
  let best: number | undefined;
  for (const g of catalog) {
    if (g.pool === pool && typeof g.price.serverless === 'number' && (best === undefined || g.price.serverless > best)) best = g.price.serverless;
  }
  return best;
}

/** USD per hour of one worker: its dearest pool's price x GPUs per worker. */
export function workerPricePerHour(catalog: readonly GpuType[], pools: readonly string[], gpuCount: number): number | undefined {
  const prices = pools.map((p) => poolPricePerHour(catalog, p));
  if (!prices.length || prices.some((p) => p === undefined)) return undefined;
  return Math.max(...(prices as number[])) * gpuCount;
}

/** USD a day of the always-on workers: workers.min x the worker's price per hour x 24. */
export function alwaysOnPerDay(catalog: readonly GpuType[], s: Pick<EndpointSettings, 'workersMin' | 'gpuPools' | 'gpuCount'>): number | undefined {
  if (s.workersMin === 0) return 0;
  const hourly = workerPricePerHour(catalog, s.gpuPools, s.gpuCount);
  return hourly === undefined ? undefined : s.workersMin * hourly * 24;
}

export interface MoneyOfChange {
  /** Always-on spend a day, before and after (undefined: a pool without a catalog price). */
  alwaysOnPerDay: { before: number | undefined; after: number | undefined };
  /** One worker's price per hour, before and after. */
  workerPerHour: { before: number | undefined; after: number | undefined };
  /** The change raises what is spent even with no job (the editor asks first). */
  raisesAlwaysOn: boolean;
  /** Each pool of the new selection with its price per GPU per hour. */
  pools: Array<{ pool: string; perHour: number | undefined }>;
}

export function moneyOfChange(catalog: readonly GpuType[], before: EndpointSettings, after: EndpointSettings): MoneyOfChange {
  const b = alwaysOnPerDay(catalog, before);
  const a = alwaysOnPerDay(catalog, after);
  return {
    alwaysOnPerDay: { before: b, after: a },
    workerPerHour: { before: workerPricePerHour(catalog, before.gpuPools, before.gpuCount), after: workerPricePerHour(catalog, after.gpuPools, after.gpuCount) },
    // Unknown after with workers always on counts as a raise: the user is asked rather than surprised.
    raisesAlwaysOn: after.workersMin > 0 && (a === undefined || b === undefined || a > b),
    pools: after.gpuPools.map((pool) => ({ pool, perHour: poolPricePerHour(catalog, pool) })),
  };
}

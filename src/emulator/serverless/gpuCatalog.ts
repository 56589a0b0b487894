// GET /v2/catalog/gpus (listGpuTypes): the GPU types of the serverless pools, with their memory and prices, in
// the reference's `GpuType` shape (src/core/serverless/resourceSchemas.ts). The serverless price of a pool is
// the project's own price table (src/core/cost/priceTable.ts, from the platform's pricing page), per GPU per
// hour, so what the catalog says and what the emulator bills cannot disagree: an endpoint's GPU time is billed
// at its first pool's price times gpu.count (serverless/endpointStore.ts). Pod prices: the emulator has no pods;
// the catalog repeats the serverless rate there (the field is required), as docs/emulator.md says.
import type { GpuType } from '../../core/serverless/resourceSchemas';
import { DEFAULT_GPU_PRICES } from '../../core/cost/priceTable';

/** The GPU types of each pool (type id, short name, VRAM in GB), as the platform names them. */
const TYPES_OF_POOL: Record<string, Array<[id: string, name: string, memory: number]>> = {
  AMPERE_16: [['NVIDIA RTX A4000', 'RTX A4000', 16], ['NVIDIA RTX A4500', 'RTX A4500', 20], ['NVIDIA RTX 4000 Ada Generation', 'RTX 4000 Ada', 20]],
  AMPERE_24: [['NVIDIA RTX A5000', 'RTX A5000', 24], ['NVIDIA L4', 'L4', 24], ['NVIDIA GeForce RTX 3090', 'RTX 3090', 24]],
  ADA_24: [['NVIDIA GeForce RTX 4090', 'RTX 4090', 24]],
  AMPERE_48: [['NVIDIA RTX A6000', 'RTX A6000', 48], ['NVIDIA A40', 'A40', 48]],
  ADA_48_PRO: [['NVIDIA L40', 'L40', 48], ['NVIDIA L40S', 'L40S', 48], ['NVIDIA RTX 6000 Ada Generation', 'RTX 6000 Ada', 48]],
  AMPERE_80: [['NVIDIA A100 80GB PCIe', 'A100 PCIe', 80], ['NVIDIA A100-SXM4-80GB', 'A100 SXM', 80]],
  ADA_80_PRO: [['NVIDIA H100 80GB HBM3', 'H100 SXM', 80], ['NVIDIA H100 PCIe', 'H100 PCIe', 80]],
  HOPPER_141: [['NVIDIA H200', 'H200 SXM', 141]],
};

/** USD per GPU per hour of a serverless pool; undefined for a pool the catalog does not have. */
export function poolPricePerHour(pool: string): number | undefined {
  const p = DEFAULT_GPU_PRICES[pool];
  return p && TYPES_OF_POOL[pool] ? Math.round(p.usdPerSecond * 3600 * 10_000) / 10_000 : undefined;
}

/**
 * USD per GPU per second of a serverless pool, as a client reads it off the catalog (its hourly price / 3600,
 * rounded to 1e-10 as src/core/cost/priceTable.ts priceFromCatalog does); undefined for a pool it does not have.
 * What the emulator bills an endpoint's GPU time at unless its config sets a price of its own.
 */
export function poolPricePerSecond(pool: string): number | undefined {
  const hourly = poolPricePerHour(pool);
  return hourly === undefined ? undefined : Math.round((hourly / 3600) * 1e10) / 1e10;
}

export function isKnownPool(pool: string): boolean {
  return poolPricePerHour(pool) !== undefined;
}

export const KNOWN_POOLS: readonly string[] = Object.keys(TYPES_OF_POOL).filter(isKnownPool);

/** The GPU type ids of a pool (what `gpu.excludedTypes` may name). */
export function typesOfPool(pool: string): string[] {
  return (TYPES_OF_POOL[pool] ?? []).map(([id]) => id);
}

/** The first GPU type of the first pool, not excluded: where the emulator "places" a worker. */
export function placedGpuType(pools: readonly string[], excluded: readonly string[] = []): string | null {
  for (const pool of pools) for (const id of typesOfPool(pool)) if (!excluded.includes(id)) return id;
  return null;
}

export function gpuCatalog(): GpuType[] {
  return KNOWN_POOLS.flatMap((pool) => {
    const hourly = poolPricePerHour(pool)!;
    return TYPES_OF_POOL[pool]!.map(([id, name, memory]) => ({
      id, name, pool, manufacturer: 'NVIDIA', memory, secure: true, community: false,
      price: { secure: hourly, community: hourly, serverless: hourly },
      maxCount: { secure: 8, community: 0 },
    }));
  });
}

// What one second of a worker costs, and how the billing route splits it into its parts. The platform publishes
// ONE price per second per GPU type (docs "Pricing": "Compute costs: charged per second based on the GPU type"; the
// REST v2 GPU catalog's `price.serverless`), and that is what a user pays per worker-second. Its billing route
// breaks every record into gpuAmount, cpuAmount, diskAmount and feeAmount (SPEC 2.2) without publishing the split.
// So an endpoint billed at its catalog price is billed exactly that price per second, split into the four parts
// by fixed shares: what the extension estimates with the catalog price is then the whole bill, not 88% of it.

/** A worker's per-second prices, as the emulator bills them (config.ts resolves a config's `prices` to this). */
export interface WorkerPrices {
  gpuPerSecond: number;
  cpuPerSecond: number;
  diskPerSecond: number;
  feePerSecond: number;
  /**
   * true: every part is per GPU (a catalog price covers the whole worker that comes with each GPU: its vCPUs,
   * memory and container disk), so a worker of N GPUs pays N x all four. false: prices as a config writes them,
   * the GPU part per GPU and the rest per worker.
   */
  allPerGpu: boolean;
}

/**
 * The shares of a catalog price per part. Not published by the platform; chosen to look like the demo's year of
 * history (billing/syntheticUsage.ts: CPU 5 to 10% of the GPU amount, the fee 4% of it, disk a small constant),
 * so an hour billed live and an hour of history draw the same stack in the cost chart. The fee takes what the
 * other three leave (catalogPrices), so the parts sum to the price.
 */
export const CATALOG_SHARES = { gpu: 0.89, cpu: 0.07, disk: 0.005, fee: 0.035 } as const;

/** A catalog price (USD per GPU per second) as the four parts a worker of one GPU is billed per second. */
export function catalogPrices(perGpuSecond: number): WorkerPrices {
  const gpuPerSecond = perGpuSecond * CATALOG_SHARES.gpu;
  const cpuPerSecond = perGpuSecond * CATALOG_SHARES.cpu;
  const diskPerSecond = perGpuSecond * CATALOG_SHARES.disk;
  return { gpuPerSecond, cpuPerSecond, diskPerSecond, feePerSecond: perGpuSecond - gpuPerSecond - cpuPerSecond - diskPerSecond, allPerGpu: true };
}

/** USD per second of a worker of `gpus` GPUs at these prices: the four parts together. */
export function perWorkerSecond(p: WorkerPrices, gpus: number): number {
  return p.allPerGpu
    ? (p.gpuPerSecond + p.cpuPerSecond + p.diskPerSecond + p.feePerSecond) * gpus
    : p.gpuPerSecond * gpus + p.cpuPerSecond + p.diskPerSecond + p.feePerSecond;
}

// The checks of a create or update body beyond its schema (issue 28, "Bad bodies"): what the reference answers
// with 400 (workers.min above workers.max, an unknown pool, an exclusion outside the pools, a CUDA set beside a
// floor, an idle timeout on a request-count scaler, gpu on a CPU endpoint). Read from the raw body, defensively,
// so one answer lists every problem at once, the schema's (422) and these together.
import { isKnownPool, KNOWN_POOLS, typesOfPool } from './gpuCatalog';

type Raw = Record<string, unknown>;

function obj(v: unknown): Raw | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined;
}

function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/** What the endpoint is now (for an update), to judge the body's values against. */
export interface CurrentSettings {
  workersMin: number;
  workersMax: number;
  pools: readonly string[];
  family: 'gpu' | 'cpu';
  /** The endpoint's scaler now: a PATCH sending an idle timeout alone is judged against it. */
  scalerType: 'QUEUE_DELAY' | 'REQUEST_COUNT';
}

function gpuChecks(gpu: Raw, errors: string[]): void {
  const pools = Array.isArray(gpu.pools) ? gpu.pools.filter((p): p is string => typeof p === 'string') : undefined;
  for (const p of pools ?? []) {
    if (!isKnownPool(p)) errors.push(`gpu.pools: unknown pool "${p}" (the catalog's pools: ${KNOWN_POOLS.join(', ')})`);
  }
  if (Array.isArray(gpu.excludedTypes) && pools) {
    const allowed = new Set(pools.flatMap(typesOfPool));
    const excluded = gpu.excludedTypes.filter((t): t is string => typeof t === 'string').map((t) => t.trim());
    for (const t of excluded) {
      if (!allowed.has(t)) errors.push(`gpu.excludedTypes: "${t}" is not a GPU type of the pools ${pools.join(', ')}`);
    }
    if (pools.length && pools.every((p) => isKnownPool(p)) && [...allowed].every((t) => excluded.includes(t))) {
      errors.push('gpu.excludedTypes: excludes every GPU type of the pools; keep at least one');
    }
  }
  if (Array.isArray(gpu.allowedCudaVersions) && gpu.allowedCudaVersions.length && typeof gpu.minCudaVersion === 'string' && gpu.minCudaVersion !== '') {
    errors.push('gpu: allowedCudaVersions and minCudaVersion are mutually exclusive; send one');
  }
}

/** The 400-class problems of a create (`current` undefined) or update body. */
export function bodyProblems(body: unknown, current: CurrentSettings | undefined): string[] {
  const b = obj(body);
  if (!b) return [];
  const errors: string[] = [];
  const hasGpu = b.gpu !== undefined;
  const hasCpu = b.cpu !== undefined;
  if (hasGpu && hasCpu) errors.push('gpu, cpu: send one of them, not both (an endpoint is a GPU or a CPU endpoint)');
  if (!current && !hasGpu && !hasCpu) errors.push('gpu, cpu: one of them is required');
  if (current?.family === 'cpu' && hasGpu && !hasCpu) errors.push('gpu: this is a CPU endpoint; the compute family cannot change');
  if (current?.family === 'gpu' && hasCpu && !hasGpu) errors.push('cpu: this is a GPU endpoint; the compute family cannot change');
  if (!current && b.image === undefined && b.templateId === undefined) errors.push('image: required unless templateId is given');
  const workers = obj(b.workers);
  const min = int(workers?.min) ?? current?.workersMin ?? 0;
  const max = int(workers?.max) ?? current?.workersMax ?? 3;
  if (min > max) errors.push(`workers.min: ${min} is above workers.max (${max})`);
  // The reference (EndpointWorkers.idleTimeout): "Not applicable to queue-based endpoints scaling on
  // requestCount: rejected on create/update". The scaler is the body's, else (a PATCH) the endpoint's.
  const scaling = obj(b.scaling);
  const scalerType = typeof scaling?.type === 'string' ? scaling.type : current?.scalerType;
  if (scalerType === 'REQUEST_COUNT' && workers?.idleTimeout !== undefined) {
    errors.push(`workers.idleTimeout: not applicable to a queue endpoint scaling on REQUEST_COUNT${scaling ? '' : ' (this endpoint\'s scaler)'}; leave it out, or switch scaling to QUEUE_DELAY with it`);
  }
  if (!current && b.type === 'LOAD_BALANCER') {
    errors.push('type: the emulator runs queue endpoints only (QUEUE); a load balancer\'s paths are the worker\'s own');
  }
  const gpu = obj(b.gpu);
  if (gpu) gpuChecks(gpu, errors);
  return errors;
}

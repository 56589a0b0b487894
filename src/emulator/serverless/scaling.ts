// An endpoint's worker and scaling settings as the REST list shows them (`workers.min/max/idleTimeout`,
// `timeout`), read from the endpoint config. The queue model (src/emulator/jobs/) owns these fields; this
// room only reads them, with the platform's defaults when a config leaves them out.
import type { EndpointConfig } from '../config';

export interface EndpointScaling {
  workersMin: number;
  workersMax: number;
  /** Seconds an idle worker is kept before it scales down. */
  idleTimeoutSeconds: number;
  /** Per-request execution timeout (the REST `timeout`), in milliseconds. */
  executionTimeoutMs: number;
}

/** The reference's create defaults (workers.max 3 in its CPU example, idleTimeout 5, timeout 300000). */
const DEFAULTS: EndpointScaling = { workersMin: 0, workersMax: 3, idleTimeoutSeconds: 5, executionTimeoutMs: 300_000 };

function intField(e: EndpointConfig, name: string): number | undefined {
  const v = (e as Record<string, unknown>)[name];
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

export function scalingOf(e: EndpointConfig): EndpointScaling {
  const idleMs = intField(e, 'idleTimeoutMs');
  return {
    workersMin: intField(e, 'workersMin') ?? DEFAULTS.workersMin,
    workersMax: intField(e, 'workersMax') ?? DEFAULTS.workersMax,
    idleTimeoutSeconds: intField(e, 'idleTimeoutSeconds') ?? (idleMs !== undefined ? Math.max(1, Math.round(idleMs / 1000)) : DEFAULTS.idleTimeoutSeconds),
    executionTimeoutMs: intField(e, 'executionTimeoutMs') ?? DEFAULTS.executionTimeoutMs,
  };
}

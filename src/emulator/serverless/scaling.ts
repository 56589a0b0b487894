// An endpoint's worker and scaling settings as the REST list shows them (`workers.min/max/idleTimeout`,
// `timeout`), read from the endpoint config. The queue model (src/emulator/jobs/runtimeSettings.ts) owns these
// fields and their defaults; this room only converts them to the reference's units.
import type { EndpointConfig } from '../config';

// A queue endpoint scaling on REQUEST_COUNT takes no idle timeout (the reference: "not applicable", refused,
// omitted from responses). The engine still stops its idle workers after the endpoint's idleTimeoutMs (one rule
// for both scalers, jobs/engine.ts), so an endpoint created or switched to REQUEST_COUNT through the REST API
// gets the platform's own delay there: the one Tune Endpoint replays with (core/serverless/scaleDown.ts).
export { REQUEST_COUNT_SCALE_DOWN_MS } from '../../core/serverless/scaleDown';

export interface EndpointScaling {
  workersMin: number;
  workersMax: number;
  /** Seconds an idle worker is kept before it scales down: the reference's `workers.idleTimeout`, 1..3600. */
  idleTimeoutSeconds: number;
  /** Per-request execution timeout (the REST `timeout`), in milliseconds. */
  executionTimeoutMs: number;
}

export function scalingOf(e: EndpointConfig): EndpointScaling {
  return {
    workersMin: e.workersMin,
    workersMax: e.workersMax,
    // The config counts in milliseconds (0 is allowed: workers stop at once); the reference's field is whole
    // seconds from 1 to 3600, so it is rounded into that range.
    idleTimeoutSeconds: Math.min(3600, Math.max(1, Math.round(e.idleTimeoutMs / 1000))),
    executionTimeoutMs: e.executionTimeoutMs,
  };
}

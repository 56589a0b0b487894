// What "Serve Worker Locally" needs to know about a Python file (issue 14 item 3), vscode-free so it is unit-tested:
// whether it starts a worker, which endpoint id it gets, and the emulator config that serves it.
import * as path from 'node:path';
import { RUNPOD_PIN } from './runpodPin';

/** A worker file calls `runpod.serverless.start(...)` (the platform's documented entry point). */
const START_CALL = /\brunpod\.serverless\.start\s*\(/;

export function callsServerlessStart(text: string): boolean {
  return START_CALL.test(text);
}

/** The first line that calls it (0-based), for the CodeLens; -1 if none. */
export function startCallLine(text: string): number {
  return text.split('\n').findIndex((l) => START_CALL.test(l));
}

/** The endpoint is named after the file: `handler.py` -> `handler` (only letters, digits, `-`, `_`). */
export function endpointIdFor(file: string): string {
  const base = path.basename(file, path.extname(file)).replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return base && base !== 'serverless' ? base : 'local-worker';
}

/** The connection profile a served worker is reached through. */
export const LOCAL_WORKER_PROFILE_NAME = 'Local worker';

export const LOCAL_WORKER_KEY = 'local-worker-key';

/**
 * A saved file belongs to the served worker when it is in the worker file's folder or below it (restart on save).
 * Compared by path.relative, not by prefix: `/a/worker2` is not inside `/a/worker`.
 */
export function isInWorkerFolder(workerFile: string, savedFile: string): boolean {
  const rel = path.relative(path.dirname(workerFile), savedFile);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** The emulator config of one `worker` endpoint running `file` with `python`, in the file's folder. */
export function localWorkerConfig(python: string, file: string): { config: unknown; endpointId: string } {
  const endpointId = endpointIdFor(file);
  return {
    endpointId,
    config: {
      users: [{
        id: 'local',
        keys: [{ key: LOCAL_WORKER_KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }],
        endpoints: [{
          id: endpointId, name: path.basename(file), kind: 'worker', queueMs: 0, workersMin: 1, workersMax: 1, idleTimeoutMs: 600_000,
          worker: { command: [python, file], cwd: path.dirname(file) },
        }],
      }],
    },
  };
}

/** What to tell the user when `runpod` does not import with `python`. */
export function missingRunpodMessage(python: string, detail: string): string {
  return `The worker cannot be served: \`import runpod\` fails with ${python} (${detail.trim().split('\n').pop() ?? 'no detail'}). Install the platform's package into that environment: ${python} -m pip install runpod==${RUNPOD_PIN}`;
}

// Runs replays in a worker thread (dist/replayWorker.js): the host's thread only posts the request and reads
// results as they come. cancel() terminates the thread at once, wherever the replay is.
import { Worker } from 'node:worker_threads';
import type { ReplayResult, ReplaySettings, ReplayTraffic } from './replay';
import type { ReplayMessage } from './replayWorker';

export interface ReplayRun {
  /** Every candidate's result, in the candidates' order. */
  results: Promise<ReplayResult[]>;
  cancel(): void;
}

export function startReplays(
  workerFile: string, traffic: ReplayTraffic, candidates: ReplaySettings[],
  onProgress?: (m: Extract<ReplayMessage, { kind: 'progress' | 'result' }>) => void,
): ReplayRun {
  const worker = new Worker(workerFile);
  const out: ReplayResult[] = [];
  let settle: { resolve: (r: ReplayResult[]) => void; reject: (e: Error) => void } | undefined;
  const results = new Promise<ReplayResult[]>((resolve, reject) => { settle = { resolve, reject }; });
  const end = (err?: Error): void => {
    if (!settle) return;
    const s = settle;
    settle = undefined;
    void worker.terminate();
    if (err) s.reject(err);
    else s.resolve(out);
  };
  worker.on('message', (m: ReplayMessage) => {
    if (m.kind === 'result') out[m.candidate] = m.result;
    if (m.kind === 'progress' || m.kind === 'result') onProgress?.(m);
    else if (m.kind === 'done') end();
    else end(new Error(`The replay failed: ${m.message}`));
  });
  worker.on('error', (e) => end(e));
  worker.on('exit', () => end(new Error('The replay was cancelled.')));
  worker.postMessage({ traffic, candidates });
  return { results, cancel: () => end(new Error('The replay was cancelled.')) };
}

// The replay's worker thread (issue 29: "off the extension host's thread, cancellable, streaming progress"):
// dist/replayWorker.js, started by replayThread.ts. It replays the traffic under each candidate in turn and
// posts progress as it goes; cancelling is terminating the thread.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { replay, type ReplaySettings, type ReplayTraffic } from './replay';

export interface ReplayRequest { traffic: ReplayTraffic; candidates: ReplaySettings[] }
export type ReplayMessage =
  | { kind: 'progress'; candidate: number; arrivals: number }
  | { kind: 'result'; candidate: number; result: ReturnType<typeof replay> }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

// On Linux a thread has its own nice value, and 0 here means this thread: the replay yields the cores to the
// extension host's thread (and the rest of the editor) whenever they want them.
try {
  setPriority(0, 19);
} catch {
  // Not allowed here: the replay still runs, at the same priority as the host.
}

parentPort?.on('message', (req: ReplayRequest) => {
  const post = (m: ReplayMessage): void => parentPort!.postMessage(m);
  try {
    req.candidates.forEach((settings, candidate) => {
      const result = replay(req.traffic, settings, { onProgress: (arrivals) => post({ kind: 'progress', candidate, arrivals }), progressEvery: 2000 });
      post({ kind: 'result', candidate, result });
    });
    post({ kind: 'done' });
  } catch (err) {
    post({ kind: 'error', message: (err as Error).message });
  }
});

// Time as the HTTP layer sees it: injectable so tests and benchmarks can observe every wait the client
// decides on (retries, Retry-After, exhausted rate-limit windows) without the logic depending on real time.
import { CancelledError } from './errors';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Resolves after `ms`, never earlier by `now()`; rejects with CancelledError as soon as `signal` aborts
   * (also if it already has).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Real time: Date.now and setTimeout. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new CancelledError());
        return;
      }
      const deadline = Date.now() + Math.max(0, ms);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new CancelledError());
      };
      // A timer may fire a millisecond before Date.now() reaches the deadline; a request held for a
      // Retry-After must not leave early, so the remainder is slept again.
      const arm = (): void => {
        const left = deadline - Date.now();
        if (left <= 0) {
          signal?.removeEventListener('abort', onAbort);
          resolve();
          return;
        }
        timer = setTimeout(arm, left);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      arm();
    }),
};

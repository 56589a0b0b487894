// A wait before a retry, in words (issue 12): "Rate limited by the service: retrying in 5 s". One function for
// the Endpoints view, the status bar, the Jobs view and the job panel (whose webview bundles it too), so the
// same wait reads the same everywhere. No `vscode` import.

/** The parts of a transport's RetryWait (src/core/http/request.ts) the words need. */
export interface WaitLike {
  reason: 'rateLimited' | 'unavailable' | 'network' | 'quota';
  status?: number;
  /** Epoch ms of the next attempt. */
  until: number;
}

function why(wait: WaitLike): string {
  switch (wait.reason) {
    case 'rateLimited': return 'Rate limited by the service';
    case 'unavailable': return `The service is unavailable${wait.status ? ` (${wait.status})` : ''}`;
    case 'network': return 'The connection failed';
    case 'quota': return 'The rate-limit window is used up';
  }
}

/** Whole seconds left, at least 1 while the wait is on (a "0 s" would read as stuck). */
export function secondsLeft(wait: WaitLike, now: number): number {
  return Math.max(1, Math.ceil((wait.until - now) / 1000));
}

export function retryWaitText(wait: WaitLike, now = Date.now()): string {
  return `${why(wait)}: retrying in ${secondsLeft(wait, now)} s`;
}

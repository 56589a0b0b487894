// Holding an HTTP request until something happens on the emulator clock (/runsync, /status-sync, /stream):
// real time bounds the hold, because it is how long a request is kept open; emulator time decides when the
// awaited thing happens, so a jump of the admin clock re-checks at once instead of waiting out a timer.
import type { EmulatorClock } from '../clock';

/** The longest single timer: setTimeout overflows past 2^31-1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Resolves when `isDone()`, after `waitMs` of real time, or on `signal`. `nextAt()` is the emulator instant at
 * which `isDone` may next change (undefined: only a request or a clock move can change it).
 */
export function holdUntil(
  clock: EmulatorClock, isDone: () => boolean, nextAt: () => number | undefined, waitMs: number, signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const deadline = Date.now() + waitMs;
    let timer: NodeJS.Timeout | undefined;
    let offClock = (): void => {};
    const done = (): void => {
      clearTimeout(timer);
      offClock();
      signal.removeEventListener('abort', check);
      resolve();
    };
    function check(): void {
      clearTimeout(timer);
      if (signal.aborted || Date.now() >= deadline || isDone()) return done();
      const at = nextAt();
      const untilEvent = at === undefined ? Number.POSITIVE_INFINITY : at - clock.now();
      timer = setTimeout(check, Math.min(MAX_TIMER_MS, Math.max(1, Math.min(untilEvent, deadline - Date.now()))));
    }
    offClock = clock.onChange(check);
    signal.addEventListener('abort', check);
    check();
  });
}

// Waits for a condition a real server or process makes true in its own time; fails naming what never came.
import { setTimeout as sleep } from 'node:timers/promises';

export async function until(what: string, cond: () => boolean, timeoutMs = 5000, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

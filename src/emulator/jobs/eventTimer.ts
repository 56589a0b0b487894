// The engine's wake-up on the real clock: a timer for its next event, so jobs end (webhooks, stop signals)
// even when nobody reads. Most reads change nothing: the timer is kept while the next event stays the same.
import type { EmulatorClock } from '../clock';

export class EventTimer {
  private timer: NodeJS.Timeout | undefined;
  private at: number | undefined;

  constructor(private readonly clock: Pick<EmulatorClock, 'now'>, private readonly fire: () => void) {}

  /** Wakes at `next` (undefined: never); `clockMoved`: the clock jumped, so the same instant is a new distance away. */
  set(next: number | undefined, clockMoved: boolean): void {
    if (!clockMoved && this.timer && next === this.at) return;
    this.clear();
    this.at = next;
    if (next === undefined) return;
    this.timer = setTimeout(() => { this.timer = undefined; this.fire(); }, Math.min(2_147_483_647, Math.max(1, next - this.clock.now())));
    this.timer.unref();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

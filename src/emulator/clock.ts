// The emulator's clock: real time, or real time shifted by an offset (config `now`, admin moves). Job progress,
// retention, rate-limit windows, file expiry and billing defaults all read this one clock, so moving it moves
// all of them together (issue 3, admin clock). Frozen (issue 29, admin `{"frozen": true}`), it is virtual time:
// it stands still between admin moves, so a test's expected seconds are exact, not off by the real
// milliseconds its requests took.
export type ClockListener = () => void;

export class EmulatorClock {
  private offsetMs: number;
  private frozenAt: number | undefined;
  private readonly listeners = new Set<ClockListener>();

  /**
   * Frozen from the start, the clock stands at `start` exactly. Freezing it afterwards would read the real clock
   * a second time, and a millisecond that ticked between the two reads put every scaler look (whole seconds)
   * one millisecond out of step with a test's expected seconds: a failure once in a few hundred runs.
   */
  constructor(start?: Date, frozen = false) {
    const real = Date.now();
    const at = start?.getTime() ?? real;
    this.offsetMs = at - real;
    if (frozen) this.frozenAt = at;
  }

  /** Milliseconds since the epoch on the emulator clock. */
  now(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }

  /** Stops the clock where it is (virtual time: only admin moves move it), or lets it tick again from there. */
  freeze(frozen: boolean): void {
    const now = this.now();
    this.frozenAt = frozen ? now : undefined;
    this.offsetMs = now - Date.now();
    this.emit();
  }

  nowDate(): Date {
    return new Date(this.now());
  }

  /** Moves the clock by `ms` (may be negative). */
  advance(ms: number): void {
    this.offsetMs += ms;
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    this.emit();
  }

  /** Sets the clock to `instant`; it keeps ticking from there. */
  set(instant: Date): void {
    this.offsetMs = instant.getTime() - Date.now();
    if (this.frozenAt !== undefined) this.frozenAt = instant.getTime();
    this.emit();
  }

  /** Wakes every waiter without moving the clock: something real happened (a worker process posted a result). */
  touch(): void {
    this.emit();
  }

  /** Called after every move, so waiters (runsync) can re-check jobs that a jump finished. */
  onChange(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }
}

/** RFC 3339 in UTC without a fraction when the instant has none (bucket boundaries never do). */
export function isoUtc(ms: number): string {
  const s = new Date(ms).toISOString();
  return s.endsWith('.000Z') ? `${s.slice(0, -5)}Z` : s;
}

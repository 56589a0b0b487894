// What a batch's submissions wait for before each /run (issue 23 "Running"): the user's pause (or a guard's), a
// wait the service asked for (429 Retry-After, an exhausted RateLimit window) and the service being down, which
// is probed with a GET (health) before any job is sent again: a /run into a service that half-answers may leave
// a job whose answer is lost. Following jobs already sent never waits here: they run on the service anyway.
import { CancelledError, ForbiddenError, UnauthorizedError } from '../http/errors';
import type { Clock } from '../http/clock';
import { rateLimitWaitMs } from '../http/rateLimit';
import type { ServiceClient } from '../service';
import { setMaxListeners } from 'node:events';
import type { BatchLife, PauseReason, WaitReason } from './batchLife';

export type { PauseReason, WaitReason } from './batchLife';

export interface GateListener {
  onWait(reason: WaitReason, until: number, message: string): void;
  onPause(reason: PauseReason, message: string): void;
}

/** Between two probes of a service that is down. */
export const SERVICE_DOWN_PROBE_MS = 2000;

/**
 * The mechanics of waiting before a /run. Whether the batch is paused or closed is the batch's life's (batchLife.ts):
 * the gate asks it, and tells it of waits, so no flag of its own can disagree with what the panel shows.
 */
export class BatchGate {
  private resumeWaiters: Array<() => void> = [];
  private holdUntil = 0;
  private down = false;
  private abort = new AbortController();
  private readonly lastAnnounced = new Map<WaitReason, number>();

  constructor(
    private readonly client: ServiceClient,
    private readonly endpointId: string,
    private readonly clock: Clock,
    private readonly life: BatchLife,
    private readonly listener: GateListener,
    private readonly probeMs = SERVICE_DOWN_PROBE_MS,
  ) {
    // Every slot's wait listens to this one signal (64 slots at most): not a leak, but node warns past 10.
    setMaxListeners(0, this.abort.signal);
  }

  get paused(): { reason: PauseReason; message: string } | undefined {
    return this.life.paused;
  }

  /** The service did not answer and no probe got through since. */
  get serviceDown(): boolean {
    return this.down;
  }

  /** Pauses submissions; the first reason stays until a resume (a second trip does not hide the first). */
  pause(reason: PauseReason, message: string): boolean {
    if (!this.life.pause(reason, message)) return false;
    this.listener.onPause(reason, message);
    return true;
  }

  resume(): boolean {
    if (!this.life.resume()) return false;
    this.release();
    return true;
  }

  /** Holds submissions for `ms` (a 429's Retry-After). */
  hold(ms: number, reason: WaitReason, message: string): void {
    const until = this.clock.now() + Math.max(0, ms);
    if (until > this.holdUntil) this.holdUntil = until;
    this.announce(reason, this.holdUntil, message);
  }

  /** The service did not answer: hold submissions until a probe gets through. */
  markDown(message: string): void {
    this.down = true;
    this.hold(this.probeMs, 'serviceDown', message);
  }

  /** Wakes every waiter (the batch was cancelled): `pass` answers false while the life says closed. */
  close(): void {
    this.abort.abort();
    this.release();
  }

  /** A new run after a cancel (Retry Failed): waits can be cut short again by the next cancel. */
  reopen(): void {
    if (!this.abort.signal.aborted) return;
    this.abort = new AbortController();
    setMaxListeners(0, this.abort.signal);
  }

  /** Waits until a submission may go out; false when the batch was cancelled meanwhile. */
  async pass(): Promise<boolean> {
    for (;;) {
      if (this.life.closed) return false;
      if (this.life.paused) {
        await new Promise<void>((resolve) => this.resumeWaiters.push(resolve));
        continue;
      }
      const now = this.clock.now();
      const quota = rateLimitWaitMs(this.client.rateLimits, now);
      if (quota > 0) this.announce('quota', now + quota, 'The request quota is used up until its window resets.');
      const wait = Math.max(this.holdUntil - now, quota);
      if (wait > 0) {
        await this.sleep(wait);
        continue;
      }
      if (this.down && !(await this.probe())) continue;
      if (this.life.closed) return false;
      this.life.waited();
      return true;
    }
  }

  private probing: Promise<boolean> | undefined;

  /** One probe at a time, whatever the number of slots waiting on it. */
  private probe(): Promise<boolean> {
    this.probing ??= this.probeOnce().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async probeOnce(): Promise<boolean> {
    try {
      await this.client.health(this.endpointId, { signal: this.abort.signal });
      this.down = false;
      return true;
    } catch (e) {
      if (this.life.closed || e instanceof CancelledError) return false;
      if (e instanceof UnauthorizedError || e instanceof ForbiddenError) {
        this.pause('auth', e.message);
        return false;
      }
      this.hold(this.probeMs, 'serviceDown', `The service is not answering (${e instanceof Error ? e.message : String(e)}); waiting before sending more jobs.`);
      return false;
    }
  }

  private async sleep(ms: number): Promise<void> {
    try {
      await this.clock.sleep(ms, this.abort.signal);
    } catch (e) {
      if (!(e instanceof CancelledError)) throw e;
    }
  }

  /**
   * Waits the HTTP layer sits through for this endpoint's requests (a status-sync held for an exhausted window, a
   * GET retried after a 429 or a 503) are the batch's waits too: told like its own. Returns the unsubscribe.
   */
  forwardClientWaits(): () => void {
    return this.client.onRetryWait((w) => {
      if (w.route.endpointId !== undefined && w.route.endpointId !== this.endpointId) return;
      const reason: WaitReason = w.reason === 'quota' ? 'quota' : w.reason === 'rateLimited' ? 'rateLimited' : 'serviceDown';
      const words = { quota: 'The request quota is used up until its window resets.', rateLimited: 'The service asked to wait (429).', serviceDown: `The service did not answer${w.status ? ` (${w.status})` : ''}; trying again.` };
      this.announce(reason, w.until, words[reason]);
    });
  }

  private announce(reason: WaitReason, until: number, message: string): void {
    // Many slots meet the same wait: it is said once (per kind, so a 429 does not hide the window behind it).
    if (until <= (this.lastAnnounced.get(reason) ?? 0)) return;
    this.lastAnnounced.set(reason, until);
    this.life.wait(reason, until, message);
    this.listener.onWait(reason, until, message);
  }

  private release(): void {
    const waiters = this.resumeWaiters;
    this.resumeWaiters = [];
    for (const w of waiters) w();
  }
}

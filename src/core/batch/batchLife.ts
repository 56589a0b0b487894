// The life of a batch (issue 27), beside its jobs' own lives (../jobs/jobLife.ts): one state machine with its
// transitions in one place. The runner, the gate, the panel, the progress notification and the guards' questions
// ask it what may happen next (may Resume show? may Retry Failed run after a cancel? may a guard still ask?)
// instead of each keeping a flag of its own.
//
//   ready --start--> sending <--waited-- waiting <--wait-- sending
//   sending | waiting --pause(user | guard | error)--> paused --resume--> sending
//   sending | waiting | paused --cancel--> cancelling --idle--> cancelled
//   sending | waiting --idle--> finished
//   paused --idle--> finished (the pause came after the last job was sent: nothing was left to hold back)
//   finished | cancelled --retryFailed | resendUnknown--> sending (a run of its own: `run` says which)
//
// Everything else is refused (the transition returns false and nothing changes): a finished or cancelled batch
// cannot be paused (so no guard's question comes after the end), a cancelled one cannot be resumed (it says
// Cancelled, never Paused), and a cancel does not stop Retry Failed from running the failed jobs afterwards.

/** Why submissions stopped: the user, a guard, a refused key, or `error`: something on this machine failed (the manifest could not be written). */
export type PauseReason = 'user' | 'spend' | 'spendPerHour' | 'failures' | 'auth' | 'error';
/** Why submissions wait (and go on by themselves): a 429, an exhausted window, the service down. */
export type WaitReason = 'rateLimited' | 'quota' | 'serviceDown';

/** Why the batch is sending: its first run, a resume of a manifest, Retry Failed, or resending unknown jobs. */
export type BatchRun = 'first' | 'resumed' | 'retryFailed' | 'resendUnknown';

/** Who paused: the user (the Pause button), a guard (spend, failures, a refused key) or this machine (a write failed). */
export type PausedBy = 'user' | 'guard' | 'error';

export type BatchState =
  | { kind: 'ready' }
  | { kind: 'sending'; run: BatchRun }
  | { kind: 'waiting'; run: BatchRun; reason: WaitReason; until: number; message: string }
  | { kind: 'paused'; run: BatchRun; by: PausedBy; reason: PauseReason; message: string; id: number }
  | { kind: 'cancelling' }
  | { kind: 'cancelled' }
  | { kind: 'finished'; afterPause?: boolean };

export type BatchStateKind = BatchState['kind'];

export function pausedBy(reason: PauseReason): PausedBy {
  return reason === 'user' ? 'user' : reason === 'error' ? 'error' : 'guard';
}

export class BatchLife {
  private s: BatchState = { kind: 'ready' };
  private pauses = 0;
  private readonly listeners: Array<(s: BatchState) => void> = [];

  get state(): BatchState {
    return this.s;
  }

  /** Called after every transition taken (never for a refused one). */
  onChange(listener: (s: BatchState) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  start(run: 'first' | 'resumed' = 'first'): boolean {
    return this.s.kind === 'ready' && this.go({ kind: 'sending', run });
  }

  /** The service asked to wait (a 429, an exhausted window) or does not answer: submissions hold until `until`. */
  wait(reason: WaitReason, until: number, message: string): boolean {
    if (this.s.kind !== 'sending' && this.s.kind !== 'waiting') return false;
    return this.go({ kind: 'waiting', run: this.s.run, reason, until, message });
  }

  /** A submission went through the gate again: the wait is over. */
  waited(): boolean {
    return this.s.kind === 'waiting' && this.go({ kind: 'sending', run: this.s.run });
  }

  /** Pauses submissions; refused when paused already (the first reason stays), and once cancelled or finished. */
  pause(reason: PauseReason, message: string): boolean {
    if (this.s.kind !== 'sending' && this.s.kind !== 'waiting') return false;
    return this.go({ kind: 'paused', run: this.s.run, by: pausedBy(reason), reason, message, id: ++this.pauses });
  }

  resume(): boolean {
    return this.s.kind === 'paused' && this.go({ kind: 'sending', run: this.s.run });
  }

  /** Stops sending for good (until a Retry Failed); the jobs on the service are being cancelled. */
  cancel(): boolean {
    if (!this.canCancel) return false;
    return this.go({ kind: 'cancelling' });
  }

  /**
   * Nothing is left to send or to follow (the runner's slots all stopped). A paused batch whose every job was sent
   * before the pause finishes too when its last job ends: a pause holds back sending, and nothing was left to hold
   * (it stayed "Paused" with a Resume that did nothing, and never said it had finished). The runner calls this
   * only with nothing left to send.
   */
  idle(): boolean {
    if (this.s.kind === 'cancelling') return this.go({ kind: 'cancelled' });
    if (this.s.kind === 'sending' || this.s.kind === 'waiting') return this.go({ kind: 'finished' });
    if (this.s.kind === 'paused') return this.go({ kind: 'finished', afterPause: true });
    return false;
  }

  /** Retry Failed (or Send Them Again for unknown jobs): a new run, after the end or after a cancel alike. */
  rerun(run: 'retryFailed' | 'resendUnknown'): boolean {
    return (this.s.kind === 'finished' || this.s.kind === 'cancelled') && this.go({ kind: 'sending', run });
  }

  // What may happen next: the views show a button only when its transition would be taken.
  get canPause(): boolean {
    return this.s.kind === 'sending' || this.s.kind === 'waiting';
  }

  get canResume(): boolean {
    return this.s.kind === 'paused';
  }

  get canCancel(): boolean {
    return this.s.kind === 'sending' || this.s.kind === 'waiting' || this.s.kind === 'paused';
  }

  /** Retry Failed may run: the batch has ended (finished or cancelled) and has failed jobs. */
  canRetryFailed(failed: number): boolean {
    return failed > 0 && (this.s.kind === 'finished' || this.s.kind === 'cancelled');
  }

  /** Jobs are being sent or followed, or wait for a resume: the batch still needs this window. */
  get active(): boolean {
    return this.s.kind !== 'ready' && this.s.kind !== 'finished' && this.s.kind !== 'cancelled';
  }

  /** Submissions must stop for good (the gate answers false): cancelled, or being cancelled. */
  get closed(): boolean {
    return this.s.kind === 'cancelling' || this.s.kind === 'cancelled';
  }

  get paused(): { reason: PauseReason; message: string } | undefined {
    return this.s.kind === 'paused' ? { reason: this.s.reason, message: this.s.message } : undefined;
  }

  /**
   * Whether the question for pause `id` (a guard's, or this machine's failure) still applies: that very pause is
   * still on (not resumed, cancelled or ended). The user's own pause asks nothing.
   */
  mayAsk(id: number): boolean {
    return this.s.kind === 'paused' && this.s.by !== 'user' && this.s.id === id;
  }

  /** The batch's state in words, for the header and the notification. */
  get words(): string {
    switch (this.s.kind) {
      case 'ready':
        return 'Not started';
      case 'sending':
        return this.s.run === 'retryFailed' ? 'Retrying the failed jobs' : 'Running';
      case 'waiting':
        return this.s.message;
      case 'paused':
        return `Paused: ${this.s.message}`;
      case 'cancelling':
        return 'Cancelling…';
      case 'cancelled':
        return 'Cancelled';
      case 'finished':
        return this.s.afterPause ? 'Finished: every job had been sent before the pause, and all have ended.' : 'Finished';
    }
  }

  private go(next: BatchState): boolean {
    this.s = next;
    for (const l of [...this.listeners]) l(next);
    return true;
  }
}

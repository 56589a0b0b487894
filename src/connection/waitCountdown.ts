// The waits before retries that are on right now, by whatever key a view needs (the billing route, a job's
// key), with a one-second tick while any is on: what lets a view count down "retrying in 5 s, 4 s…" and then
// drop the words, without a timer of its own (issue 12).
import * as vscode from 'vscode';
import type { RetryWait } from '../core/http/request';

export class WaitCountdown<K> implements vscode.Disposable {
  private readonly waits = new Map<K, RetryWait>();
  private readonly emitter = new vscode.EventEmitter<void>();
  /** A wait began, a second passed while one is on, or the last one ended. */
  readonly onDidTick = this.emitter.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  set(key: K, wait: RetryWait): void {
    this.waits.set(key, wait);
    this.timer ??= setInterval(() => this.tick(), 1000);
    this.emitter.fire();
  }

  /** The wait on for `key`, or undefined once its time has come. */
  get(key: K): RetryWait | undefined {
    const wait = this.waits.get(key);
    return wait && wait.until > this.now() ? wait : undefined;
  }

  /** The wait that ends last, of those on. */
  latest(): RetryWait | undefined {
    let last: RetryWait | undefined;
    for (const key of this.waits.keys()) {
      const wait = this.get(key);
      if (wait && (!last || wait.until > last.until)) last = wait;
    }
    return last;
  }

  clear(key: K): void {
    if (this.waits.delete(key)) this.emitter.fire();
  }

  private tick(): void {
    for (const [key, wait] of this.waits) if (wait.until <= this.now()) this.waits.delete(key);
    if (this.waits.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    this.emitter.fire();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.emitter.dispose();
  }
}

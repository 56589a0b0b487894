// The jobs of one endpoint that wait for a worker: a first-in first-out line for normal jobs and one for
// low-priority jobs, plus the instants their policy.ttl runs out. Built for batches of thousands (issue 21):
// taking the next job, the next visible instant and the next expiry cost O(1) or O(log n), never a scan of
// the line. A job leaves the line lazily: its entry stays until it reaches the head, and is skipped there
// because the job is no longer queued (cancelled, expired, taken) or was queued again since (a retry).
import type { EmulatedJob } from './job';

interface Entry {
  job: EmulatedJob;
  /** The job's `queuedAtMs` when this entry was made: a retried job has a newer entry, and this one is stale. */
  queuedAtMs: number;
  taken?: boolean;
}

/** One FIFO line. Entries are in queuedAtMs order, since the engine's time only moves forward. */
class Line {
  private entries: Entry[] = [];
  private head = 0;
  count = 0;

  push(job: EmulatedJob): void {
    this.entries.push({ job, queuedAtMs: job.queuedAtMs });
    this.count++;
  }

  /** The first waiting job that is visible at `t` (queued at least `queueMs` ago) and that `accept` takes; removed. */
  take(t: number, queueMs: number, accept: (job: EmulatedJob) => boolean): EmulatedJob | undefined {
    this.trim();
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (!live(e)) continue;
      if (e.queuedAtMs + queueMs > t) return undefined;
      if (!accept(e.job)) continue;
      e.taken = true; // trim() drops it once it is at the head
      this.count--;
      return e.job;
    }
    return undefined;
  }

  /** Whether a waiting job is visible at `t`. */
  hasVisible(t: number, queueMs: number): boolean {
    this.trim();
    const e = this.entries[this.head];
    return e !== undefined && e.queuedAtMs + queueMs <= t;
  }

  /** The first instant after `t` at which a waiting job becomes visible (binary search: entries are in time order). */
  nextVisibleAfter(t: number, queueMs: number): number | undefined {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.queuedAtMs + queueMs <= t) lo = mid + 1;
      else hi = mid;
    }
    // A stale entry past lo only gives an early wake-up, which finds nothing to do.
    return lo < this.entries.length ? this.entries[lo]!.queuedAtMs + queueMs : undefined;
  }

  /** How many live entries past the `skip` oldest were queued at or before `since` (at most `limit`). */
  countQueuedBy(since: number, skip: number, limit: number): number {
    this.trim();
    let seen = 0;
    let n = 0;
    for (let i = this.head; i < this.entries.length && n < limit; i++) {
      const e = this.entries[i]!;
      if (!live(e)) continue;
      if (e.queuedAtMs > since) break; // entries are in time order
      if (seen++ >= skip) n++;
    }
    return n;
  }

  /** When the live entry at position `n` (0: the oldest) was queued. */
  queuedAtOf(n: number): number | undefined {
    this.trim();
    let seen = 0;
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (live(e) && seen++ === n) return e.queuedAtMs;
    }
    return undefined;
  }

  /** Every waiting job, in order; the line is left empty. */
  drain(): EmulatedJob[] {
    const jobs = this.entries.slice(this.head).filter(live).map((e) => e.job);
    this.entries = [];
    this.head = 0;
    this.count = 0;
    return jobs;
  }

  /** A job left the line other than by take() (cancel, expiry). */
  forget(): void {
    this.count--;
  }

  private trim(): void {
    while (this.head < this.entries.length && !live(this.entries[this.head]!)) this.head++;
    // Compact now and then, so a long-running endpoint does not keep every entry it ever had.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

function live(e: Entry): boolean {
  return !e.taken && e.job.phase === 'queued' && e.job.queuedAtMs === e.queuedAtMs;
}

/** A binary min-heap of (expiresAtMs, entry) for the policy.ttl of waiting jobs. */
class ExpiryHeap {
  private readonly items: Entry[] = [];

  push(job: EmulatedJob): void {
    const a = this.items;
    a.push({ job, queuedAtMs: job.queuedAtMs });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (key(a[p]!) <= key(a[i]!)) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }

  /** The earliest live entry, after dropping stale ones from the top. */
  peek(): EmulatedJob | undefined {
    while (this.items.length && !live(this.items[0]!)) this.pop();
    return this.items[0]?.job;
  }

  pop(): void {
    const a = this.items;
    const last = a.pop()!;
    if (!a.length) return;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && key(a[l]!) < key(a[m]!)) m = l;
      if (r < a.length && key(a[r]!) < key(a[m]!)) m = r;
      if (m === i) break;
      [a[m], a[i]] = [a[i]!, a[m]!];
      i = m;
    }
  }

  clear(): void {
    this.items.length = 0;
  }
}

function key(e: Entry): number {
  return e.job.expiresAtMs;
}

export class WaitingLine {
  private readonly normal = new Line();
  private readonly low = new Line();
  private readonly expiry = new ExpiryHeap();

  constructor(private readonly queueMs: number) {}

  /** Jobs waiting (for the platform's queue-size 429). */
  get count(): number {
    return this.normal.count + this.low.count;
  }

  /** Normal jobs waiting: each wants a worker (low-priority ones never start one). */
  get normalCount(): number {
    return this.normal.count;
  }

  add(job: EmulatedJob): void {
    (job.lowPriority ? this.low : this.normal).push(job);
    this.expiry.push(job);
  }

  /**
   * The next job for a worker at `t`: the first visible normal job `accept` takes; else, only when `freeSlots`
   * (workers' room for jobs) is more than the normal jobs waiting, the first visible low-priority one (docs
   * "Execution policies": a low-priority job never takes a worker a normal job is waiting for).
   */
  take(t: number, freeSlots: number, accept: (job: EmulatedJob) => boolean): EmulatedJob | undefined {
    return this.normal.take(t, this.queueMs, accept)
      ?? (freeSlots > this.normal.count ? this.low.take(t, this.queueMs, accept) : undefined);
  }

  hasVisible(t: number): boolean {
    return this.normal.hasVisible(t, this.queueMs) || this.low.hasVisible(t, this.queueMs);
  }

  /** Normal jobs waiting past the `skip` oldest that were queued at or before `since` (at most `limit`; QUEUE_DELAY). */
  normalQueuedBy(since: number, skip: number, limit: number): number {
    return this.normal.countQueuedBy(since, skip, limit);
  }

  /** When the waiting normal job at position `n` (0: the oldest) was queued. */
  normalQueuedAt(n: number): number | undefined {
    return this.normal.queuedAtOf(n);
  }

  /** A queued job was taken out other than by take() (cancel); the caller marks it ended. */
  remove(job: EmulatedJob): void {
    (job.lowPriority ? this.low : this.normal).forget();
  }

  /** The waiting job whose ttl runs out first, if it runs out by `t`; the caller ends it (its phase changes). */
  expiredBy(t: number): EmulatedJob | undefined {
    const job = this.expiry.peek();
    if (!job || job.expiresAtMs > t) return undefined;
    this.remove(job);
    return job;
  }

  /** The next instant after `t` at which a job becomes visible or expires. */
  nextEventAfter(t: number): number | undefined {
    let next = Number.POSITIVE_INFINITY;
    for (const at of [this.normal.nextVisibleAfter(t, this.queueMs), this.low.nextVisibleAfter(t, this.queueMs), this.expiry.peek()?.expiresAtMs]) {
      if (at !== undefined && at > t && at < next) next = at;
    }
    return Number.isFinite(next) ? next : undefined;
  }

  /** Takes every waiting job out (purge), oldest first. */
  drain(): EmulatedJob[] {
    const jobs = [...this.normal.drain(), ...this.low.drain()];
    this.expiry.clear();
    return jobs;
  }
}

// The usage behind the billing route: every usage event of a user, pre-aggregated per endpoint per UTC hour in
// sorted parallel arrays. Every bucket size (hour, day, ISO week, month, year) is a union of whole UTC hours, so
// summing hours gives exactly the sums of the events in [start, end) (SPEC 4.1), and a year of hourly buckets
// for 20 endpoints is a linear walk over arrays, not a scan of raw events.
import { addBuckets } from '../../core/billing/buckets';
import type { BucketSize } from '../../core/schemas';

const HOUR_MS = 3_600_000;

export interface Amounts {
  gpu: number;
  cpu: number;
  disk: number;
  fee: number;
}

/** One endpoint's usage: hour starts (ascending, unique) and the summed amounts of each hour. */
class EndpointSeries {
  readonly hours: number[] = [];
  readonly gpu: number[] = [];
  readonly cpu: number[] = [];
  readonly disk: number[] = [];
  readonly fee: number[] = [];

  add(timeMs: number, a: Amounts): void {
    const hour = Math.floor(timeMs / HOUR_MS) * HOUR_MS;
    const n = this.hours.length;
    // Events mostly arrive in time order (config sorted at load, jobs finish "now"): append or add to the last.
    let i: number;
    if (n === 0 || this.hours[n - 1]! < hour) {
      i = n;
    } else if (this.hours[n - 1] === hour) {
      i = n - 1;
    } else {
      i = lowerBound(this.hours, hour);
    }
    if (this.hours[i] !== hour) {
      this.hours.splice(i, 0, hour);
      this.gpu.splice(i, 0, 0);
      this.cpu.splice(i, 0, 0);
      this.disk.splice(i, 0, 0);
      this.fee.splice(i, 0, 0);
    }
    this.gpu[i]! += a.gpu;
    this.cpu[i]! += a.cpu;
    this.disk[i]! += a.disk;
    this.fee[i]! += a.fee;
  }
}

/** Index of the first element >= x in an ascending array. */
export function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The bucket boundaries tiling [startMs, endMs): n + 1 instants, both ends included. */
export function bucketBoundaries(startMs: number, endMs: number, size: BucketSize): number[] {
  const out = [startMs];
  // Hours, days and ISO weeks have a fixed length in UTC; months and years need the calendar.
  const fixed = size === 'hour' ? HOUR_MS : size === 'day' ? 24 * HOUR_MS : size === 'week' ? 7 * 24 * HOUR_MS : 0;
  let t = startMs;
  while (t < endMs) {
    t = fixed ? t + fixed : addBuckets(new Date(t), size, 1).getTime();
    out.push(t);
  }
  return out;
}

/** The amounts of one endpoint in every bucket of a window. */
export interface EndpointBuckets {
  serverlessId: string;
  gpu: Float64Array;
  cpu: Float64Array;
  disk: Float64Array;
  fee: Float64Array;
}

export class UserUsage {
  private readonly series = new Map<string, EndpointSeries>();

  add(serverlessId: string, timeMs: number, amounts: Amounts): void {
    let s = this.series.get(serverlessId);
    if (!s) {
      s = new EndpointSeries();
      this.series.set(serverlessId, s);
    }
    s.add(timeMs, amounts);
  }

  /** The start of the first hour with usage of an endpoint, if it has any (GET /v2/serverless dates it by that). */
  firstHourOf(serverlessId: string): number | undefined {
    return this.series.get(serverlessId)?.hours[0];
  }

  /** Endpoint ids with any usage ever (the user owns them for billing, even once deleted). */
  endpointIds(): string[] {
    return [...this.series.keys()];
  }

  /**
   * Sums per bucket for every endpoint with any usage event in [boundaries[0], boundaries[n]) (or, with
   * `only`, for that endpoint even without usage: SPEC 4.1 says every record then carries that id), ordered by
   * serverlessId (UTF-16 code units, the order a client gets from a plain sort).
   */
  sumBuckets(boundaries: readonly number[], only?: string): EndpointBuckets[] {
    const n = boundaries.length - 1;
    const startMs = boundaries[0]!;
    const endMs = boundaries[n]!;
    const ids = only !== undefined ? [only] : [...this.series.keys()].sort(compareCodeUnits);
    const out: EndpointBuckets[] = [];
    for (const id of ids) {
      const s = this.series.get(id);
      const lo = s ? lowerBound(s.hours, startMs) : 0;
      const hi = s ? lowerBound(s.hours, endMs) : 0;
      if (only === undefined && lo === hi) continue; // no usage in the window: no records for it
      const b: EndpointBuckets = { serverlessId: id, gpu: new Float64Array(n), cpu: new Float64Array(n), disk: new Float64Array(n), fee: new Float64Array(n) };
      if (s) {
        let k = 0;
        for (let i = lo; i < hi; i++) {
          const h = s.hours[i]!;
          while (boundaries[k + 1]! <= h) k++;
          b.gpu[k]! += s.gpu[i]!;
          b.cpu[k]! += s.cpu[i]!;
          b.disk[k]! += s.disk[i]!;
          b.fee[k]! += s.fee[i]!;
        }
      }
      out.push(b);
    }
    return out;
  }
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every user's usage. */
export class BillingStore {
  private readonly users = new Map<string, UserUsage>();

  forUser(userId: string): UserUsage {
    let u = this.users.get(userId);
    if (!u) {
      u = new UserUsage();
      this.users.set(userId, u);
    }
    return u;
  }
}

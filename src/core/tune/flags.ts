// "Where the money went" (issue 29): the billed amount of a window split into what this workspace's jobs
// executed and the rest (starts, idle, traffic from elsewhere), labelled an estimate; and the cases behind
// surprise bills: workers up with no job for longer than their idle timeout, workers min kept with no traffic.
import { formatUsd } from '../billing/usd';
import type { BilledAmount } from '../cost/billedAmount';
import type { ListEndpointWorkersResponse } from '../serverless/schemas';
import type { Arrival, ReplaySettings } from './replay';

const HOUR_MS = 3_600_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The window Tune replays and whose bill it shows, for "the last N hours" at `nowMs`: the N whole UTC hours
 * before the current one and the current hour so far. The billing route counts whole hours, so the bill of
 * exactly these hours (the current one up to now) is the bill of the jobs replayed: one window for both.
 */
export function tuneWindow(nowMs: number, windowMs: number): { fromMs: number; toMs: number } {
  return { fromMs: Math.floor(nowMs / HOUR_MS) * HOUR_MS - windowMs, toMs: nowMs };
}

/** "Nov 26 09:00 to Nov 27 09:41 UTC"; within one day "Nov 27 08:00 to 09:41 UTC". */
export function utcRange(fromMs: number, toMs: number): string {
  const day = (d: Date): string => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  const time = (d: Date): string => d.toISOString().slice(11, 16);
  const a = new Date(fromMs);
  const b = new Date(toMs);
  const sameDay = a.toISOString().slice(0, 10) === b.toISOString().slice(0, 10);
  return `${day(a)} ${time(a)} to ${sameDay ? '' : `${day(b)} `}${time(b)} UTC`;
}

/**
 * "Billed $X (Nov 26 09:00 to Nov 27 09:41 UTC); est. $Y of it this workspace's jobs executing, $Z starts, idle
 * and other traffic". The range is the billed hours', ended at `toMs` (no later hour has been billed yet).
 */
export function moneySplit(billed: BilledAmount, arrivals: readonly Arrival[], usdPerSecond: number, toMs?: number): string {
  const ours = Math.min(billed.usd, arrivals.reduce((s, a) => s + a.executionMs, 0) / 1000 * usdPerSecond);
  const rest = Math.max(0, billed.usd - ours);
  const end = Math.min(Date.parse(billed.endTime), toMs ?? Number.POSITIVE_INFINITY);
  return `Billed ${formatUsd(billed.usd)} (${utcRange(Date.parse(billed.startTime), end)}). Estimate: ${formatUsd(ours)} of it this workspace's jobs executing, ${formatUsd(rest)} worker starts, idle time and traffic from elsewhere.`;
}

/** Words for each surprise-bill case seen now or in the window (empty: none). */
export function workerFlags(current: ReplaySettings, workers: ListEndpointWorkersResponse | undefined, jobsInWindow: number): string[] {
  const flags: string[] = [];
  const idleS = current.idleTimeoutMs / 1000;
  if (workers) {
    const running = workers.summary.running;
    const idleLong = workers.workers.filter((w) => w.status === 'IDLE' && (w.uptimeSeconds ?? 0) > idleS);
    // Workers min do not idle out; more idle workers than that, past the idle timeout, with no job running.
    const beyondMin = idleLong.length - current.workersMin;
    if (running === 0 && idleLong.length > 0 && (beyondMin > 0 || jobsInWindow === 0)) {
      // On REQUEST_COUNT the idle timeout is not a setting (the platform's own delay applies): not named as one.
      const limit = current.scalerType === 'REQUEST_COUNT' ? `the scale-down delay (${idleS} s, the platform's own on REQUEST_COUNT)` : `the idle timeout (${idleS} s)`;
      flags.push(`${idleLong.length} worker${idleLong.length === 1 ? '' : 's'} running with no job for longer than ${limit}: billed while they wait.`);
    }
  }
  if (current.workersMin > 0 && jobsInWindow === 0) {
    flags.push(`${current.workersMin} worker${current.workersMin === 1 ? '' : 's'} min kept running with no traffic from this workspace in the window: billed all the time.`);
  }
  return flags;
}

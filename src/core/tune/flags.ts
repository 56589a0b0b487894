// "Where the money went" (issue 29): the billed amount of a window split into what this workspace's jobs
// executed and the rest (starts, idle, traffic from elsewhere), labelled an estimate; and the cases behind
// surprise bills: workers up with no job for longer than their idle timeout, workers min kept with no traffic.
import { formatUsd } from '../billing/usd';
import type { BilledAmount } from '../cost/billedAmount';
import type { ListEndpointWorkersResponse } from '../serverless/schemas';
import type { Arrival, ReplaySettings } from './replay';

/** "Billed $X (12:00-13:00 UTC); est. $Y of it this workspace's jobs executing, $Z starts, idle and other traffic". */
export function moneySplit(billed: BilledAmount, arrivals: readonly Arrival[], usdPerSecond: number): string {
  const ours = Math.min(billed.usd, arrivals.reduce((s, a) => s + a.executionMs, 0) / 1000 * usdPerSecond);
  const rest = Math.max(0, billed.usd - ours);
  return `Billed ${formatUsd(billed.usd)} (${billed.startTime.slice(11, 16)} to ${billed.endTime.slice(11, 16)} UTC, whole hours). Estimate: ${formatUsd(ours)} of it this workspace's jobs executing, ${formatUsd(rest)} worker starts, idle time and traffic from elsewhere.`;
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

/** The tooltip's lines: of the billed amount, what this workspace's jobs executed, and the rest (an estimate). */
export function tooltipSplit(billedUsd: number, ourExecutionSeconds: number, usdPerSecond: number | undefined): string | undefined {
  if (billedUsd <= 0 || ourExecutionSeconds <= 0 || usdPerSecond === undefined) return undefined;
  const ours = Math.min(billedUsd, ourExecutionSeconds * usdPerSecond);
  return `Where the money went (estimate): ${formatUsd(ours)} this workspace's jobs executing; ${formatUsd(billedUsd - ours)} worker starts, idle time and other traffic. Tune Endpoint… replays it under other settings.`;
}

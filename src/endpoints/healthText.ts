// The words of an endpoint's live health (GET /v2/{id}/health): a compact line for the tree item's description
// ("2 running · 1 starting · 3 in queue") and the full counts for its tooltip. No `vscode` import: unit-tested
// in plain Node like itemText.ts.
import type { HealthResponse } from '../core/runtime/schemas';

/** One look at an endpoint's health, and when it was taken (epoch ms). */
export interface HealthLook {
  readonly health: HealthResponse;
  readonly at: number;
}

/**
 * Workers by status (only those there are), then the jobs waiting. Jobs in progress are left to the tooltip:
 * each runs on a running worker, so the line would say the same number twice. Empty when nothing is up and
 * nothing waits, so an idle endpoint's item stays as short as before.
 */
export function healthSummary(h: HealthResponse): string {
  const w = h.workers;
  const parts: string[] = [];
  if (w.running) parts.push(`${w.running} running`);
  if (w.initializing) parts.push(`${w.initializing} starting`);
  if (w.idle) parts.push(`${w.idle} idle`);
  if (w.throttled) parts.push(`${w.throttled} throttled`);
  if (w.unhealthy) parts.push(`${w.unhealthy} unhealthy`);
  if (h.jobs.inQueue) parts.push(`${h.jobs.inQueue} in queue`);
  // A job in progress with no running worker counted (a service that counts differently) still shows.
  if (h.jobs.inProgress && !w.running) parts.push(`${h.jobs.inProgress} in progress`);
  return parts.join(' · ');
}

/** True while the endpoint has work: jobs queued or running, or workers starting or busy. Polled while so. */
export function isBusy(h: HealthResponse): boolean {
  return h.jobs.inQueue > 0 || h.jobs.inProgress > 0 || h.workers.initializing > 0 || h.workers.running > 0;
}

/** The tooltip's lines: every count, and the time of the look (UTC, like the billing buckets). */
export function healthTooltip(look: HealthLook): string {
  const { workers: w, jobs: j } = look.health;
  return [
    `Workers: ${w.running} running, ${w.idle} idle, ${w.initializing} initializing, ${w.throttled} throttled, ${w.unhealthy} unhealthy`,
    `Jobs: ${j.inQueue} in queue, ${j.inProgress} in progress, ${j.completed} completed, ${j.failed} failed`,
    `Health as of ${new Date(look.at).toISOString().slice(11, 19)} UTC`,
  ].join('\n');
}

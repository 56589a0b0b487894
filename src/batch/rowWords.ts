// The job life's words and duration format (issue 22), for batch rows. The job life (src/core/jobs/jobLife.ts,
// durationText.ts) is being merged on its own branch; until it is on main these are the same table and the same
// rule, kept here in one place so the switch is one import. A batch row must read like the job's own panel.

const STATUS_TEXT: Record<string, string> = {
  SUBMITTING: 'Submitting',
  IN_QUEUE: 'In queue',
  IN_PROGRESS: 'In progress',
  RUNNING: 'In progress',
  SAVING_OUTPUTS: 'Saving outputs',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  TIMED_OUT: 'Timed out',
  STOPPED: 'Stopped waiting',
  ERROR: 'Error',
};

/** "In progress", "Failed · attempt 2" (a row retried once is on its second attempt). */
export function statusText(status: string, retries = 0): string {
  const words = STATUS_TEXT[status] ?? status;
  return retries > 0 ? `${words} · attempt ${retries + 1}` : words;
}

/** `340 ms`, `1.7 s`, `2 min 05 s`, `1 h 02 min`: the job life's one way of writing a duration. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  const whole = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${pad(whole % 60)} s`;
  return `${Math.floor(whole / 3600)} h ${pad(Math.floor(whole / 60) % 60)} min`;
}

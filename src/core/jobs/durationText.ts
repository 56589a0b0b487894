// The one way a duration is written, by every view of a job (panel, Jobs view, status bar, job.json) and by
// the notifications: `340 ms`, `1.7 s`, `2 min 05 s`, `1 h 02 min`. Two views of one job can only agree if
// they share this function (issue 22: the same job read "4 s" in one place and "4.9 s" in another).

/**
 * `live`: a "so far" of a job still moving, in whole seconds past the first, so every view that ticks it (each on
 * its own timer, each aligned to the job's second, see msToNextTick) reads the same number at a glance.
 */
export function formatDuration(ms: number, live = false): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (live && ms < 60_000) return `${Math.floor(ms / 1000)} s`;
  // Tenths are cut, not rounded, so a live "so far" never reads ahead of the clock (59.96 s is "59.9 s").
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  // Whole seconds from here, split once: rounding only the seconds read 119.6 s as "1 min 60 s".
  const whole = Math.floor(ms / 1000);
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${pad(whole % 60)} s`;
  return `${Math.floor(whole / 3600)} h ${pad(Math.floor(whole / 60) % 60)} min`;
}

/** "12 s so far": the live duration of a job still moving, as every view that ticks it says it. */
export function soFarText(ms: number): string {
  return `${formatDuration(ms, true)} so far`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

// When to ask for a job's status next: adaptive polling (issue #2). A pure function of what we know, so
// it is tested and benchmarked without a server.
//
// The strategy. Fixed-interval polling pays for its lag with requests: a 1 s beat costs one request per
// second of the job and still learns of the end 0.5 s late on average. We do better by predicting the end:
// 1. With an estimate of the endpoint's queue wait and processing time (learned from its earlier jobs, see
//    durationModel.ts), the end is predicted as start + processing time, where the start is exact once a
//    status carries `delayTime` (the queue wait, SPEC 2.7) and we know when we submitted, or predicted
//    from the typical queue wait before that. We sleep until the prediction's uncertainty window opens, probe
//    through it every half of its width if it is wide, and land one probe just after the predicted end (a
//    few ms later, plus half the round trip, so the job has really ended on the server). A good prediction
//    costs 1-3 requests and tens of milliseconds of lag.
// 2. Past the predicted end the estimate was wrong: we poll fast at first (100 ms), backing off
//    geometrically with how overdue the job is (interval = half the overdue time), capped so a long job is
//    still seen within a quarter of its elapsed time (at most 15 s).
// 3. With no estimate (the first job of an endpoint) there is nothing to predict from. For durations spread
//    evenly over a range, a constant interval is what minimises requests for a given lag, so we stay close
//    to fixed polling, with two differences: the first request goes one beat after the submission (the
//    submission answer already said IN_QUEUE, so asking at once is wasted), and the beat is 0.92 s; once 8%
//    of the elapsed time exceeds the beat, the interval grows with it (up to 5 s), so a long job costs
//    far fewer requests. Against fixed 1 s polling with an immediate first request, on durations spread
//    evenly over 0.3-12 s, that is a few percent fewer requests and a few percent less lag (the skipped
//    first request pays for the shorter beat); over 0.3-90 s, ~30% fewer requests for more lag. The large
//    gains come from 1. once an endpoint has history (test/bench/jobs.bench.ts, "warm").
// Rate limits are respected by the caller, which stretches the interval when a window runs low, and by
// the HTTP layer, which holds any request while a window is exhausted.
import type { DurationEstimate } from './durationModel';

export const FAST_POLL_MS = 100;
/** The beat of polling without an estimate, and the first request's delay after a submission. */
export const BEAT_MS = 920;
export const MAX_POLL_MS = 15_000;
const NO_ESTIMATE_CAP_MS = 5_000;
const NO_ESTIMATE_GROWTH = 0.08;
const END_MARGIN_MS = 20;
/**
 * Probes before the predicted end are spaced at least this far apart, and not made at all when the window
 * is narrower than two of them: learning of an early end 250 ms sooner is not worth a request each.
 */
const HEDGE_STEP_MS = 250;
const HEDGE_MIN_UNCERTAINTY_MS = 2 * HEDGE_STEP_MS;

const RUNNING_STATES: ReadonlySet<string> = new Set(['IN_PROGRESS', 'RUNNING']);

export interface PollState {
  now: number;
  /** When the job was submitted, by our clock; unknown when we resume watching a job we did not submit now. */
  submittedAt?: number;
  /** When this wait began. */
  startedWatchingAt: number;
  /** The latest status seen, and its `delayTime` if it had one. */
  status?: string;
  delayTime?: number;
  /** When we first saw the job processing (our clock). */
  firstSeenRunningAt?: number;
  /** Round trip of the latest status request, ms. */
  roundTripMs?: number;
  estimate?: DurationEstimate;
}

export interface Prediction {
  /** When the job should end, our clock. */
  endAt: number;
  /** How far the real end may plausibly be from `endAt`, ms. */
  uncertaintyMs: number;
}

/** When the job should end, from the estimate and what the job told us; undefined without an estimate. */
export function predictEnd(s: PollState): Prediction | undefined {
  const e = s.estimate;
  if (!e) return undefined;
  const origin = s.submittedAt ?? s.startedWatchingAt;
  if (s.status !== undefined && RUNNING_STATES.has(s.status)) {
    if (s.submittedAt !== undefined && s.delayTime !== undefined) {
      return { endAt: s.submittedAt + s.delayTime + e.executionMs, uncertaintyMs: e.executionSpreadMs };
    }
    // Started at the latest when we first saw it running; maybe well before if we only resumed watching.
    const seen = s.firstSeenRunningAt ?? s.now;
    const unknownStart = s.submittedAt === undefined ? 0.5 * e.executionMs : 0;
    return { endAt: seen + e.executionMs - unknownStart, uncertaintyMs: e.executionSpreadMs + unknownStart };
  }
  // Queued (or not seen yet): it starts after the typical queue wait, and not before now.
  const startAt = Math.max(origin + e.queueMs, s.now);
  return { endAt: startAt + e.executionMs, uncertaintyMs: e.executionSpreadMs + e.queueSpreadMs };
}

/** How long to wait before the next status request, ms (>= 0). */
export function nextPollDelayMs(s: PollState): number {
  const origin = s.submittedAt ?? s.startedWatchingAt;
  const elapsed = Math.max(0, s.now - origin);
  const prediction = predictEnd(s);
  if (!prediction) {
    // A beat after the previous answer (never sooner: the service gets a breather whatever the round trip).
    return Math.min(NO_ESTIMATE_CAP_MS, Math.max(BEAT_MS, NO_ESTIMATE_GROWTH * elapsed));
  }
  const { endAt, uncertaintyMs } = prediction;
  const probeAfterEnd = endAt + END_MARGIN_MS + (s.roundTripMs ?? 0) / 2;
  if (s.now < probeAfterEnd - FAST_POLL_MS / 2) {
    if (uncertaintyMs < HEDGE_MIN_UNCERTAINTY_MS) return probeAfterEnd - s.now;
    // A wide window is probed every half of its uncertainty, on a grid that ends exactly at the probe after
    // the predicted end, so an early end is seen within uncertainty/2 and the last probe is not wasted.
    const windowOpens = endAt - uncertaintyMs;
    if (s.now < windowOpens - FAST_POLL_MS / 2) return windowOpens - s.now;
    const step = Math.max(HEDGE_STEP_MS, uncertaintyMs / 2);
    const stepsBack = Math.floor((probeAfterEnd - s.now - FAST_POLL_MS / 2) / step);
    return probeAfterEnd - stepsBack * step - s.now;
  }
  const overdue = Math.max(0, s.now - probeAfterEnd);
  const cap = Math.min(MAX_POLL_MS, Math.max(2_000, 0.25 * elapsed));
  return Math.min(cap, Math.max(FAST_POLL_MS, 0.5 * overdue));
}

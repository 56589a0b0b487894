// The Tune Endpoint view's messages, both directions, as zod discriminated unions: imported by the host
// (tunePanel.ts) and the page (media/tunePanel/main.ts), validated on arrival on both sides. No `vscode`
// import (bundled for the browser).
import * as z from 'zod/mini';

export const TuneRow = z.strictObject({
  /** "current", or what differs from it ("idle 60 s", "QUEUE_DELAY 8 s"). */
  label: z.string(),
  current: z.boolean(),
  costUsd: z.number(),
  startUsd: z.number(),
  executionUsd: z.number(),
  idleUsd: z.number(),
  waitP50Ms: z.number(),
  waitP95Ms: z.number(),
  waitMaxMs: z.number(),
  coldStarts: z.number(),
  peakWorkers: z.number(),
});
export type TuneRow = z.infer<typeof TuneRow>;

export const WINDOWS = ['1h', '24h', '7d'] as const;
export type TuneWindow = (typeof WINDOWS)[number];

export const ToWebview = z.discriminatedUnion('type', [
  /** The view's header: whose traffic, which window, and the billed amount split (an estimate). */
  z.strictObject({
    type: z.literal('header'), endpoint: z.string(), window: z.enum(WINDOWS), replayOf: z.string(),
    money: z.optional(z.string()), flags: z.array(z.string()), price: z.string(),
  }),
  z.strictObject({ type: z.literal('progress'), done: z.number(), total: z.number() }),
  z.strictObject({ type: z.literal('rows'), rows: z.array(TuneRow), replayOf: z.string() }),
  /** No history in the window: run some jobs first, or replay a synthetic burst. */
  z.strictObject({ type: z.literal('noHistory'), message: z.string() }),
  z.strictObject({ type: z.literal('notice'), message: z.string() }),
]);
export type ToWebview = z.infer<typeof ToWebview>;

export const FromWebview = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('window'), window: z.enum(WINDOWS) }),
  z.strictObject({
    type: z.literal('synthetic'),
    jobs: z.int().check(z.gte(1), z.lte(100_000)),
    perMinute: z.number().check(z.gt(0), z.lte(100_000)),
    executionSeconds: z.number().check(z.gt(0), z.lte(86_400)),
  }),
  z.strictObject({ type: z.literal('cancel') }),
  z.strictObject({ type: z.literal('apply'), row: z.int().check(z.gte(0)) }),
  /** After every draw: what the table shows (tests read it). */
  z.strictObject({ type: z.literal('drawn'), rows: z.number(), marked: z.optional(z.number()), p95LimitMs: z.number() }),
  z.strictObject({ type: z.literal('error'), message: z.string() }),
]);
export type FromWebview = z.infer<typeof FromWebview>;

/** What the page keeps with setState. */
export const TuneState = z.strictObject({
  endpointId: z.optional(z.string()),
  p95LimitS: z.optional(z.number()),
  header: z.optional(ToWebview),
  rows: z.optional(ToWebview),
});
export type TuneState = z.infer<typeof TuneState>;

// The cost chart's messages, both directions, as zod discriminated unions: imported by the host
// (costChartPanel.ts) and by the webview script (media/costChart/main.ts), so neither side can send what the
// other does not expect. Every message is validated on arrival. No `vscode` import (bundled for the browser).
// `zod/mini`, not classic zod: same schemas and checks, but tree-shakable, so the webview bundle carries a few
// KB of zod instead of ~450 KB.
import * as z from 'zod/mini';

const Amounts = z.array(z.number());

/** One stacked bar group per bucket, oldest first; the four cost components of SPEC 2.2. */
export const ChartData = z.strictObject({
  /** "All endpoints" or the endpoint's display name / id. */
  title: z.string(),
  /** The resolved window, as the tree shows it ("Last 30 days, daily, $123.45"). */
  subtitle: z.string(),
  endpointId: z.optional(z.string()),
  labels: z.array(z.string()),
  /** Each bucket's start (RFC 3339), for the hover. */
  ranges: z.array(z.string()),
  gpu: Amounts,
  cpu: Amounts,
  disk: Amounts,
  fee: Amounts,
  /**
   * The account's chart (the view title's button): each endpoint's total per bucket, stacked by endpoint
   * instead of by cost component. The biggest first; the rest summed as one series.
   */
  byEndpoint: z.optional(z.array(z.strictObject({ label: z.string(), values: Amounts }))),
}).check(z.refine((d) => [d.ranges, d.gpu, d.cpu, d.disk, d.fee, ...(d.byEndpoint ?? []).map((e) => e.values)].every((a) => a.length === d.labels.length), {
  message: 'every series has one value per bucket',
}));
export type ChartData = z.infer<typeof ChartData>;

export const ToWebview = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('data'), data: ChartData }),
  /** Nothing to draw: no key, an error, or a window without usage. Shown as text. */
  z.strictObject({ type: z.literal('notice'), title: z.string(), message: z.string() }),
]);
export type ToWebview = z.infer<typeof ToWebview>;

export const FromWebview = z.discriminatedUnion('type', [
  /** The page is listening: the host sends nothing before this (the ready handshake). */
  z.strictObject({ type: z.literal('ready') }),
  /** After every draw: what is on the canvas, counted from the chart itself (tests and logs read it). */
  z.strictObject({
    type: z.literal('drawn'),
    bucketCount: z.number(),
    /** Bars actually laid out per dataset (GPU, CPU, disk, fee). */
    barsPerDataset: z.array(z.number()),
    datasetLabels: z.array(z.string()),
    /** The sum of every bar's value as handed to the chart: what the user sees added up. */
    total: z.number(),
  }),
  /** The hover box's text whenever it changes: the exact amounts the user reads (tests check them). */
  z.strictObject({ type: z.literal('hover'), title: z.array(z.string()), lines: z.array(z.string()), footer: z.array(z.string()) }),
  z.strictObject({ type: z.literal('error'), message: z.string() }),
]);
export type FromWebview = z.infer<typeof FromWebview>;

/** What the webview keeps with setState, to redraw at once when shown again or restored after a reload. */
export const ChartState = z.strictObject({
  endpointId: z.optional(z.string()),
  /** The account's chart, stacked by endpoint. */
  byEndpoint: z.optional(z.boolean()),
  last: z.optional(ToWebview),
});
export type ChartState = z.infer<typeof ChartState>;

// The Batch panel's messages, both directions, as zod discriminated unions. Imported by the host
// (src/batch/batchPanel.ts) and by the webview script (media/batchPanel/main.ts); each side validates what it
// receives. The host sends rows only when they change, a few hundred at a time (never the whole table per
// change): the page keeps the table and draws only the rows in view. No `vscode` import: bundled for the browser.
import * as z from 'zod/mini';
import { GridPageState, HostMessage as GridHostMessage, WebviewMessage as GridWebviewMessage } from '../batchGrid/gridProtocol';

/** What a status filter groups a row under (the service's and the batch's states, in five words). */
export const ROW_GROUPS = ['waiting', 'running', 'completed', 'failed', 'stopped'] as const;
export type RowGroup = (typeof ROW_GROUPS)[number];

/** One job of the batch, as the table shows it: words and numbers only, computed on the host. */
export const BatchRowView = z.strictObject({
  index: z.int().check(z.gte(0)),
  /** The input: file name, JSONL line, or the sweep's values. */
  summary: z.string(),
  status: z.string(),
  group: z.enum(ROW_GROUPS),
  /** ms, for sorting; the text beside for reading. */
  delayMs: z.optional(z.number()),
  executionMs: z.optional(z.number()),
  delayText: z.string(),
  executionText: z.string(),
  /** USD (for sorting) and its text: "$0.0012 est." / "$0.0030" (reported) / "" (unknown). */
  costUsd: z.optional(z.number()),
  costText: z.string(),
  /** How the cost was made (the estimate's method), for the tooltip. */
  costHow: z.string(),
  /** The first line of the job's text output, or its error. */
  note: z.string(),
  jobId: z.optional(z.string()),
  /**
   * The job's first saved image as a webview URI (asWebviewUri of a file under the batch's folder, the panel's
   * only extra resource root): the page sets it as an img's src, nothing else.
   */
  thumbnail: z.optional(z.string().check(z.maxLength(4096))),
  /**
   * While the job moves (sent, in queue, in progress): when this attempt was sent (epoch ms). The page ticks the
   * row's "so far" from it, once a second, for the rows in view; the host sends nothing per tick.
   */
  liveSince: z.optional(z.number()),
});
export type BatchRowView = z.infer<typeof BatchRowView>;

export const BatchSummary = z.strictObject({
  title: z.string(),
  total: z.int(),
  /** "120 done · 4 running · 76 not sent · 2 failed". */
  counts: z.string(),
  /** "Spent about $0.41 (estimate)". */
  spent: z.string(),
  /** After the batch: what the billing route says the endpoint was billed over its hours, and what that covers. */
  billed: z.optional(z.string()),
  billedHow: z.optional(z.string()),
  /** The bill and the estimate differ by more than 25%: said in words, with why; Tune Endpoint… offered beside. */
  billCheck: z.optional(z.string()),
  /** Why the batch waits or is paused, when it does. */
  notice: z.optional(z.string()),
  /** The batch's life (core batchLife.ts): ready, sending, waiting, paused, cancelling, cancelled, finished. */
  state: z.enum(['ready', 'sending', 'waiting', 'paused', 'cancelling', 'cancelled', 'finished']),
  paused: z.boolean(),
  /** Jobs are still to be sent or followed, or wait for a resume. */
  running: z.boolean(),
  /** Which buttons the batch's life allows now (a cancelled batch has no Resume; Retry Failed after a cancel). */
  canPause: z.boolean(),
  canResume: z.boolean(),
  canCancel: z.boolean(),
  canRetryFailed: z.boolean(),
  /** What Retry Failed does now, or why it cannot (its tooltip): "No failed jobs: cancelled and not-sent jobs are not retried". */
  retryTitle: z.string(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export const HostMessage = z.discriminatedUnion('type', [
  /** Replaces the page's table (a new or reopened panel): sent in chunks, the first with `reset`. */
  z.strictObject({ type: z.literal('rows'), reset: z.boolean(), rows: z.array(BatchRowView) }),
  z.strictObject({ type: z.literal('summary'), summary: BatchSummary }),
  /** The batch's batch.jsonl: the page keeps it in its state, so a reloaded window reopens this panel (the serializer). */
  z.strictObject({ type: z.literal('manifest'), path: z.string().check(z.maxLength(4096)) }),
  /** Show the rows or the grid (the command Show Batch as Grid opens the panel in Grid mode). */
  z.strictObject({ type: z.literal('view'), view: z.enum(['rows', 'grid']) }),
  /** A message of the grid drawn in this page (issue 31), tagged: the grid's own protocol, src/batchGrid/gridProtocol.ts. */
  z.strictObject({ type: z.literal('grid'), m: GridHostMessage }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

export const WebviewMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('openRow'), index: z.int().check(z.gte(0)) }),
  z.strictObject({ type: z.literal('cancelBatch') }),
  z.strictObject({ type: z.literal('pause') }),
  z.strictObject({ type: z.literal('resume') }),
  z.strictObject({ type: z.literal('retryFailed') }),
  z.strictObject({ type: z.literal('exportCsv') }),
  /** Where the bill's money went: the endpoint's Tune panel (its hours, workers, idle time). */
  z.strictObject({ type: z.literal('tuneEndpoint') }),
  /** A message of the grid drawn in this page (issue 31), tagged: the grid's own protocol, src/batchGrid/gridProtocol.ts. */
  z.strictObject({ type: z.literal('grid'), m: GridWebviewMessage }),
  /** Two rows selected (Ctrl/Cmd-click), compared side by side (issue 31: src/compare/). */
  z.strictObject({ type: z.literal('compareRows'), a: z.int().check(z.gte(0)), b: z.int().check(z.gte(0)) }).check(z.refine((m) => m.a !== m.b, 'two different rows')),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

export const SORT_KEYS = ['index', 'status', 'delay', 'execution', 'cost'] as const;

/**
 * What the page keeps through getState/setState: how the user sorted and filtered (the rows come from the host),
 * which view it shows, the grid's axes and size, and its batch's batch.jsonl (what the serializer reopens after a
 * reload; the host checks it before reading anything).
 */
export const BatchPanelState = z.looseObject({
  sort: z._default(z.enum(SORT_KEYS), 'index'),
  descending: z._default(z.boolean(), false),
  filter: z._default(z.union([z.literal('all'), z.enum(ROW_GROUPS)]), 'all'),
  view: z._default(z.enum(['rows', 'grid']), 'rows'),
  manifest: z.optional(z.string().check(z.maxLength(4096))),
  grid: z.optional(GridPageState),
});
export type BatchPanelState = z.infer<typeof BatchPanelState>;

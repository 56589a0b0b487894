// The grid's messages, both directions, as zod discriminated unions. The grid is drawn in the Batch panel's page, so
// they travel over the Batch panel's webview, each wrapped as `{ type: 'grid', m }` in its protocol
// (src/batch/batchProtocol.ts): one channel, one validation on each side, the grid's messages its own. Imported by
// the host (gridView.ts) and the page (media/batchGrid/gridPage.ts). The host sends each job once as
// words, its values per key and, for a saved file, a webview URI of the file under the batch's folder: never the
// file's bytes. The page lays the grid out for the axes the user picks (src/core/grid/gridAxes.ts) and draws only
// the cells in view. No `vscode` import: bundled for the browser.
import * as z from 'zod/mini';

export const CELL_SIZES = ['small', 'medium', 'large'] as const;
export const CELL_PX: Record<(typeof CELL_SIZES)[number], number> = { small: 96, medium: 192, large: 320 };
/** The export's largest side: bigger grids are offered as an HTML page instead. */
export const MAX_PNG_SIDE = 16384;

export const GridKeyView = z.strictObject({ key: z.string(), fromSweep: z.boolean(), values: z.array(z.string()) });

export const GridJobView = z.strictObject({
  index: z.int().check(z.gte(0)),
  /** The job's value of each key of `keys`, by position: JSON text, null when its input has no such field. */
  values: z.array(z.nullable(z.string())),
  /** In the job life's words: "Completed", "In queue", "Failed · attempt 2". */
  status: z.string(),
  done: z.boolean(),
  failed: z.boolean(),
  /** The first saved image / video / audio, as a webview URI under the batch's folder. */
  media: z.optional(z.strictObject({ kind: z.enum(['image', 'video', 'audio']), uri: z.string().check(z.maxLength(4096)) })),
  /** The manifest names an output the disk no longer has. */
  missing: z.optional(z.boolean()),
  /** The first line of a text answer, or the job's error. */
  text: z.optional(z.string().check(z.maxLength(400))),
  jobId: z.optional(z.string()),
});
export type GridJobView = z.infer<typeof GridJobView>;

export const HostMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('grid'), title: z.string(), keys: z.array(GridKeyView), jobs: z.array(GridJobView) }),
  /** Jobs that changed since (live while the batch runs). */
  z.strictObject({ type: z.literal('jobs'), jobs: z.array(GridJobView) }),
  z.strictObject({ type: z.literal('notice'), text: z.string() }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

const Axes = { x: z.string(), y: z.optional(z.string()), z: z.optional(z.string()), zValue: z.optional(z.nullable(z.string())) };

export const WebviewMessage = z.discriminatedUnion('type', [
  /**
   * `view`: the axes the page will show (its saved ones) and how many columns and rows fit its window, so the host
   * sends those cells' jobs first and the rest after (a 30 x 30 grid's first screen is a few dozen of its 900).
   */
  z.strictObject({
    type: z.literal('ready'),
    view: z.optional(z.strictObject({
      x: z.optional(z.string()),
      y: z.optional(z.string()),
      z: z.optional(z.string()),
      page: z.int().check(z.gte(0)),
      cols: z.int().check(z.gte(1), z.lte(1000)),
      rows: z.int().check(z.gte(1), z.lte(1000)),
    })),
  }),
  z.strictObject({ type: z.literal('open'), index: z.int().check(z.gte(0)) }),
  z.strictObject({ type: z.literal('compare'), a: z.int().check(z.gte(0)), b: z.int().check(z.gte(0)) }),
  /** The grid drawn by the page's canvas, as PNG bytes: the host adds the tEXt chunk and writes the file. */
  z.strictObject({ type: z.literal('exportPng'), ...Axes, png: z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.length < 512 * 1024 * 1024) }),
  z.strictObject({ type: z.literal('exportHtml'), ...Axes, size: z.enum(CELL_SIZES) }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

/** What the page keeps of the grid through getState/setState (inside the Batch panel's state): its axes and size. */
export const GridPageState = z.looseObject({
  x: z.optional(z.string()),
  y: z.optional(z.string()),
  z: z.optional(z.string()),
  page: z._default(z.int(), 0),
  size: z._default(z.enum(CELL_SIZES), 'medium'),
});
export type GridPageState = z.infer<typeof GridPageState>;

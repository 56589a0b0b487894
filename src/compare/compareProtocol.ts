// The compare panel's messages (issue 31 "Two jobs side by side"), both directions, as zod discriminated unions:
// imported by the host (comparePanel.ts) and the page (media/compare/main.ts). Outputs are webview URIs of saved
// files inside the jobs' outputs folders, never their bytes. No `vscode` import: bundled for the browser.
import * as z from 'zod/mini';

export const CompareSideView = z.strictObject({
  /** "flux-dev · cat.input.json · 12:04:31". */
  title: z.string(),
  /** The job life's status line: "Completed · 2.4 s". */
  status: z.string(),
  cost: z.string(),
  costHow: z.string(),
  media: z.array(z.strictObject({ kind: z.enum(['image', 'video', 'audio']), uri: z.string().check(z.maxLength(4096)) })),
  /** Outputs the record names that are no longer on disk. */
  missing: z.int().check(z.gte(0)),
  text: z.optional(z.string()),
  error: z.optional(z.string()),
});
export type CompareSideView = z.infer<typeof CompareSideView>;

export const KeyChangeView = z.strictObject({ key: z.string(), old: z.optional(z.string()), new: z.optional(z.string()) });

export const HostMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('compare'),
    a: CompareSideView,
    b: CompareSideView,
    changes: z.array(KeyChangeView),
    /** The line diff of the two texts, when both have one (and neither is too long). */
    textDiff: z.optional(z.array(z.strictObject({ op: z.enum([' ', '-', '+']), text: z.string() }))),
  }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

export const WebviewMessage = z.discriminatedUnion('type', [z.strictObject({ type: z.literal('ready') }), z.strictObject({ type: z.literal('open'), side: z.enum(['a', 'b']) })]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

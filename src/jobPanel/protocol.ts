// The job panel's messages, both directions, as zod discriminated unions. Imported by the host
// (src/jobPanel/jobPanel.ts) and by the webview script (media/jobPanel/main.ts), so neither side can send
// what the other does not understand; each side validates what it receives (DEVELOPERS.md, webviews).
// No `vscode` import: this module is bundled for the browser too.
import * as z from 'zod/mini';
import { jobFacts } from '../jobs/jobRecord';

/**
 * True when the host sends the saved file's bytes in a `file` message (keyed by `src`), which the page shows
 * through a blob: URL instead of loading `src`; until they arrive it says "Loading". In code-server a `src`
 * load goes through the webview service worker, which all webviews share: if the panel closes or hides while
 * the load is in flight, the worker waits 30 s for an answer that never comes, and a webview opened meanwhile
 * stays blank until then. Absent for a file over 512 KiB (its bytes would cost the extension host several times
 * their size, see MAX_FILE_BYTES_IN_MESSAGE) or that could not be read: the page loads `src`.
 * The bytes travel apart from the job, one file per message, so the extension host holds one file at a time
 * rather than every output at once (issue 11).
 */
const sentAsBytes = z.optional(z.boolean());

/** One output of a job as the panel shows it. `src` is always a webview URI of a LOCAL saved file. */
export const PanelOutput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('image'),
    index: z.int().check(z.gte(0)),
    src: z.optional(z.string()),
    sentAsBytes,
    seed: z.optional(z.number()),
    width: z.optional(z.number()),
    height: z.optional(z.number()),
    fileName: z.optional(z.string()),
  }),
  z.strictObject({
    kind: z.enum(['video', 'audio']),
    index: z.int().check(z.gte(0)),
    src: z.optional(z.string()),
    sentAsBytes,
    fileName: z.optional(z.string()),
    /** Shown instead of the player when the file could not be saved (download off, too big, failed). */
    note: z.optional(z.string()),
  }),
  z.strictObject({ kind: z.literal('json'), index: z.int().check(z.gte(0)), text: z.string() }),
  /** A model's answer, shown as readable text (not JSON); `fileName` is the saved output.txt. */
  z.strictObject({ kind: z.literal('text'), index: z.int().check(z.gte(0)), text: z.string(), fileName: z.optional(z.string()) }),
  /** A speech-to-text answer: its words, and its segments with their times (seconds); `fileName` is transcript.txt. */
  z.strictObject({
    kind: z.literal('transcript'),
    index: z.int().check(z.gte(0)),
    text: z.string(),
    segments: z.array(z.strictObject({ start: z.number(), end: z.number(), text: z.string() })),
    language: z.optional(z.string()),
    fileName: z.optional(z.string()),
  }),
  /** Words about the output as a whole: "The worker returned no output", a result near the size limit. */
  z.strictObject({ kind: z.literal('notice'), index: z.int().check(z.gte(0)), text: z.string() }),
  z.strictObject({ kind: z.literal('rejected'), index: z.int().check(z.gte(0)), reason: z.string(), value: z.string() }),
]);
export type PanelOutput = z.infer<typeof PanelOutput>;

/** Everything the panel shows, sent whole on every change (the webview keeps it as its state); file bytes travel apart. */
export const PanelJob = z.strictObject({
  key: z.string(),
  endpointId: z.string(),
  jobId: z.optional(z.string()),
  mode: z.enum(['async', 'sync']),
  inputFileName: z.optional(z.string()),
  status: z.string(),
  /** True while the extension is still waiting for this job. */
  running: z.boolean(),
  /** While a request of this job waits before its retry (issue 12): why and until when (epoch ms); the page counts down. */
  retryWait: z.optional(z.strictObject({ reason: z.enum(['rateLimited', 'unavailable', 'network', 'quota']), status: z.optional(z.number()), until: z.number() })),
  /** Cancel Job is offered (a job the service knows, still running there). */
  canCancel: z._default(z.boolean(), false),
  /** Retry is offered (a FAILED or TIMED_OUT job the service knows). */
  canRetry: z._default(z.boolean(), false),
  /** Stop Waiting is offered (a job followed and still moving). */
  canStopWaiting: z._default(z.boolean(), false),
  ...jobFacts,
  /** Actions offered with the error (describeError), shown as buttons. */
  errorActions: z._default(z.array(z.strictObject({ id: z.string(), label: z.string() })), []),
  note: z.optional(z.string()),
  outputsFolder: z.optional(z.string()),
  outputs: z.array(PanelOutput),
  /** The logs of the worker that ran the job, followed while it runs (hosted worker logs, issue 28). */
  workerLogs: z.optional(z.array(z.string())),
  jobJson: z.optional(z.string()),
});
export type PanelJob = z.infer<typeof PanelJob>;

export const HostMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('job'), job: PanelJob }),
  /** The bytes of one saved output (an output with `sentAsBytes`), sent after the job that shows it. */
  z.strictObject({ type: z.literal('file'), src: z.string(), bytes: z.instanceof(Uint8Array) }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

const outputRef = { index: z.int().check(z.gte(0)) };
export const WebviewMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('openInput') }),
  z.strictObject({ type: z.literal('openOutputsFolder') }),
  z.strictObject({ type: z.literal('runAgain') }),
  /** Stop Waiting: stop following the job (it may go on running on the service). */
  z.strictObject({ type: z.literal('cancel') }),
  /** Cancel Job: POST /cancel, the job ends CANCELLED. */
  z.strictObject({ type: z.literal('cancelJob') }),
  z.strictObject({ type: z.literal('retry') }),
  z.strictObject({ type: z.literal('errorAction'), id: z.string() }),
  z.strictObject({ type: z.literal('openOutput'), ...outputRef }),
  z.strictObject({ type: z.literal('openExternally'), ...outputRef }),
  z.strictObject({ type: z.literal('saveAs'), ...outputRef }),
  z.strictObject({ type: z.literal('copySeed'), seed: z.number() }),
  z.strictObject({ type: z.literal('runWithSeed'), seed: z.number() }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

/** What the webview keeps through getState/setState, and what the serializer gets back after a reload. */
export const PanelState = z.looseObject({ key: z.string(), job: z.optional(PanelJob) });
export type PanelState = z.infer<typeof PanelState>;

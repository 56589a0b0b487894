// The job panel's page script (bundled to dist/webview/jobPanel.js). It draws what the host sends and asks the
// host to act; it never fetches anything. Everything from the service or a file is set with textContent,
// attributes only with setAttribute after a check, and media only from saved local files: blob: URLs of the
// bytes the host sent, or (a file too big to send) the webview's own resource origin — the CSP enforces it too.
import { HostMessage, PanelJob, PanelState, type WebviewMessage } from '../../src/jobPanel/protocol';
import { costText, costTooltip, shownCost } from '../../src/core/cost/costText';
import { vscode } from '../../src/webview/vscodeApi';
import { retryWaitText } from '../../src/errors/retryWaitText';
import { describeJob, lifeLine, msToNextTick } from '../../src/core/jobs/jobLife';
import { formatDuration } from '../../src/core/jobs/durationText';
import { button, el, isLocalResource } from './dom';
import { renderOutputs, type SavedMedia } from './outputs';

const root = document.getElementById('root') ?? document.body.appendChild(document.createElement('main'));
let current: PanelJob | undefined;
let ticker: ReturnType<typeof setTimeout> | undefined;
/** Whether the last render was of what the host sent (rather than of the saved state, before `ready`). */
let currentFromHost = false;
/** blob: URLs of the outputs the host sent as bytes, by their `src`: made once, reused by every render. */
let blobUrls = new Map<string, string>();

function send(message: WebviewMessage): void {
  vscode.postMessage(message);
}


function statusLine(job: PanelJob, now: number): string {
  // The job life's one line, as the Jobs view and the status bar say it.
  const line = lifeLine(job, now);
  // A poll waiting before its retry says so, counting down (issue 12); the host posts only its start and end.
  return job.running && job.retryWait && job.retryWait.until > now ? `${line} · ${retryWaitText(job.retryWait, now)}` : line;
}


const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif',
  mp4: 'video/mp4', webm: 'video/webm', wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg', flac: 'audio/flac',
};

/** The type a blob is played as (by the saved file's extension); '' lets the browser sniff it. */
function mimeOf(o: SavedMedia): string {
  const ext = /\.([a-z0-9]+)$/i.exec(o.fileName ?? '')?.[1]?.toLowerCase() ?? '';
  const type = MIME_BY_EXTENSION[ext] ?? '';
  return o.kind === 'audio' && ext === 'webm' ? 'audio/webm' : type;
}

/**
 * Where a saved output is played from: a blob: URL of the bytes the host sent (a `file` message), so that no
 * request of this page goes through code-server's shared webview service worker once the page has loaded
 * (PanelOutput's sentAsBytes says why). Until its bytes arrive it shows none. Only a file the host does not
 * send (too big) is loaded from `src`, and only once the host has answered `ready`.
 */
function mediaSource(o: SavedMedia, fromHost: boolean, used: Map<string, string>): string | undefined {
  if (!isLocalResource(o.src)) return undefined;
  const url = blobUrls.get(o.src);
  if (url) {
    used.set(o.src, url);
    return url;
  }
  return fromHost && !o.sentAsBytes ? o.src : undefined;
}

/** The bytes of one saved output: kept as a blob: URL, and the job drawn again to show it. */
function receiveFile(src: string, bytes: Uint8Array): void {
  const output = current?.outputs.find((o): o is SavedMedia => (o.kind === 'image' || o.kind === 'video' || o.kind === 'audio') && o.src === src);
  // Only for an output shown now, from a local file; a second copy of the same file is not made again.
  if (!output || !isLocalResource(src) || blobUrls.has(src) || !current) return;
  blobUrls.set(src, URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeOf(output) })));
  render(current, currentFromHost);
}

// --- rendering -----------------------------------------------------------------------------------------
function render(job: PanelJob, fromHost: boolean): void {
  current = job;
  currentFromHost = fromHost;
  vscode.setState({ key: job.key, job } satisfies PanelState);
  root.replaceChildren();

  const header = el('header');
  const title = el('h1');
  title.append(el('span', 'endpoint', job.endpointId));
  if (job.jobId) title.append(el('span', 'job-id', job.jobId));
  header.append(title);

  const meta = el('dl', 'meta');
  const row = (name: string, value: Node | string, id?: string): void => {
    const dd = el('dd');
    if (id) dd.id = id;
    if (typeof value === 'string') dd.textContent = value;
    else dd.append(value);
    meta.append(el('dt', undefined, name), dd);
  };
  if (job.inputFileName) {
    const link = el('a', 'link', job.inputFileName);
    link.href = '#';
    link.dataset['action'] = 'open-input';
    link.addEventListener('click', (e) => {
      e.preventDefault();
      send({ type: 'openInput' });
    });
    row('Input', link);
  } else {
    row('Input', 'entered directly');
  }
  // What really happens (issue 22): an async job is followed on the long poll where the service has one.
  row('Mode', job.mode === 'sync' ? 'sync (/runsync, then followed on /status-sync if it outlives the wait)' : 'async (/run, then followed on /status-sync, or /status where the service has none)');
  header.append(meta);

  const actions = el('div', 'actions');
  if (job.canCancel) actions.append(button('Cancel job', () => send({ type: 'cancelJob' }), { action: 'cancel-job', title: 'Ends the job on the service (POST /cancel): it stops running and being billed' }));
  if (job.canStopWaiting) actions.append(button('Stop waiting', () => send({ type: 'cancel' }), { secondary: true, action: 'cancel', title: 'Only stops following the job: it may go on running (and being billed) on the service' }));
  if (job.canRetry) actions.append(button('Retry', () => send({ type: 'retry' }), { action: 'retry', title: 'Queues the same job again on the service (POST /retry) and follows it' }));
  actions.append(button('Run again', () => send({ type: 'runAgain' }), { action: 'run-again' }));
  if (job.outputsFolder) actions.append(button('Show outputs folder', () => send({ type: 'openOutputsFolder' }), { secondary: true }));
  header.append(actions);
  root.append(header);

  const status = el('section', `status status-${job.status.toLowerCase()}`);
  status.setAttribute('aria-live', 'polite');
  const statusText = el('p', 'status-line', statusLine(job, Date.now()));
  statusText.id = 'status-line';
  status.append(statusText);
  if (job.queueReason && job.status === 'IN_QUEUE') {
    // Why it waits, from the endpoint's health (cold start, all workers busy, none allowed, throttled).
    const why = el('p', 'queue-reason', job.queueReason);
    why.id = 'queue-reason';
    status.append(why);
  }
  const timings = el('dl', 'meta');
  const t = (name: string, value: string | undefined, title?: string): HTMLElement | undefined => {
    if (value === undefined) return undefined;
    const dd = el('dd', undefined, value);
    if (title) dd.setAttribute('title', title);
    timings.append(el('dt', undefined, name), dd);
    return dd;
  };
  t('Status', job.status);
  if (job.attempt !== undefined && job.attempt > 1) t('Attempt', String(job.attempt));
  t('Delay (queue)', job.delayTime !== undefined ? formatDuration(job.delayTime) : undefined);
  t('Execution', job.executionTime !== undefined ? formatDuration(job.executionTime) : undefined);
  t('Worker', job.workerId);
  // The batch row's words: "$0.00304 est." with how it was made in the tooltip; blank (no row) when unknown.
  const cost = shownCost(job.jobCost, job.cost);
  const costDd = t('Cost', costText(cost) || undefined, costTooltip(cost));
  if (costDd) costDd.id = 'job-cost';
  status.append(timings);
  if (job.error) {
    const err = el('div', 'error');
    err.setAttribute('role', 'alert');
    err.append(el('pre', 'error-text', job.error));
    for (const a of job.errorActions) err.append(button(a.label, () => send({ type: 'errorAction', id: a.id }), { secondary: true }));
    status.append(err);
  }
  if (job.note) status.append(el('p', 'note', job.note));
  root.append(status);

  // The worker's latest progress update while the job runs (`output` of an IN_PROGRESS job).
  if (job.progress !== undefined && describeJob(job).live) {
    const section = el('section', 'progress');
    section.append(el('h2', undefined, 'Progress'));
    const text = el('pre', 'progress-text', job.progress);
    text.id = 'progress';
    section.append(text);
    root.append(section);
  }

  // A streaming worker's text as it is written, until the saved output.txt takes its place.
  if (job.streamText !== undefined && !job.outputs.some((o) => o.kind === 'text')) {
    const section = el('section', 'stream');
    section.append(el('h2', undefined, job.running ? 'Text (streaming…)' : 'Text'));
    const text = el('div', 'llm-text', job.streamText);
    text.id = 'stream-text';
    section.append(text);
    root.append(section);
  }

  // The logs of the worker that runs the job: live while it runs, kept when it ends.
  if (job.workerLogs?.length) {
    const section = el('section', 'worker-logs');
    section.append(el('h2', undefined, job.running ? 'Worker logs (live)' : 'Worker logs'));
    const text = el('pre', 'worker-logs-text', job.workerLogs.join('\n'));
    text.id = 'worker-logs';
    section.append(text);
    root.append(section);
  }

  const used = new Map<string, string>();
  if (job.outputs.length) root.append(renderOutputs(job.outputs, { send, source: (o) => mediaSource(o, fromHost, used) }));
  // blob: URLs of outputs no longer shown are released.
  for (const [src, url] of blobUrls) if (!used.has(src)) URL.revokeObjectURL(url);
  blobUrls = used;

  if (job.jobJson) {
    const details = el('details', 'job-json');
    details.append(el('summary', undefined, 'Job JSON'), el('pre', undefined, job.jobJson));
    root.append(details);
  }
  startTicker(job);
}

/** Elapsed time ticks locally on the job's own second while it moves; the host sends only real changes. */
function startTicker(job: PanelJob): void {
  if (ticker) clearTimeout(ticker);
  ticker = undefined;
  // Ticks while the job life says the job moves; stops at its final state.
  if (!job.running || !describeJob(job).live) return;
  const tick = (): void => {
    const line = document.getElementById('status-line');
    if (line && current) line.textContent = statusLine(current, Date.now());
    ticker = setTimeout(tick, msToNextTick(job));
  };
  ticker = setTimeout(tick, msToNextTick(job));
}

/** The job the host wrote into the page (a data attribute, validated like any message). */
function initialJob(): PanelJob | undefined {
  const raw = root.dataset['job'];
  if (!raw) return undefined;
  try {
    const parsed = PanelJob.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostMessage.safeParse(event.data);
  if (!parsed.success) return; // not ours, or malformed: ignored, never rendered
  if (parsed.data.type === 'job') render(parsed.data.job, true);
  else if (parsed.data.type === 'file') receiveFile(parsed.data.src, parsed.data.bytes);
});

// Show what we had before hiding or reloading at once, else the job as it stood when the host wrote the page
// (no blank first paint), then ask the host for the current state.
const saved = PanelState.safeParse(vscode.getState());
const firstJob = saved.success && saved.data.job ? saved.data.job : initialJob();
if (firstJob) render(firstJob, false);
else root.append(el('p', 'note', 'Loading job…'));
send({ type: 'ready' });

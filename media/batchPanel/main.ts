// The Batch panel's page: a virtualized table of every job (only the rows in view are in the DOM, so 10,000 rows
// scroll as 30 do), sorted and filtered here, with the batch's buttons. Rows arrive from the host as they change
// (batchProtocol.ts); text from the host is set with textContent only. Sort and filter survive a hidden panel
// through getState/setState. A drawn row whose view did not change keeps its element (its thumbnail is not loaded
// again on a scroll or a tick), and rows that change off screen without moving draw nothing (most of a long batch's
// updates); the "so far" of moving jobs ticks here, for the drawn rows only. Ctrl/Cmd-click
// selects two rows for Compare (the compare panel, as for two cells of the grid). Its Rows | Grid switch shows the
// batch's grid in this same page (media/batchGrid/gridPage.ts, issue 31): no second webview to start.
import { hideGrid, mountGrid, onGridMessage, showGrid } from '../batchGrid/gridPage';
import { BatchPanelState, HostMessage, WebviewMessage, type BatchRowView, type BatchSummary } from '../../src/batch/batchProtocol';
import { msToNextTick } from '../../src/core/jobs/jobLife';
import { soFarText } from '../../src/core/jobs/durationText';
import { vscode } from '../../src/webview/vscodeApi';

const ROW_HEIGHT = 24;
/** Rows drawn above and below the visible ones, so a fast scroll does not show a blank edge. */
const OVERSCAN = 8;

const el = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const viewport = el<HTMLDivElement>('viewport');
const spacer = el<HTMLDivElement>('spacer');
const rowsEl = el<HTMLDivElement>('rows');
const filterEl = el<HTMLSelectElement>('filter');

const rows = new Map<number, BatchRowView>();
/** The rows now in the DOM: the view each was drawn from, and its element. */
let drawn = new Map<number, { view: BatchRowView; div: HTMLDivElement }>();
let ticker: ReturnType<typeof setTimeout> | undefined;
let order: number[] = [];
let orderStale = true;
/** The rows Ctrl/Cmd-clicked for Compare, oldest first (two at most). */
const selected: number[] = [];
let drawQueued = false;
let state: BatchPanelState = (() => {
  const parsed = BatchPanelState.safeParse(vscode.getState() ?? {});
  return parsed.success ? parsed.data : BatchPanelState.parse({});
})();

function send(message: WebviewMessage): void {
  vscode.postMessage(WebviewMessage.parse(message));
}

function saveState(): void {
  vscode.setState(state);
}

/** Rows or Grid: the page's own switch (kept in its state, so a reload shows the same), or the host's word. */
function showView(view: BatchPanelState['view'], at?: number): void {
  if (view !== state.view) {
    state = { ...state, view };
    saveState();
  }
  el('rowsview').hidden = view !== 'rows';
  document.body.classList.toggle('gridmode', view === 'grid');
  el('view-rows').setAttribute('aria-pressed', String(view === 'rows'));
  el('grid').setAttribute('aria-pressed', String(view === 'grid'));
  if (view === 'grid') showGrid(at);
  else {
    hideGrid();
    queueDraw();
  }
}

const GROUP_RANK: Record<string, number> = { failed: 0, running: 1, waiting: 2, stopped: 3, completed: 4 };

function sortValue(r: BatchRowView): number | string {
  switch (state.sort) {
    case 'status':
      return `${GROUP_RANK[r.group] ?? 9}${r.status}`;
    case 'delay':
      return r.delayMs ?? -1;
    case 'execution':
      return r.executionMs ?? -1;
    case 'cost':
      return r.costUsd ?? -1;
    default:
      return r.index;
  }
}

function computeOrder(): void {
  const shown = [...rows.values()].filter((r) => state.filter === 'all' || r.group === state.filter);
  const dir = state.descending ? -1 : 1;
  shown.sort((a, b) => {
    const x = sortValue(a);
    const y = sortValue(b);
    return (x < y ? -1 : x > y ? 1 : a.index - b.index) * dir;
  });
  order = shown.map((r) => r.index);
  orderStale = false;
  el('shown').textContent = `${order.length} of ${rows.size} rows`;
  spacer.style.height = `${order.length * ROW_HEIGHT}px`;
}

function cell(text: string, cls: string, title?: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = cls;
  span.textContent = text;
  if (title) span.title = title;
  return span;
}

/** A moving job's execution cell: its "so far" from when it was sent, by the page's clock. */
function executionText(r: BatchRowView, now: number): string {
  return r.liveSince === undefined ? r.executionText : soFarText(Math.max(0, now - r.liveSince));
}

/** The output cell: the first saved image as a small thumbnail (its URI set as src, nothing else), then the text. */
function outputCell(r: BatchRowView): HTMLSpanElement {
  const span = cell(r.note, 'note', r.note);
  if (r.thumbnail) {
    const img = document.createElement('img');
    img.className = 'thumb';
    img.alt = '';
    // Only drawn rows have an img at all (the table is virtualized); lazy and async keep a fast scroll smooth.
    img.loading = 'lazy';
    img.decoding = 'async';
    img.src = r.thumbnail;
    span.prepend(img);
  }
  return span;
}

function rowElement(r: BatchRowView): HTMLDivElement {
  const div = document.createElement('div');
  div.className = `row ${r.group}`;
  div.dataset.index = String(r.index);
  if (r.liveSince !== undefined) div.dataset.live = '';
  div.title = r.jobId ? `Job ${r.jobId}: click to open its panel` : 'Not sent yet';
  div.append(
    cell(String(r.index + 1), 'num'),
    cell(r.summary, 'summary'),
    cell(r.status, 'status'),
    cell(r.delayText, 'delay'),
    cell(executionText(r, Date.now()), 'execution'),
    cell(r.costText, 'cost', r.costHow),
    outputCell(r),
  );
  return div;
}

function draw(): void {
  drawQueued = false;
  if (orderStale) computeOrder();
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(order.length, Math.ceil((viewport.scrollTop + viewport.clientHeight) / ROW_HEIGHT) + OVERSCAN);
  const next = new Map<number, { view: BatchRowView; div: HTMLDivElement }>();
  const divs: HTMLDivElement[] = [];
  // The same elements in the same order as drawn already: the DOM is left alone (re-inserting them would make the
  // page lay out and paint the table again for nothing, several times a second while a batch runs).
  let same = true;
  const before = rowsEl.children;
  for (let i = first; i < last; i++) {
    const r = rows.get(order[i]!);
    if (!r) continue;
    const old = drawn.get(r.index);
    const div = old?.view === r ? old.div : rowElement(r);
    const isSelected = selected.includes(r.index);
    div.classList.toggle('selected', isSelected); // with `force`, a class already in place is no change
    if (div.getAttribute('aria-selected') !== String(isSelected)) div.setAttribute('aria-selected', String(isSelected));
    const top = `${i * ROW_HEIGHT}px`;
    if (div.style.top !== top) div.style.top = top;
    next.set(r.index, { view: r, div });
    if (before[divs.length] !== div) same = false;
    divs.push(div);
  }
  drawn = next;
  if (!same || before.length !== divs.length) rowsEl.replaceChildren(...divs);
  scheduleTick();
}

/** Whether a row's new view may move it in the table's order or in or out of its filter. */
function movesInOrder(old: BatchRowView, next: BatchRowView): boolean {
  return (state.filter !== 'all' && old.group !== next.group) || sortValue(old) !== sortValue(next);
}

/**
 * The drawn moving rows' "so far", each changed on its job's own second (as the job panel ticks); the timer runs
 * only while such a row is drawn, and touches only their execution cells.
 */
function scheduleTick(): void {
  if (ticker) clearTimeout(ticker);
  ticker = undefined;
  const now = Date.now();
  let wait = Infinity;
  for (const { view } of drawn.values()) if (view.liveSince !== undefined) wait = Math.min(wait, msToNextTick({ submittedAt: view.liveSince }, now));
  if (wait === Infinity) return;
  ticker = setTimeout(() => {
    const at = Date.now();
    for (const { view, div } of drawn.values()) {
      if (view.liveSince === undefined) continue;
      const span = div.querySelector<HTMLElement>('.execution');
      const text = executionText(view, at);
      if (span && span.textContent !== text) span.textContent = text;
    }
    scheduleTick();
  }, wait);
}

function queueDraw(stale = false): void {
  orderStale ||= stale;
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(draw);
}

function showSummary(s: BatchSummary): void {
  el('title').textContent = s.title;
  el('counts').textContent = s.counts;
  el('spent').textContent = s.spent;
  el('billed').textContent = s.billed ?? '';
  el('billed').title = s.billedHow ?? '';
  el('bill-check').hidden = !s.billCheck;
  el('bill-words').textContent = s.billCheck ?? '';
  const notice = el('notice');
  notice.textContent = s.notice ?? '';
  notice.hidden = !s.notice;
  // What may be clicked is the batch's life's word (sent by the host), never worked out here.
  el('pause').hidden = !s.canPause;
  el('resume').hidden = !s.canResume;
  (el('retry') as HTMLButtonElement).disabled = !s.canRetryFailed;
  el('retry').title = s.retryTitle;
  (el('cancel') as HTMLButtonElement).disabled = !s.canCancel;
}

function sortBy(key: BatchPanelState['sort']): void {
  state = { ...state, descending: state.sort === key ? !state.descending : false, sort: key };
  vscode.setState(state);
  markSortedHeader();
  queueDraw(true);
}

function markSortedHeader(): void {
  const key = state.sort;
  for (const h of document.querySelectorAll<HTMLElement>('#head [data-sort]')) {
    h.classList.toggle('sorted', h.dataset.sort === key);
    h.classList.toggle('descending', h.dataset.sort === key && state.descending);
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = HostMessage.safeParse(event.data);
  if (!parsed.success) return;
  const m = parsed.data;
  if (m.type === 'summary') {
    showSummary(m.summary);
    return;
  }
  if (m.type === 'grid') return onGridMessage(m.m);
  if (m.type === 'view') return showView(m.view);
  if (m.type === 'manifest') {
    // Kept at once: a reloaded window reopens this batch's panel (the host checks the path first).
    state = { ...state, manifest: m.path };
    saveState();
    return;
  }
  if (m.reset) rows.clear();
  let stale = m.reset;
  let onScreen = false;
  for (const r of m.rows) {
    const old = rows.get(r.index);
    if (!old || movesInOrder(old, r)) stale = true;
    if (drawn.has(r.index)) onScreen = true;
    rows.set(r.index, r);
  }
  // Rows that changed off screen and kept their places change nothing drawn: in a long batch, most of them.
  if (stale || onScreen) queueDraw(stale);
});

/** Ctrl/Cmd-click: a row in or out of the two to compare (a third pushes the oldest out). */
function toggleSelected(index: number): void {
  const at = selected.indexOf(index);
  if (at >= 0) selected.splice(at, 1);
  else selected.push(index);
  while (selected.length > 2) selected.shift();
  const compare = el<HTMLButtonElement>('compare');
  compare.disabled = selected.length !== 2;
  compare.title = selected.length === 2 ? `Compare job ${selected[0]! + 1} with job ${selected[1]! + 1}` : 'Ctrl/Cmd-click two rows to compare their jobs';
  queueDraw();
}

document.addEventListener('click', (event) => {
  const target = event.target as HTMLElement;
  if (target.closest('#compare')) {
    if (selected.length === 2) send({ type: 'compareRows', a: selected[0]!, b: selected[1]! });
    return;
  }
  const view = target.closest<HTMLElement>('[data-view]')?.dataset.view;
  if (view) {
    // The click's own time (when the user clicked, on the page's clock) is when the grid was asked for.
    showView(BatchPanelState.shape.view.parse(view), performance.timeOrigin + event.timeStamp);
    return;
  }
  const action = target.closest<HTMLElement>('[data-action]')?.dataset.action;
  if (action) {
    send(WebviewMessage.parse({ type: action }));
    return;
  }
  const sort = target.closest<HTMLElement>('[data-sort]')?.dataset.sort;
  if (sort) {
    sortBy(BatchPanelState.shape.sort.parse(sort));
    return;
  }
  const row = target.closest<HTMLElement>('#rows .row');
  if (!row?.dataset.index) return;
  if (event.ctrlKey || event.metaKey) toggleSelected(Number(row.dataset.index));
  else send({ type: 'openRow', index: Number(row.dataset.index) });
});

filterEl.value = state.filter;
filterEl.addEventListener('change', () => {
  state = { ...state, filter: BatchPanelState.shape.filter.parse(filterEl.value) };
  vscode.setState(state);
  viewport.scrollTop = 0;
  queueDraw(true);
});
viewport.addEventListener('scroll', () => queueDraw());
// Home / End reach the first and last row from anywhere on the page (the viewport need not have the focus).
document.addEventListener('keydown', (event) => {
  if (state.view !== 'rows') return;
  if (event.target instanceof HTMLSelectElement || (event.key !== 'Home' && event.key !== 'End')) return;
  viewport.scrollTop = event.key === 'End' ? viewport.scrollHeight : 0;
  event.preventDefault();
});
window.addEventListener('resize', () => queueDraw());

markSortedHeader();
mountGrid({
  send: (m) => send({ type: 'grid', m }),
  load: () => state.grid,
  save: (grid) => {
    state = { ...state, grid };
    saveState();
  },
});
send({ type: 'ready' });
showView(state.view);

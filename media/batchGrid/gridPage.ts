// The grid of the Batch panel's page (issue 31, its Grid view beside the rows; media/batchPanel/main.ts mounts it): a
// batch's jobs laid out by the two keys the user picks (a third pages the grid), from the job views the host sent
// (src/batchGrid/gridProtocol.ts, wrapped in the Batch panel's messages). Only the cells in view are in the DOM, so a
// 30 x 30 grid scrolls as a 3 x 3 one does; images load from webview URIs of the saved files, never as bytes in a
// message. Text from the host (values, statuses, errors) is set with textContent only. The export draws the grid in
// a canvas and hands the PNG's bytes to the host, which adds the tEXt chunk and writes the file.
import { arrangeGrid, chooseAxes, pickAxis, shortLabel, valueLabel, type GridKey, type GridLayout, type GridValues } from '../../src/core/grid/gridAxes';
import { CELL_PX, GridPageState, HostMessage, MAX_PNG_SIDE, WebviewMessage, type GridJobView } from '../../src/batchGrid/gridProtocol';
import { drawGridPng } from './exportCanvas';
import { markFirstPaint, observeFrames, perf, showPerf, watchFrames } from './pagePerf';
import { bindScrollKeys } from './scrollKeys';
import { CAPTION, drawCell } from './gridCell';

const ROW_HEAD = 140;
/** Cells drawn beyond the visible ones on each side. */
const OVERSCAN = 1;

const el = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const viewport = el<HTMLDivElement>('gridport');
const spacer = el<HTMLDivElement>('gridspacer');
const cellsEl = el<HTMLDivElement>('cells');
const colInner = el<HTMLDivElement>('colinner');
const rowInner = el<HTMLDivElement>('rowinner');
const notice = el<HTMLDivElement>('gridnotice');
const section = el<HTMLElement>('gridview');
const selects = { x: el<HTMLSelectElement>('x'), y: el<HTMLSelectElement>('y'), z: el<HTMLSelectElement>('z'), size: el<HTMLSelectElement>('size') };

let keys: GridKey[] = [];
const jobs = new Map<number, GridJobView>();
let layout: GridLayout | undefined;
let drawn = new Map<string, { sig: string; div: HTMLDivElement }>();
/** Which job of a stacked cell is on top, by cell id. */
const stackTop = new Map<string, number>();
const selected: number[] = [];
let drawQueued = false;
/** What the Batch panel's page gives the grid: its channel to the host, and its part of the page's state. */
export interface GridPageIo {
  send(message: WebviewMessage): void;
  load(): unknown;
  save(state: GridPageState): void;
}
let io: GridPageIo | undefined;
let state: GridPageState = GridPageState.parse({});
/** The host was told the page is ready (the first time the grid was shown). */
let started = false;

function send(message: WebviewMessage): void {
  io?.send(WebviewMessage.parse(message));
}

function saveState(): void {
  io?.save(state);
}

const cellPx = (): number => CELL_PX[state.size];
const valuesOfJob = (j: GridJobView): GridValues => Object.fromEntries(keys.map((k, i) => [k.key, j.values[i] ?? undefined]));

function zValues(): (string | undefined)[] {
  const k = keys.find((g) => g.key === state.z);
  return k ? k.values : [undefined];
}

/** `keep`: only jobs changed (the axes and size did not): the drawn cells stay, and only those that changed are drawn again. */
function relayout(keep = false): void {
  if (!state.x) return;
  const zs = zValues();
  state.page = Math.min(Math.max(0, state.page), zs.length - 1);
  const z = state.z ? { key: state.z, value: zs[state.page] } : undefined;
  layout = arrangeGrid([...jobs.values()].map((j) => ({ index: j.index, values: valuesOfJob(j) })), keys, state.x, state.y || undefined, z);
  const px = cellPx();
  spacer.style.width = `${layout.xs.length * px}px`;
  spacer.style.height = `${layout.ys.length * (px + CAPTION)}px`;
  section.classList.toggle('noy', !state.y);
  el('zpager').hidden = !state.z;
  el('zvalue').textContent = state.z ? ` ${state.z} = ${shortLabel(valueLabel(zs[state.page]))} (${state.page + 1}/${zs.length}) ` : '';
  drawHeaders();
  if (!keep) {
    for (const d of drawn.values()) d.div.remove();
    drawn = new Map();
  }
  queueDraw();
}

function header(text: string | undefined, style: Partial<CSSStyleDeclaration>, cls: string): HTMLDivElement {
  const div = document.createElement('div');
  div.className = cls;
  const label = valueLabel(text);
  div.textContent = shortLabel(label);
  div.title = label;
  Object.assign(div.style, style);
  return div;
}

function drawHeaders(): void {
  if (!layout) return;
  const px = cellPx();
  colInner.replaceChildren(...layout.xs.map((v, i) => header(v, { left: `${i * px}px`, width: `${px}px` }, 'colhead')));
  rowInner.replaceChildren(...(state.y ? layout.ys.map((v, i) => header(v, { top: `${i * (px + CAPTION)}px`, height: `${px + CAPTION}px` }, 'rowhead')) : []));
  el('corner').textContent = state.y ? `${state.y} \\ ${state.x}` : state.x ?? '';
  el('corner').title = el('corner').textContent ?? '';
}

function queueDraw(): void {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    draw();
  });
}

/** The job a cell shows now (the top of its stack). */
function topOf(id: string, indices: number[]): number {
  const at = Math.min(stackTop.get(id) ?? 0, indices.length - 1);
  return indices[at]!;
}

function draw(): void {
  if (!layout) return;
  const px = cellPx();
  const h = px + CAPTION;
  colInner.style.transform = `translateX(${-viewport.scrollLeft}px)`;
  rowInner.style.transform = `translateY(${-viewport.scrollTop}px)`;
  const x0 = Math.max(0, Math.floor(viewport.scrollLeft / px) - OVERSCAN);
  const x1 = Math.min(layout.xs.length - 1, Math.ceil((viewport.scrollLeft + viewport.clientWidth) / px) + OVERSCAN);
  const y0 = Math.max(0, Math.floor(viewport.scrollTop / h) - OVERSCAN);
  const y1 = Math.min(layout.ys.length - 1, Math.ceil((viewport.scrollTop + viewport.clientHeight) / h) + OVERSCAN);
  // The cells in view load their image at once; the ring around them (the overscan) only as it comes near.
  const inView = (xi: number, yi: number): boolean => xi * px < viewport.scrollLeft + viewport.clientWidth && (xi + 1) * px > viewport.scrollLeft && yi * h < viewport.scrollTop + viewport.clientHeight && (yi + 1) * h > viewport.scrollTop;
  const next = new Map<string, { sig: string; div: HTMLDivElement }>();
  for (let yi = y0; yi <= y1; yi++) {
    for (let xi = x0; xi <= x1; xi++) {
      const id = `${xi},${yi}`;
      const indices = layout.cells.get(id);
      if (!indices) continue;
      const top = jobs.get(topOf(id, indices))!;
      const sig = `${JSON.stringify(top)}|${indices.length}|${selected.includes(top.index)}|${px}`;
      const old = drawn.get(id);
      if (old && old.sig === sig) {
        next.set(id, old);
        drawn.delete(id);
        continue;
      }
      const div = drawCell(id, top, indices, px, { eager: inView(xi, yi), selected: selected.includes(top.index) });
      div.style.transform = `translate(${xi * px}px, ${yi * h}px)`;
      if (old) old.div.replaceWith(div);
      else cellsEl.append(div);
      drawn.delete(id);
      next.set(id, { sig, div });
    }
  }
  for (const d of drawn.values()) d.div.remove();
  drawn = next;
  // When the first cells were drawn, on the page's clock: how long the grid took to open (npm run bench: grid.open900).
  if (next.size > 0 && perf.firstDraw === undefined) {
    perf.firstDraw = Math.round(performance.now());
    // The same moment on the wall clock, which the extension host shares: a test times the whole opening with it.
    perf.firstDrawAt = Math.round(performance.timeOrigin + performance.now());
    // The images of the first screen: those of the cells in view (not the overscan's).
    const view = viewport.getBoundingClientRect();
    markFirstPaint([...cellsEl.querySelectorAll('img')].filter((img) => {
      const r = img.getBoundingClientRect();
      return r.right > view.left && r.left < view.right && r.bottom > view.top && r.top < view.bottom;
    }));
    showPerf();
  }
}

function fillSelects(): void {
  const option = (value: string, label: string): HTMLOptionElement => {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    return o;
  };
  const names = keys.map((k) => option(k.key, `${k.key} (${k.values.length})`));
  selects.x.replaceChildren(...names.map((o) => o.cloneNode(true) as HTMLOptionElement));
  selects.y.replaceChildren(option('', '(none)'), ...names.map((o) => o.cloneNode(true) as HTMLOptionElement));
  selects.z.replaceChildren(option('', '(none)'), ...names.map((o) => o.cloneNode(true) as HTMLOptionElement));
  // By default the first key varies slowest (rows) and the second across (columns): the grid reads like the file.
  const axes = chooseAxes(keys, state);
  state.x = axes.x;
  state.y = axes.y;
  state.z = axes.z;
  selects.x.value = state.x ?? '';
  selects.y.value = state.y ?? '';
  selects.z.value = state.z ?? '';
  selects.size.value = state.size;
}

function showNotice(words: string | undefined): void {
  notice.hidden = !words;
  notice.textContent = words ?? '';
}

/** A grid message from the host (validated with the Batch panel's message, which holds it). */
export function onGridMessage(m: HostMessage): void {
  if (m.type === 'notice') return showNotice(m.text);
  if (m.type === 'grid') {
    perf.message ??= Math.round(performance.now());
    section.dataset.title = m.title;
    keys = m.keys;
    jobs.clear();
    for (const j of m.jobs) jobs.set(j.index, j);
    section.classList.toggle('empty', keys.length === 0);
    showNotice(keys.length === 0 ? `No key varies across this batch's ${jobs.size} inputs: there is nothing to lay out as a grid (the Batch panel lists them).` : undefined);
    fillSelects();
    relayout();
    // Kept at once (not only when the user changes an axis): a reloaded window reopens this batch with these axes.
    saveState();
    return;
  }
  for (const j of m.jobs) jobs.set(j.index, j);
  // A job whose values changed moves to another cell; otherwise only the drawn cells' content changes.
  relayout(true);
}

for (const [name, select] of Object.entries(selects)) {
  select.addEventListener('change', () => {
    // Y or Z set to (none) is kept as '' (a choice), not undefined (no choice yet, which takes the default again).
    if (name === 'size') state.size = GridPageState.shape.size.parse(select.value);
    else {
      // A key already on another axis swaps with this one's (never one key on two axes).
      const picked = pickAxis(keys, state, name as 'x' | 'y' | 'z', select.value);
      state = { ...state, x: picked.x || undefined, y: picked.y, z: picked.z, ...(picked.z !== state.z ? { page: 0 } : {}) };
      selects.x.value = state.x ?? '';
      selects.y.value = state.y ?? '';
      selects.z.value = state.z ?? '';
    }
    saveState();
    relayout();
  });
}

function turnPage(step: number): void {
  state.page = (state.page + step + zValues().length) % zValues().length;
  saveState();
  relayout();
}
el('zprev').addEventListener('click', () => turnPage(-1));
el('znext').addEventListener('click', () => turnPage(1));

cellsEl.addEventListener('click', (event) => {
  const target = event.target as HTMLElement;
  const stack = target.closest<HTMLElement>('[data-stack]')?.dataset.stack;
  if (stack && layout) {
    const n = layout.cells.get(stack)?.length ?? 1;
    stackTop.set(stack, ((stackTop.get(stack) ?? 0) + 1) % n);
    queueDraw();
    return;
  }
  if (target instanceof HTMLMediaElement) return;
  const index = Number(target.closest<HTMLElement>('.cell')?.dataset.index ?? NaN);
  if (!Number.isInteger(index)) return;
  if (event.ctrlKey || event.metaKey) {
    const at = selected.indexOf(index);
    if (at >= 0) selected.splice(at, 1);
    else selected.push(index);
    while (selected.length > 2) selected.shift();
    const compare = el<HTMLButtonElement>('gridcompare');
    compare.disabled = selected.length !== 2;
    // Says which two, as the rows' Compare does (it kept saying "Ctrl/Cmd-click two cells" with two picked).
    compare.title = selected.length === 2 ? `Compare job ${selected[0]! + 1} with job ${selected[1]! + 1}` : 'Ctrl/Cmd-click two cells to compare their jobs';
    queueDraw();
    return;
  }
  send({ type: 'open', index });
});

cellsEl.addEventListener('keydown', (event) => {
  const cell = (event.target as HTMLElement).closest<HTMLElement>('.cell');
  if (event.key !== 'Enter' || !cell?.dataset.index) return;
  send({ type: 'open', index: Number(cell.dataset.index) });
  event.preventDefault();
});

el('gridcompare').addEventListener('click', () => {
  if (selected.length === 2) send({ type: 'compare', a: selected[0]!, b: selected[1]! });
});

function axes(): { x: string; y?: string; z?: string; zValue?: string | null } {
  const zs = zValues();
  return { x: state.x!, ...(state.y ? { y: state.y } : {}), ...(state.z ? { z: state.z, zValue: zs[state.page] ?? null } : {}) };
}

el('exportHtml').addEventListener('click', () => {
  if (state.x) send({ type: 'exportHtml', ...axes(), size: state.size });
});

el('exportPng').addEventListener('click', () => {
  if (!layout || !state.x) return;
  const lay = layout;
  const shown = (i: number): GridJobView => jobs.get(i)!;
  void drawGridPng({ layout: lay, jobs: shown, px: cellPx(), x: state.x, y: state.y || undefined, rowHead: ROW_HEAD, caption: CAPTION, maxSide: MAX_PNG_SIDE }).then(
    (png) => {
      if (typeof png === 'string') return showNotice(png);
      showNotice(undefined);
      send({ type: 'exportPng', ...axes(), png });
    },
    (e: unknown) => showNotice(`The picture could not be drawn: ${e instanceof Error ? e.message : String(e)}`),
  );
});

viewport.addEventListener('scroll', () => {
  queueDraw();
  watchFrames();
});

window.addEventListener('resize', () => {
  if (!section.hidden) queueDraw();
});

/** The Batch panel's page hands the grid its channel and state once, as it loads. */
export function mountGrid(pageIo: GridPageIo): void {
  io = pageIo;
  const parsed = GridPageState.safeParse(pageIo.load() ?? {});
  state = parsed.success ? parsed.data : GridPageState.parse({});
  // Home / End, Page Up / Down and the arrows scroll the grid while it is shown.
  bindScrollKeys(viewport, () => ({ x: cellPx(), y: cellPx() + CAPTION }), () => !section.hidden);
  observeFrames();
}

/**
 * The grid shown (the page's Rows | Grid switch, or the host's Show Batch as Grid). The first time, the page's saved
 * axes and how many cells fit its window go to the host, which sends those cells' jobs first.
 */
export function showGrid(at = Date.now()): void {
  section.hidden = false;
  perf.shownAt ??= Math.round(at);
  showPerf();
  if (started) {
    queueDraw();
    return;
  }
  started = true;
  const px = cellPx();
  const fit = (room: number, cell: number): number => Math.min(1000, Math.max(1, Math.ceil(room / cell) + OVERSCAN));
  send({ type: 'ready', view: { ...(state.x ? { x: state.x } : {}), ...(state.y !== undefined ? { y: state.y } : {}), ...(state.z !== undefined ? { z: state.z } : {}), page: state.page, cols: fit(viewport.clientWidth || window.innerWidth, px), rows: fit(viewport.clientHeight || window.innerHeight, px + CAPTION) } });
}

export function hideGrid(): void {
  section.hidden = true;
}

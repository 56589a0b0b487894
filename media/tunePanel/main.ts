// The Tune Endpoint page: the header (whose traffic, which window, where the money went, flags), a table of the
// current settings and candidates (cost split, p50/p95/max wait, cold starts, peak workers), and a chart of cost
// against p95 wait (SVG built with DOM calls). The cheapest row within the user's p95 limit is marked. Text from
// the host is set with textContent only; every message is validated with the shared zod schemas.
import { formatUsd, formatUsdGroup } from '../../src/core/billing/usd';
import { FromWebview, ToWebview, TuneState, WINDOWS, type TuneRow } from '../../src/tune/protocol';
import { vscode } from '../../src/webview/vscodeApi';

const SVG = 'http://www.w3.org/2000/svg';
const root = document.getElementById('root') as HTMLElement;
let state: TuneState = (() => { const p = TuneState.safeParse(vscode.getState()); return p.success ? p.data : {}; })();

function send(m: FromWebview): void {
  vscode.postMessage(FromWebview.parse(m));
}
function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
// Money as every view writes it (issue 32: one formatter); a row's cost and its parts share one precision.
const usd = formatUsd;
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const header = el('header');
const controls = el('div', undefined, 'controls');
const progress = el('p', '', 'progress');
const notice = el('p', '', 'notice');
const synthetic = el('form', undefined, 'synthetic');
const replayOf = el('p', '', 'replay-of');
const table = el('table');
const chart = document.createElementNS(SVG, 'svg');
chart.setAttribute('class', 'chart');
chart.setAttribute('viewBox', '0 0 600 260');
chart.setAttribute('preserveAspectRatio', 'xMinYMin meet');
chart.setAttribute('role', 'img');
chart.setAttribute('aria-label', 'Cost against p95 wait, one point per setting (a replay)');
root.append(header, controls, progress, notice, synthetic, replayOf, chart, table);

// Window and p95 limit.
const windowSel = el('select');
for (const w of WINDOWS) windowSel.append(Object.assign(el('option', w), { value: w }));
windowSel.addEventListener('change', () => send({ type: 'window', window: windowSel.value as (typeof WINDOWS)[number] }));
const limit = Object.assign(el('input'), { type: 'number', min: '0', step: '1', value: String(state.p95LimitS ?? 60) });
limit.setAttribute('aria-label', 'p95 wait limit in seconds');
limit.addEventListener('input', () => { state = { ...state, p95LimitS: Number(limit.value) || 0 }; vscode.setState(state); redraw(); });
const cancel = el('button', 'Cancel replay');
cancel.addEventListener('click', () => send({ type: 'cancel' }));
controls.append(el('label', 'Window '), windowSel, el('label', ' p95 wait limit (s) '), limit, cancel);

// The synthetic burst, when there is no history.
synthetic.hidden = true;
const field = (label: string, value: string): HTMLInputElement => {
  const input = Object.assign(el('input'), { type: 'number', min: '0', value });
  input.setAttribute('aria-label', label);
  synthetic.append(el('label', ` ${label} `), input);
  return input;
};
const nJobs = field('jobs', '100');
const rate = field('a minute', '30');
const exec = field('seconds each', '5');
synthetic.append(el('button', 'Replay this burst'));
synthetic.addEventListener('submit', (e) => {
  e.preventDefault();
  const m = { type: 'synthetic' as const, jobs: Math.round(Number(nJobs.value)), perMinute: Number(rate.value), executionSeconds: Number(exec.value) };
  const ok = FromWebview.safeParse(m);
  if (!ok.success) { notice.textContent = `Check the burst: ${ok.error.issues[0]?.path.join('.')}: ${ok.error.issues[0]?.message}`; return; }
  send(m);
});

let rows: TuneRow[] = [];
let rowsNote = '';

function cheapest(): number | undefined {
  const lim = (Number(limit.value) || 0) * 1000;
  let best: number | undefined;
  rows.forEach((r, i) => { if (r.waitP95Ms <= lim && (best === undefined || r.costUsd < rows[best]!.costUsd)) best = i; });
  return best;
}

function redraw(): void {
  const best = cheapest();
  replayOf.textContent = rows.length ? `${rowsNote}. Every figure below is this replay's.` : '';
  table.replaceChildren();
  if (rows.length) {
    const head = el('tr');
    for (const h of ['settings', 'cost', 'start', 'execution', 'idle', 'p50 wait', 'p95 wait', 'max wait', 'cold starts', 'peak workers', '']) head.append(el('th', h));
    table.append(head);
    rows.forEach((r, i) => {
      const tr = el('tr', undefined, [r.current ? 'current' : '', i === best ? 'best' : ''].join(' ').trim());
      const label = r.current ? 'current settings' : r.label;
      const money = formatUsdGroup(r.costUsd, [r.startUsd, r.executionUsd, r.idleUsd]);
      const cells = [label + (i === best ? ' (cheapest within the limit)' : ''), money.total, ...money.parts, secs(r.waitP50Ms), secs(r.waitP95Ms), secs(r.waitMaxMs), String(r.coldStarts), String(r.peakWorkers)];
      for (const c of cells) tr.append(el('td', c));
      const td = el('td');
      if (!r.current) {
        const b = el('button', 'Apply…');
        b.addEventListener('click', () => send({ type: 'apply', row: i }));
        td.append(b);
      }
      tr.append(td);
      table.append(tr);
    });
  }
  drawChart(best);
  send({ type: 'drawn', rows: rows.length, ...(best !== undefined ? { marked: best } : {}), p95LimitMs: (Number(limit.value) || 0) * 1000 });
}

function drawChart(best: number | undefined): void {
  chart.replaceChildren();
  if (!rows.length) return;
  const maxCost = Math.max(...rows.map((r) => r.costUsd)) || 1;
  const maxWait = Math.max(...rows.map((r) => r.waitP95Ms)) || 1;
  const x = (w: number): number => 50 + (w / maxWait) * 530;
  const y = (c: number): number => 230 - (c / maxCost) * 210;
  const line = (x1: number, y1: number, x2: number, y2: number): void => {
    const l = document.createElementNS(SVG, 'line');
    for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) l.setAttribute(k, String(v));
    l.setAttribute('class', 'axis');
    chart.append(l);
  };
  const text = (s: string, tx: number, ty: number, cls = 'label'): void => {
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('x', String(tx));
    t.setAttribute('y', String(ty));
    t.setAttribute('class', cls);
    t.textContent = s;
    chart.append(t);
  };
  line(50, 230, 590, 230);
  line(50, 230, 50, 10);
  text(`p95 wait (replay), up to ${secs(maxWait)}`, 300, 255);
  text(`cost, up to ${usd(maxCost)}`, 55, 12);
  text('● current', 420, 24, 'label legend-current');
  text('● cheapest within the limit', 420, 40, 'label legend-best');
  rows.forEach((r, i) => {
    const c = document.createElementNS(SVG, 'circle');
    c.setAttribute('cx', String(x(r.waitP95Ms)));
    c.setAttribute('cy', String(y(r.costUsd)));
    c.setAttribute('r', r.current || i === best ? '6' : '4');
    c.setAttribute('class', r.current ? 'point current' : i === best ? 'point best' : 'point');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${r.current ? 'current settings' : r.label}: ${usd(r.costUsd)}, p95 ${secs(r.waitP95Ms)} (replay)`;
    c.append(title);
    chart.append(c);
  });
}

function onHost(m: ToWebview): void {
  switch (m.type) {
    case 'header': {
      state = { ...state, header: m };
      windowSel.value = m.window;
      header.replaceChildren(el('h1', `Tune ${m.endpoint}`), el('p', m.replayOf), el('p', `Price: ${m.price}`, 'price'));
      if (m.money) header.append(el('p', m.money, 'money'));
      for (const f of m.flags) header.append(el('p', `⚠ ${f}`, 'flag'));
      synthetic.hidden = true;
      notice.textContent = '';
      break;
    }
    case 'progress':
      progress.textContent = `Replaying: ${Math.round((100 * m.done) / Math.max(1, m.total))}% (${m.done} of ${m.total} job runs)`;
      cancel.hidden = m.done >= m.total;
      break;
    case 'rows':
      state = { ...state, rows: m };
      rows = m.rows;
      rowsNote = m.replayOf;
      progress.textContent = '';
      cancel.hidden = true;
      redraw();
      break;
    case 'noHistory':
      notice.textContent = m.message;
      synthetic.hidden = false;
      rows = [];
      redraw();
      break;
    case 'notice':
      notice.textContent = m.message;
      progress.textContent = '';
      break;
  }
  vscode.setState(state);
}

window.addEventListener('message', (e: MessageEvent) => {
  const p = ToWebview.safeParse(e.data);
  if (!p.success) { send({ type: 'error', message: `invalid message: ${p.error.issues[0]?.message ?? ''}` }); return; }
  onHost(p.data);
});
cancel.hidden = true;
if (state.header) onHost(state.header);
if (state.rows) onHost(state.rows);
send({ type: 'ready' });

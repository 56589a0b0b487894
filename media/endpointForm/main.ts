// The Edit Endpoint form: the five settings, GPU pools and count, flashboot and the image, each with its range
// beside it; below, the change as a diff with its money, and Apply. Values go to the host as typed (it answers
// with the diff, the money and each field's error: one definition of the words); text from the host is set with
// textContent only. State survives hiding through getState/setState.
import { formatUsd } from '../../src/core/billing/usd';
import { FromWebview, ToWebview, type FormValuesMessage, type Preview } from '../../src/endpointForms/protocol';
import { vscode } from '../../src/webview/vscodeApi';

type Init = Extract<ToWebview, { type: 'init' }>;

const root = document.getElementById('root') as HTMLElement;
let init: Init | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

function send(m: FromWebview): void {
  vscode.postMessage(FromWebview.parse(m));
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const NUMBER_FIELDS: Array<[keyof FormValuesMessage, string, string]> = [
  ['workersMin', 'Workers min', '1'],
  ['workersMax', 'Workers max', '1'],
  ['idleTimeout', 'Idle timeout (s)', '1'],
  ['scalerValue', 'Scaler value', 'any'],
  ['timeoutSeconds', 'Execution timeout (s)', '1'],
  ['gpuCount', 'GPUs per worker', '1'],
];

function input(name: string): HTMLInputElement | HTMLSelectElement {
  return root.querySelector(`[name="${name}"]`) as HTMLInputElement | HTMLSelectElement;
}

function read(): FormValuesMessage {
  const n = (name: string): number | null => {
    const raw = input(name).value.trim();
    const v = Number(raw);
    return raw === '' || !Number.isFinite(v) ? null : v;
  };
  const pools = [...root.querySelectorAll<HTMLInputElement>('input[name="pool"]')].filter((c) => c.checked).map((c) => c.value);
  return {
    workersMin: n('workersMin'), workersMax: n('workersMax'), idleTimeout: n('idleTimeout'), scalerType: input('scalerType').value,
    scalerValue: n('scalerValue'), timeoutSeconds: n('timeoutSeconds'), gpuPools: pools, gpuCount: n('gpuCount'),
    flashboot: input('flashboot').value, image: input('image').value,
  };
}

function row(name: string, label: string, control: HTMLElement): HTMLElement {
  const r = el('div', { class: 'field', 'data-field': name });
  const l = el('label', { for: `f-${name}` }, label);
  control.id = `f-${name}`;
  r.append(l, control, el('span', { class: 'range', 'data-range': name }), el('span', { class: 'error', 'data-error': name }));
  return r;
}

function select(name: string, options: string[], value: string): HTMLSelectElement {
  const s = el('select', { name });
  for (const o of options) s.append(el('option', { value: o }, o));
  s.value = value;
  return s;
}

function render(m: Init): void {
  root.replaceChildren();
  root.append(el('h1', {}, `Edit ${m.name}`), el('p', { class: 'subtitle' }, m.endpointId));
  if (m.notice) root.append(el('p', { class: 'notice', id: 'notice' }, m.notice));
  const form = el('form', { id: 'form' });
  for (const [name, label, step] of NUMBER_FIELDS) {
    const v = m.values[name];
    const i = el('input', { name, type: 'number', step, value: v === null ? '' : String(v) });
    form.append(row(name, label, i));
    if (name === 'idleTimeout') form.append(row('scalerType', 'Scaler type', select('scalerType', ['QUEUE_DELAY', 'REQUEST_COUNT'], m.values.scalerType)));
  }
  form.append(row('flashboot', 'Flashboot', select('flashboot', ['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT'], m.values.flashboot)));
  form.append(row('image', 'Image', el('input', { name: 'image', type: 'text', value: m.values.image })));
  const pools = el('fieldset', { id: 'pools', 'data-field': 'gpuPools' });
  pools.append(el('legend', {}, 'GPU pools (price per GPU per hour)'));
  for (const p of m.pools) {
    const id = `pool-${p.pool}`;
    const box = el('input', { type: 'checkbox', name: 'pool', value: p.pool, id });
    box.checked = m.values.gpuPools.includes(p.pool);
    const label = el('label', { for: id, title: p.gpus }, `${p.pool} · ${p.perHour === null ? 'no price' : `${formatUsd(p.perHour)}/h`}`);
    pools.append(el('div', { class: 'pool' }), box, label, el('br'));
  }
  pools.append(el('span', { class: 'range', 'data-range': 'gpuPools' }), el('span', { class: 'error', 'data-error': 'gpuPools' }));
  form.append(pools);
  root.append(form);
  const change = el('section', { id: 'change' });
  change.append(el('h2', {}, 'Change'), el('ul', { id: 'diff' }), el('h2', {}, 'Money'), el('ul', { id: 'money' }));
  root.append(change);
  const apply = el('button', { id: 'apply', type: 'button' }, 'Apply…');
  apply.addEventListener('click', () => send({ type: 'apply', values: read() }));
  const reload = el('button', { id: 'reload', type: 'button', class: 'secondary' }, 'Reload');
  reload.addEventListener('click', () => send({ type: 'reload' }));
  root.append(el('div', { class: 'buttons' }), apply, reload, el('p', { id: 'result', role: 'status' }), el('ul', { id: 'result-errors' }));
  form.addEventListener('input', () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => send({ type: 'values', values: read() }), 150);
  });
  form.addEventListener('change', () => send({ type: 'values', values: read() }));
  showPreview(m.preview);
}

function list(id: string, lines: string[], empty: string): void {
  const ul = document.getElementById(id) as HTMLElement;
  ul.replaceChildren(...(lines.length ? lines : [empty]).map((l) => el('li', {}, l)));
}

function showPreview(p: Preview): void {
  for (const r of p.ranges) {
    const span = root.querySelector(`[data-range="${r.name}"]`);
    if (span) span.textContent = r.range;
  }
  for (const span of root.querySelectorAll<HTMLElement>('[data-error]')) {
    const name = span.dataset['error'] ?? '';
    span.textContent = p.errors[name] ?? '';
    span.closest('[data-field]')?.classList.toggle('invalid', Boolean(p.errors[name]));
  }
  const idle = input('idleTimeout') as HTMLInputElement | null;
  if (idle) idle.disabled = input('scalerType').value === 'REQUEST_COUNT';
  list('diff', p.diff, Object.keys(p.errors).length ? 'Fix the fields marked first.' : 'No change yet.');
  list('money', p.raisesAlwaysOn ? [...p.money, 'Raises always-on spend: you will be asked before it is sent.'] : p.money, '');
  (document.getElementById('apply') as HTMLButtonElement).disabled = Object.keys(p.errors).length > 0 || p.diff.length === 0;
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = ToWebview.safeParse(event.data);
  if (!parsed.success) return;
  const m = parsed.data;
  switch (m.type) {
    case 'init':
      init = m;
      vscode.setState(m);
      render(m);
      break;
    case 'preview':
      if (init) showPreview(m.preview);
      break;
    case 'busy':
      for (const b of root.querySelectorAll('button')) (b as HTMLButtonElement).disabled = m.busy;
      break;
    case 'result': {
      const p = document.getElementById('result');
      if (p) {
        p.textContent = m.message;
        p.className = m.ok ? 'ok' : 'failed';
      }
      list('result-errors', m.errors, '');
      break;
    }
  }
});

const saved = ToWebview.safeParse(vscode.getState());
if (saved.success && saved.data.type === 'init') {
  init = saved.data;
  render(saved.data);
}
send({ type: 'ready' });

// The compare panel's page (issue 31): two jobs' inputs as the keys that differ, their status lines and costs, and
// their outputs side by side; two images of one size also as a slider and an opacity flip. Everything from the host
// is set with textContent or as an element's src (webview URIs of saved files), never as markup.
import { HostMessage, WebviewMessage, type CompareSideView } from '../../src/compare/compareProtocol';
import { vscode } from '../../src/webview/vscodeApi';

const el = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function send(m: WebviewMessage): void {
  vscode.postMessage(WebviewMessage.parse(m));
}

function put(parent: HTMLElement, tag: string, text: string, cls?: string): HTMLElement {
  const e = document.createElement(tag);
  e.textContent = text;
  if (cls) e.className = cls;
  parent.append(e);
  return e;
}

function side(id: 'a' | 'b', s: CompareSideView): void {
  const root = el(`side-${id}`);
  root.querySelector('.title')!.textContent = s.title;
  root.querySelector('.status')!.textContent = s.status;
  const cost = root.querySelector<HTMLElement>('.cost')!;
  cost.textContent = s.cost ? `Cost: ${s.cost}` : 'Cost: unknown';
  cost.title = s.costHow;
  const out = el(`out-${id}`);
  for (const m of s.media) {
    const media = document.createElement(m.kind === 'image' ? 'img' : m.kind);
    media.setAttribute('src', m.uri);
    if (media instanceof HTMLMediaElement) media.controls = true;
    out.append(media);
  }
  if (s.missing) put(out, 'div', s.missing === 1 ? 'output file missing' : `${s.missing} output files missing`, 'missing');
  if (s.error) put(out, 'pre', s.error, 'error');
  if (s.text !== undefined && s.media.length === 0) put(out, 'pre', s.text, 'text');
  if (!s.media.length && !s.missing && !s.error && s.text === undefined) put(out, 'div', 'No saved output.', 'none');
}

/** Two images of one size: offer the slider and the opacity flip over one stage. */
async function overlay(a: string, b: string): Promise<void> {
  const size = (uri: string): Promise<[number, number]> =>
    new Promise((resolve) => {
      const i = new Image();
      i.onload = () => resolve([i.naturalWidth, i.naturalHeight]);
      i.onerror = () => resolve([0, 0]);
      i.src = uri;
    });
  const [sa, sb] = await Promise.all([size(a), size(b)]);
  if (!sa[0] || sa[0] !== sb[0] || sa[1] !== sb[1]) return;
  el<HTMLImageElement>('under').src = a;
  el<HTMLImageElement>('over').src = b;
  el('overlay').hidden = false;
  const slider = el<HTMLInputElement>('slider');
  const over = el<HTMLImageElement>('over');
  const apply = (mode: string): void => {
    el('stage').hidden = mode === 'side';
    el('outputs').hidden = mode !== 'side';
    slider.hidden = mode !== 'slider';
    el('flip').hidden = mode !== 'opacity';
    over.style.opacity = '1';
    over.style.clipPath = mode === 'slider' ? `inset(0 0 0 ${slider.value}%)` : 'none';
  };
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name=mode]')) r.addEventListener('change', () => apply(r.value));
  slider.addEventListener('input', () => (over.style.clipPath = `inset(0 0 0 ${slider.value}%)`));
  el('flip').addEventListener('click', () => (over.style.opacity = over.style.opacity === '0' ? '1' : '0'));
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = HostMessage.safeParse(event.data);
  if (!parsed.success) return;
  const m = parsed.data;
  side('a', m.a);
  side('b', m.b);
  const body = el('changes').querySelector('tbody')!;
  body.replaceChildren();
  for (const c of m.changes) {
    const tr = document.createElement('tr');
    put(tr, 'td', c.key, 'key');
    put(tr, 'td', c.old ?? '(absent)', 'old');
    put(tr, 'td', c.new ?? '(absent)', 'new');
    body.append(tr);
  }
  el('changes').hidden = m.changes.length === 0;
  el('same').hidden = m.changes.length > 0;
  if (m.textDiff) {
    const pre = el('textdiff');
    pre.hidden = false;
    pre.replaceChildren();
    for (const line of m.textDiff) put(pre, 'div', `${line.op} ${line.text}`, line.op === '+' ? 'add' : line.op === '-' ? 'del' : 'same');
  }
  const a = m.a.media.find((x) => x.kind === 'image');
  const b = m.b.media.find((x) => x.kind === 'image');
  if (a && b) void overlay(a.uri, b.uri);
});

document.addEventListener('click', (event) => {
  const sideName = (event.target as HTMLElement).closest<HTMLElement>('[data-side]')?.dataset.side;
  if (sideName === 'a' || sideName === 'b') send({ type: 'open', side: sideName });
});

send({ type: 'ready' });

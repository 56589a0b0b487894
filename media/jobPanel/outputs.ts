// The outputs part of the job panel's page: images in a grid, video and audio players, a model's text, a
// transcript with its segment times, notices about the output as a whole, JSON and refusals. Everything from a
// worker is set with textContent; media only from local sources the page script hands in (ctx.source).
import type { PanelOutput, WebviewMessage } from '../../src/jobPanel/protocol';
import { formatSeconds } from '../../src/core/outputs/transcript';
import { button, el, isLocalResource } from './dom';

export type SavedMedia = Extract<PanelOutput, { kind: 'image' | 'video' | 'audio' }>;

export interface OutputsContext {
  send(message: WebviewMessage): void;
  /** Where a saved output is shown from now (a blob: URL or a local resource), or undefined while it loads. */
  source(o: SavedMedia): string | undefined;
}

export function renderOutputs(outputs: PanelOutput[], ctx: OutputsContext): HTMLElement {
  const section = el('section', 'outputs');
  section.append(el('h2', undefined, 'Outputs'));
  const gallery = el('div', 'gallery');
  for (const o of outputs) {
    switch (o.kind) {
      case 'image': {
        const fig = el('figure', 'image');
        const source = ctx.source(o);
        if (source) {
          const open = el('button', 'image-open');
          open.type = 'button';
          open.title = 'Open in the image preview';
          const img = el('img');
          img.setAttribute('src', source);
          img.alt = `Output image ${o.index + 1}${o.seed !== undefined ? `, seed ${o.seed}` : ''}`;
          img.dataset['index'] = String(o.index);
          // Drawn: the real-editor tests wait for this before they close a panel (a load cut short by a closing
          // panel stalls code-server's webview service worker for 30 s, see PanelOutput's sentAsBytes).
          img.addEventListener('load', () => (img.dataset['loaded'] = 'true'));
          img.addEventListener('error', () => fig.prepend(el('p', 'note', 'The image could not be shown here; it is saved in the outputs folder.')), { once: true });
          open.append(img);
          open.addEventListener('click', () => ctx.send({ type: 'openOutput', index: o.index }));
          fig.append(open);
        } else if (isLocalResource(o.src)) {
          fig.append(el('p', 'note', 'Loading image…'));
        } else {
          fig.append(el('p', 'note', 'The image was not saved, so it is not shown.'));
        }
        const caption = el('figcaption');
        const facts = [o.width && o.height ? `${o.width}×${o.height}` : undefined, o.seed !== undefined ? `seed ${o.seed}` : undefined, o.fileName].filter(Boolean).join(' · ');
        caption.append(el('span', 'facts', facts));
        const bar = el('div', 'image-actions');
        bar.append(button('Save as…', () => ctx.send({ type: 'saveAs', index: o.index }), { secondary: true }));
        if (o.seed !== undefined) {
          const seed = o.seed;
          bar.append(
            button('Copy seed', () => ctx.send({ type: 'copySeed', seed }), { secondary: true }),
            button('Run again with this seed', () => ctx.send({ type: 'runWithSeed', seed }), { secondary: true, title: 'Writes the seed into a copy of the input file and runs it' }),
          );
        }
        caption.append(bar);
        fig.append(caption);
        gallery.append(fig);
        break;
      }
      case 'video':
      case 'audio': {
        const box = el('figure', `media ${o.kind}`);
        const source = ctx.source(o);
        if (source) {
          const player = el(o.kind);
          player.controls = true;
          player.preload = 'metadata';
          player.setAttribute('src', source);
          player.dataset['index'] = String(o.index);
          // Playable: the real-editor tests wait for this (the browser read the file's header and duration).
          player.addEventListener('loadedmetadata', () => (player.dataset['loaded'] = 'true'));
          player.addEventListener('error', () => box.prepend(el('p', 'note', `The ${o.kind} cannot be played here; it is saved in the outputs folder (Open externally plays it).`)), { once: true });
          box.append(player);
          const bar = el('div', 'image-actions');
          bar.append(
            button('Open externally', () => ctx.send({ type: 'openExternally', index: o.index }), { secondary: true, title: 'For formats the editor cannot play (AAC audio, for one)' }),
            button('Save as…', () => ctx.send({ type: 'saveAs', index: o.index }), { secondary: true }),
          );
          box.append(el('figcaption', undefined, o.fileName ?? o.kind), bar);
        } else if (isLocalResource(o.src)) {
          box.append(el('p', 'note', `Loading ${o.kind}…`));
        } else {
          box.append(el('p', 'note', o.note ?? `The ${o.kind} was not saved.`));
        }
        gallery.append(box);
        break;
      }
      case 'text': {
        // A model's answer as words, not JSON; saved beside job.json as output.txt.
        const box = el('figure', 'text');
        const text = el('div', 'llm-text', o.text);
        text.id = 'output-text';
        box.append(text);
        if (o.fileName) box.append(el('figcaption', undefined, `Saved as ${o.fileName}`));
        gallery.append(box);
        break;
      }
      case 'json': {
        const box = el('figure', 'json');
        box.append(el('pre', undefined, o.text));
        gallery.append(box);
        break;
      }
      case 'transcript':
        gallery.append(renderTranscript(o));
        break;
      case 'notice': {
        // Words about the output as a whole (an empty output, a result near the size limit): shown first.
        const box = el('figure', 'notice');
        box.setAttribute('role', 'status');
        const p = el('p', 'notice-text', o.text);
        p.id = `output-notice-${o.index}`;
        box.append(p);
        gallery.append(box);
        break;
      }
      case 'rejected': {
        const box = el('figure', 'rejected');
        box.append(el('p', 'note', o.reason));
        if (o.value) box.append(el('code', undefined, o.value));
        gallery.append(box);
        break;
      }
    }
  }
  section.append(gallery);
  return section;
}

type TranscriptOutput = Extract<PanelOutput, { kind: 'transcript' }>;

/** A transcript: its words, then each segment with its start and end time. */
function renderTranscript(o: TranscriptOutput): HTMLElement {
  const box = el('figure', 'transcript');
  const text = el('div', 'llm-text', o.text);
  text.id = 'transcript-text';
  box.append(text);
  if (o.segments.length) {
    const list = el('ol', 'segments');
    list.id = 'transcript-segments';
    for (const s of o.segments) {
      const item = el('li');
      item.append(el('span', 'segment-time', `${formatSeconds(s.start)} – ${formatSeconds(s.end)}`), el('span', 'segment-text', s.text));
      list.append(item);
    }
    box.append(list);
  }
  const facts = [o.language ? `Language: ${o.language}` : undefined, o.fileName ? `Saved as ${o.fileName}` : undefined].filter(Boolean).join(' · ');
  if (facts) box.append(el('figcaption', undefined, facts));
  return box;
}

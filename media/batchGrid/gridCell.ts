// A cell of the Batch panel's grid (gridPage.ts draws the cells in view with it). Text from the host (statuses,
// errors, a job's text) is set with textContent only; media load from the webview URIs of the saved files.
import type { GridJobView } from '../../src/batchGrid/gridProtocol';

/** Room under each picture for its status line. */
export const CAPTION = 22;

/**
 * One cell: the job's picture (or its player, its text, "output file missing"), its status line and, when several
 * jobs share its values, the button that shows the next. `eager`: in view, so its image loads at once.
 */
export function drawCell(id: string, job: GridJobView, indices: number[], px: number, how: { eager: boolean; selected: boolean }): HTMLDivElement {
  const div = document.createElement('div');
  div.className = `cell${job.failed ? ' failed' : ''}${job.done ? ' done' : ''}${how.selected ? ' selected' : ''}`;
  div.dataset.index = String(job.index);
  div.dataset.cell = id;
  // Reachable by Tab and opened by Enter, as by a click.
  div.tabIndex = 0;
  div.setAttribute('role', 'button');
  div.setAttribute('aria-label', `job ${job.index + 1}: ${job.missing ? 'output file missing' : job.status}`);
  div.style.width = `${px}px`;
  div.style.height = `${px + CAPTION}px`;
  const body = document.createElement('div');
  body.className = 'body';
  if (job.missing) body.append(text('output file missing', 'missing'));
  else if (job.media?.kind === 'image') {
    const img = document.createElement('img');
    img.loading = how.eager ? 'eager' : 'lazy';
    img.decoding = 'async';
    img.alt = `job ${job.index + 1}`;
    img.src = job.media.uri;
    // A file deleted since the host looked: said as the host would say it.
    img.addEventListener('error', () => img.replaceWith(text('output file missing', 'missing')), { once: true });
    body.append(img);
  } else if (job.media) {
    const media = document.createElement(job.media.kind);
    media.controls = true;
    media.preload = 'metadata';
    media.src = job.media.uri;
    body.append(media);
  } else if (job.text) body.append(text(job.text, 'note'));
  div.append(body);
  const caption = text(job.done && !job.missing ? '' : job.status, 'status');
  if (job.failed && job.text) caption.title = job.text;
  div.append(caption);
  if (indices.length > 1) {
    const stack = document.createElement('button');
    stack.className = 'stack';
    stack.dataset.stack = id;
    stack.textContent = `${indices.indexOf(job.index) + 1}/${indices.length}`;
    stack.title = `${indices.length} jobs have these values: click to show the next`;
    div.append(stack);
  }
  return div;
}

export function text(value: string, cls: string): HTMLDivElement {
  const d = document.createElement('div');
  d.className = cls;
  d.textContent = value;
  return d;
}

// The keys that move through the grid work from anywhere on the page, not only once the grid has the focus: Home /
// End reach its first and last cells (as the Batch panel's rows do), Page Up / Down and the arrows scroll it by a
// page or a cell.

type Move = (v: HTMLElement, cell: { x: number; y: number }) => [number, number] | 'home' | 'end';

const SCROLL_KEYS: Record<string, Move> = {
  Home: () => 'home',
  End: () => 'end',
  PageDown: (v) => [0, v.clientHeight],
  PageUp: (v) => [0, -v.clientHeight],
  ArrowDown: (_, c) => [0, c.y],
  ArrowUp: (_, c) => [0, -c.y],
  ArrowRight: (_, c) => [c.x, 0],
  ArrowLeft: (_, c) => [-c.x, 0],
};

/**
 * Scrolls `viewport` by the keys above; `cell` gives a cell's width and height (with its caption) now; `active`
 * says whether the grid is shown (the Batch panel's page shows its rows or its grid).
 */
export function bindScrollKeys(viewport: HTMLElement, cell: () => { x: number; y: number }, active: () => boolean): void {
  document.addEventListener('keydown', (event) => {
    const move = SCROLL_KEYS[event.key];
    if (!active()) return;
    const target = event.target as HTMLElement;
    // The viewport scrolls by itself; the toolbar's controls and the players keep their own keys.
    if (!move || target === viewport || target instanceof HTMLSelectElement || target instanceof HTMLButtonElement || target instanceof HTMLMediaElement) return;
    const by = move(viewport, cell());
    if (by === 'home' || by === 'end') viewport.scrollTo({ top: by === 'end' ? viewport.scrollHeight : 0, left: by === 'end' ? viewport.scrollWidth : 0 });
    else viewport.scrollBy(by[0], by[1]);
    event.preventDefault();
  });
}

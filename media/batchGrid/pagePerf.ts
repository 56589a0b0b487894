// What the grid's page measures of itself (issue 31's `grid.open900` and `grid.scrollFrameMax`), kept as JSON in the
// page's hidden #perf, where the real-editor tests and the bench read it.

/**
 * How long the browser took to start the frame; when the script ran, the grid's message came and the first cells
 * were drawn (ms from the page's own start; the last also as epoch ms, the clock the extension host shares); the
 * longest frame its PerformanceObserver reported (the browser reports only frames over 50 ms: 0 means none was);
 * the longest gap between two animation frames while scrolling.
 */
export const perf: {
  origin: number;
  frameWait: number;
  script: number;
  /** When the grid was asked for (epoch ms): the Grid button's click (its event's time), or the host's word. */
  shownAt?: number;
  message?: number;
  firstDraw?: number;
  firstDrawAt?: number;
  /** The first cells painted (epoch ms): the first animation frame after the one that drew them. */
  firstPaintAt?: number;
  /** Every image of the first screen loaded and decoded (epoch ms), and how many there were. */
  imagesAt?: number;
  images?: number;
  longestFrame: number;
  observed: string;
  scrollGapMax: number;
} = {
  // When the page's document began (epoch ms): what came before it is the editor making the webview's frame.
  origin: Math.round(performance.timeOrigin),
  // How long the browser took to have the frame's process and service worker ready before fetching the page (up to
  // ~1 s on a loaded machine once the editor's spare renderer is used up): the editor's cost for any webview.
  frameWait: Math.round((performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.fetchStart ?? 0),
  script: Math.round(performance.now()),
  longestFrame: 0,
  observed: 'none',
  scrollGapMax: 0,
};
/**
 * The first cells were put in the DOM in this animation frame: the frame is painted after its callbacks, so the
 * next frame's callback marks the paint (late by at most one frame, never early); then the images they show.
 */
export function markFirstPaint(images: readonly HTMLImageElement[]): void {
  requestAnimationFrame(() => {
    perf.firstPaintAt = Math.round(performance.timeOrigin + performance.now());
    showPerf();
  });
  perf.images = images.length;
  void Promise.all(images.map((img) => img.decode().catch(() => undefined))).then(() => {
    requestAnimationFrame(() => {
      perf.imagesAt = Math.round(performance.timeOrigin + performance.now());
      showPerf();
    });
  });
}

export const showPerf = (): void => void (document.getElementById('perf')!.textContent = JSON.stringify(perf));

/**
 * While the grid scrolls (and half a second after), the longest gap between two animation frames: a finer figure
 * than the observer's, which reports only frames over 50 ms.
 */
let watchUntil = 0;
export function watchFrames(): void {
  const watching = performance.now() < watchUntil;
  watchUntil = performance.now() + 500;
  if (watching) return;
  let last = performance.now();
  const tick = (now: number): void => {
    perf.scrollGapMax = Math.max(perf.scrollGapMax, Math.round(now - last));
    last = now;
    if (now < watchUntil) requestAnimationFrame(tick);
    else showPerf();
  };
  requestAnimationFrame(tick);
}

/** The page's longest frame, for `npm run bench` (grid.scrollFrameMax): the browser's own long-frame entries. */
export function observeFrames(): void {
  try {
    perf.observed = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame') ? 'long-animation-frame' : 'longtask';
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) perf.longestFrame = Math.max(perf.longestFrame, Math.round(e.duration));
      showPerf();
    }).observe({ type: perf.observed, buffered: true });
  } catch {
    // No observer: #perf says so (observed stays "none").
  }
  showPerf();
}

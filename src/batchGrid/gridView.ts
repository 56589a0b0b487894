// A batch's results as an X/Y(/Z) grid (issue 31), drawn in the Batch panel's page beside its rows (no panel of its
// own: an already-open webview pays no new frame, ~1 s in VS Code 1.100). The Batch panel makes one on the page's
// first grid message and hands it the grid's messages (tagged `grid` in its protocol). Fed from the batch's
// manifest as it grows (core ManifestFollower, through the core reader), so it works the same for a batch running
// in this window, one resumed, or one long finished. The page gets each job once as words and a webview URI of its
// saved file (the batch's folder is the panel's one extra resource root) and then only the jobs that changed; it
// draws the cells in view. The export's PNG is drawn by the page's canvas; the host adds the tEXt chunk and writes it.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { JobRow } from '../core/batch';
import { ManifestFollower } from '../core/grid/manifestFollower';
import { arrangeGrid, chooseAxes, cornerJobs, valuesOf, type GridKey } from '../core/grid/gridAxes';
import type { Logger } from '../core/log';
import { exportName, gridHtml, writeGridPng } from './gridExport';
import { gridRecipe, inputsOf, jobView, keysOf } from './gridJobs';
import { HostMessage, WebviewMessage, type GridJobView } from './gridProtocol';
/** How often the manifest is looked at while the grid lives (a stat; a read only when it grew). */
const POLL_MS = 300;
/** A grid of more jobs than this sends the first screen's jobs first, then the rest. */
const FIRST_SCREEN_MIN = 200;

type PageView = NonNullable<Extract<WebviewMessage, { type: 'ready' }>['view']>;

export interface GridActions {
  /** Opens the job's panel (the Batch panel's row click). */
  openJob(row: JobRow): void;
  /** Two cells side by side, with the inputs the grid read. */
  compare(a: JobRow, b: JobRow, inputs: ReadonlyMap<number, Record<string, unknown>>): void;
}

/** Where the grid's messages go: the Batch panel's channel, each wrapped as its `grid` message. */
export interface GridPage {
  webview: vscode.Webview;
  post(m: HostMessage): Promise<boolean>;
}

export class GridView implements vscode.Disposable {
  private readonly follower: ManifestFollower;
  private inputs = new Map<number, Record<string, unknown>>();
  keys: GridKey[] = [];
  /** The job views as last sent to the page, by index (tests read them). */
  readonly sent = new Map<number, GridJobView>();
  /** The last export written (tests read it). */
  lastExport: { file: string; width?: number; height?: number } | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private reading: Promise<void> = Promise.resolve();
  /** The first reading, begun as the grid is made. */
  private first: ReturnType<GridView['prepare']> | undefined;
  readonly dir: string;
  private disposed = false;
  /** When the grid was made, its page said ready and the grid was posted (epoch ms; the bench reads them). */
  readonly timings: { created: number; ready?: number; prepared?: number; posted?: number } = { created: Date.now() };

  constructor(private readonly page: GridPage, readonly manifestPath: string, private readonly actions: GridActions, private readonly logger: Logger) {
    this.dir = path.dirname(manifestPath);
    this.follower = new ManifestFollower(manifestPath);
    this.first = this.prepare();
    this.first.catch((e: unknown) => logger.warn(`grid: reading ${manifestPath} failed: ${String(e)}`));
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Reads the whole manifest and the batch's inputs and makes the job views: begun as the grid is made (by Show Batch
   * as Grid, with a new panel: the reading overlaps the page's loading), and awaited at the page's grid `ready`.
   */
  private async prepare(): Promise<{ title: string; jobs: GridJobView[] }> {
    const started = performance.now();
    await this.follower.read();
    this.inputs = await inputsOf(this.follower.header, this.follower.rows);
    this.keys = keysOf(this.follower.rows, this.inputs);
    const rows = [...this.follower.rows.values()].sort((a, b) => a.index - b.index);
    const jobs = await Promise.all(rows.map((r) => this.view(r, false)));
    this.sent.clear();
    for (const j of jobs) this.sent.set(j.index, j);
    const title = this.follower.header ? `${this.follower.header.batchId} on ${this.follower.header.endpointId}` : path.basename(this.dir);
    this.logger.info(`grid: ${jobs.length} jobs of ${this.manifestPath} read in ${(performance.now() - started).toFixed(0)} ms`);
    return { title, jobs };
  }

  /**
   * Sends the whole grid (the page is ready), then follows the file. A big grid goes in two messages: the jobs of
   * the cells the page shows first (`view`: its axes and how many cells fit), so it draws them at once, then the rest.
   */
  private async start(prepared = this.prepare(), view?: PageView): Promise<void> {
    const { title, jobs } = await prepared;
    // Closed while the manifest was read: nothing to send, and no timer may outlive the Batch panel.
    if (this.disposed) return;
    this.timings.prepared ??= Date.now();
    const [first, rest] = this.firstScreen(jobs, view);
    await this.page.post({ type: 'grid', title, keys: this.keys.map((k) => ({ key: k.key, fromSweep: k.fromSweep, values: k.values })), jobs: first });
    this.timings.posted ??= Date.now();
    if (rest.length && !this.disposed) await this.page.post({ type: 'jobs', jobs: rest });
    await this.checkFiles();
    if (this.disposed) return;
    this.timer ??= setInterval(() => {
      this.reading = this.reading.then(() => this.update()).catch((e: unknown) => this.logger.warn(`grid: reading ${this.manifestPath} failed: ${String(e)}`));
    }, POLL_MS);
  }

  /** The jobs of the page's first screen, and the others (all first when the grid is small or the page said nothing). */
  private firstScreen(jobs: GridJobView[], view: PageView | undefined): [GridJobView[], GridJobView[]] {
    if (!view || jobs.length <= FIRST_SCREEN_MIN) return [jobs, []];
    const axes = chooseAxes(this.keys, view);
    if (!axes.x) return [jobs, []];
    const zKey = this.keys.find((k) => k.key === axes.z);
    const z = zKey ? { key: zKey.key, value: zKey.values[Math.min(view.page, zKey.values.length - 1)] } : undefined;
    const values = (j: GridJobView): Record<string, string | undefined> => Object.fromEntries(this.keys.map((k, i) => [k.key, j.values[i] ?? undefined]));
    const layout = arrangeGrid(jobs.map((j) => ({ index: j.index, values: values(j) })), this.keys, axes.x, axes.y || undefined, z);
    const wanted = new Set(cornerJobs(layout, view.cols, view.rows));
    return [jobs.filter((j) => wanted.has(j.index)), jobs.filter((j) => !wanted.has(j.index))];
  }

  private async update(): Promise<void> {
    const before = this.follower.rows.size;
    const changed = await this.follower.read();
    if (changed.length === 0) return;
    // A job the grid did not know (a manifest still being started): the keys may change, so the whole grid again.
    if (this.follower.rows.size !== before) return this.start();
    const jobs = await Promise.all(changed.map((r) => this.view(r)));
    for (const j of jobs) this.sent.set(j.index, j);
    if (!this.disposed) await this.page.post({ type: 'jobs', jobs });
  }

  private view(row: JobRow, checkFile = true): Promise<GridJobView> {
    return jobView(row, this.inputs.get(row.index), this.keys, this.dir, (file) => this.page.webview.asWebviewUri(vscode.Uri.file(file)).toString(), checkFile);
  }

  /** After the first view: the jobs whose saved file is gone (deleted by the user) say "output file missing". */
  private async checkFiles(): Promise<void> {
    const rows = [...this.follower.rows.values()].filter((r) => r.outputs?.length);
    const gone: GridJobView[] = [];
    for (let i = 0; i < rows.length; i += 200) {
      for (const v of await Promise.all(rows.slice(i, i + 200).map((r) => this.view(r)))) {
        if (v.missing) gone.push(v);
      }
    }
    for (const v of gone) this.sent.set(v.index, v);
    if (gone.length && !this.disposed) await this.page.post({ type: 'jobs', jobs: gone });
  }

  /** A grid message of the page (already validated by the Batch panel's channel). */
  async onMessage(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready': {
        this.timings.ready ??= Date.now();
        // The first ready uses the reading begun with the grid; a reloaded page reads again.
        const first = this.first;
        this.first = undefined;
        this.reading = this.reading.then(() => this.start(first, m.view));
        return this.reading;
      }
      case 'open': {
        const row = this.follower.rows.get(m.index);
        if (row) this.actions.openJob(row);
        return;
      }
      case 'compare': {
        const a = this.follower.rows.get(m.a);
        const b = this.follower.rows.get(m.b);
        if (a && b) this.actions.compare(a, b, this.inputs);
        return;
      }
      case 'exportPng':
        return this.exportPng(m);
      case 'exportHtml':
        return this.exportHtml(m);
    }
  }

  private async exportPng(m: Extract<WebviewMessage, { type: 'exportPng' }>): Promise<void> {
    try {
      const recipe = gridRecipe(this.keys, this.follower.header, m);
      const written = await writeGridPng(this.dir, exportName(m.x, m.y, m.z, m.zValue, 'png'), m.png, recipe);
      this.lastExport = written;
      this.saved(written.file, `${written.width} x ${written.height} px`);
    } catch (e) {
      void vscode.window.showErrorMessage(`The grid could not be saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async exportHtml(m: Extract<WebviewMessage, { type: 'exportHtml' }>): Promise<void> {
    try {
      const jobs = [...this.follower.rows.values()].map((row) => ({ row, values: valuesOf({ index: row.index, sweep: row.ref.sweep, input: this.inputs.get(row.index) }) }));
      const title = this.follower.header ? `Batch ${this.follower.header.batchId} on ${this.follower.header.endpointId}` : path.basename(this.dir);
      const file = path.join(this.dir, exportName(m.x, m.y, m.z, undefined, 'html'));
      await writeFile(file, gridHtml({ title, dir: this.dir, keys: this.keys, jobs, x: m.x, y: m.y, z: m.z, size: m.size, recipe: gridRecipe(this.keys, this.follower.header, m) }), 'utf8');
      this.lastExport = { file };
      this.saved(file, 'HTML page beside the images');
    } catch (e) {
      void vscode.window.showErrorMessage(`The grid page could not be saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private saved(file: string, what: string): void {
    const uri = vscode.Uri.file(file);
    void vscode.window.showInformationMessage(`Saved ${vscode.workspace.asRelativePath(uri)} (${what}).`, 'Reveal').then((choice) => {
      if (choice === 'Reveal') void vscode.commands.executeCommand('revealFileInOS', uri);
    });
  }
}

// A batch's jobs as the grid shows them (gridProtocol.ts GridJobView), from the manifest's rows and the inputs the
// batch read: the values of the varying keys, the job life's status words, the saved file the cell shows (a webview
// URI of a file inside the batch's folder, never its bytes) and whether that file is still on disk.
import { access } from 'node:fs/promises';
import * as path from 'node:path';
import { loadBatchInputs, withoutProblems, type JobRow, type ManifestHeader } from '../core/batch';
import { cellMedia, cellStatus } from '../core/grid/gridCell';
import { valuesOf, varyingKeys, type GridKey, type GridSource } from '../core/grid/gridAxes';
import type { GridJobView } from './gridProtocol';

/** Each job's input as the batch read it, by index; undefined when the source can no longer be read. */
export async function inputsOf(header: ManifestHeader | undefined, rows: ReadonlyMap<number, JobRow>): Promise<Map<number, Record<string, unknown>>> {
  const out = new Map<number, Record<string, unknown>>();
  if (!header?.source) return out;
  try {
    const plan = await loadBatchInputs(header.source);
    const items = header.skippedProblems ? withoutProblems(plan) : plan.items;
    // An input edited since the batch began is not what the job ran: its sweep values are all the grid trusts.
    for (const item of items) if (rows.get(item.index)?.digest === item.digest) out.set(item.index, item.input);
  } catch {
    // The source moved or was deleted: the sweep values of the rows still place the jobs.
  }
  return out;
}

export function sourcesOf(rows: ReadonlyMap<number, JobRow>, inputs: ReadonlyMap<number, Record<string, unknown>>): GridSource[] {
  return [...rows.values()].sort((a, b) => a.index - b.index).map((r) => ({ index: r.index, sweep: r.ref.sweep, input: inputs.get(r.index) }));
}

export function keysOf(rows: ReadonlyMap<number, JobRow>, inputs: ReadonlyMap<number, Record<string, unknown>>): GridKey[] {
  return varyingKeys(sourcesOf(rows, inputs));
}

/** Whether a file exists (an output the user deleted shows "output file missing"). */
async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * The view of one row; `toUri` makes a webview URI of a file inside `dir`. `checkFile`: look whether its saved file
 * is still on disk (the first view of a big grid skips it, so the page gets the grid sooner; the check follows).
 */
export async function jobView(row: JobRow, input: Record<string, unknown> | undefined, keys: readonly GridKey[], dir: string, toUri: (file: string) => string, checkFile = true): Promise<GridJobView> {
  const values = valuesOf({ index: row.index, sweep: row.ref.sweep, input });
  const status = cellStatus(row);
  const media = cellMedia(row.outputs, dir, path.sep);
  const first = media?.file ?? row.outputs?.[0];
  const missing = checkFile && first !== undefined && !(await exists(first));
  const text = (row.error ?? row.firstLine ?? '').split('\n')[0]!.slice(0, 400);
  return {
    index: row.index,
    values: keys.map((k) => values[k.key] ?? null),
    status: status.text,
    done: status.done,
    failed: status.failed,
    ...(media && !missing ? { media: { kind: media.kind, uri: toUri(media.file) } } : {}),
    ...(missing ? { missing: true } : {}),
    ...(text ? { text } : {}),
    ...(row.jobId ? { jobId: row.jobId } : {}),
  };
}

/** What the PNG's tEXt chunk says of the grid: the sweep block (each key's values as its list gave them), the other varying keys, the axes. */
export function gridRecipe(keys: readonly GridKey[], header: ManifestHeader | undefined, axes: { x: string; y?: string | undefined; z?: string | undefined; zValue?: string | null | undefined }): Record<string, unknown> {
  const block = (fromSweep: boolean): Record<string, unknown[]> => Object.fromEntries(keys.filter((k) => k.fromSweep === fromSweep).map((k) => [k.key, k.values.map((v) => JSON.parse(v) as unknown)]));
  const sweep = block(true);
  const varying = block(false);
  return {
    ...(Object.keys(sweep).length ? { sweep } : {}),
    ...(Object.keys(varying).length ? { varying } : {}),
    x: axes.x,
    ...(axes.y ? { y: axes.y } : {}),
    ...(axes.z ? { z: axes.z, zValue: axes.zValue === null || axes.zValue === undefined ? null : JSON.parse(axes.zValue) } : {}),
    ...(header ? { batch: header.batchId, endpoint: header.endpointId } : {}),
  };
}

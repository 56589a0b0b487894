// Which keys a batch's grid may use as its axes (issue 31 "Axes"), and where each job goes once two (or three)
// are chosen. A key is a dotted path into the input, as the sweep block writes it (`sampling_params.max_tokens`);
// a sweep's keys come first, in the order the block lists them, then any other input field whose value differs
// between the jobs (a folder of files that differ in `seed`, a JSONL batch whose lines differ in `prompt`).
// Values are compared by their JSON text, so `1` and `"1"` are two values. Plain data, no `vscode` import: the
// grid's page bundles it too.

/** What is known of one job for the grid: the values its sweep set, and its whole input when it was read. */
export interface GridSource {
  index: number;
  sweep?: Record<string, unknown> | undefined;
  input?: Record<string, unknown> | undefined;
}

export interface GridKey {
  /** The dotted path. */
  key: string;
  fromSweep: boolean;
  /** Its distinct values as JSON text, in the order the axis shows them. */
  values: string[];
}

/** A job's value of each key, as JSON text (`undefined`: the job's input has no such field). */
export type GridValues = Record<string, string | undefined>;

/** Inputs whose fields are read into dotted paths at most this deep (a worker's nested options). */
const MAX_DEPTH = 4;
/** A field with more distinct values than this is no axis (an id, a free text per job in a huge batch is still one). */
export const MAX_AXIS_VALUES = 1000;

/** The leaves of `input` by dotted path (lists are one value: a list is what a sweep sets, not an axis each). */
export function flattenInput(input: Record<string, unknown>, prefix = '', depth = 0, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(input)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && depth < MAX_DEPTH) flattenInput(v as Record<string, unknown>, path, depth + 1, out);
    else out[path] = v;
  }
  return out;
}

/** Each job's values by key (sweep values win over the same path read from the input). */
export function valuesOf(source: GridSource): GridValues {
  const out: GridValues = {};
  if (source.input) for (const [k, v] of Object.entries(flattenInput(source.input))) out[k] = JSON.stringify(v);
  if (source.sweep) for (const [k, v] of Object.entries(source.sweep)) out[k] = JSON.stringify(v);
  return out;
}

/** The keys whose value differs between the jobs: the sweep's first (its order), then the others by name. */
export function varyingKeys(sources: readonly GridSource[]): GridKey[] {
  const sweepOrder: string[] = [];
  const seen = new Map<string, Set<string>>();
  const missing = new Set<string>();
  const all = sources.map(valuesOf);
  for (const s of sources) for (const k of Object.keys(s.sweep ?? {})) if (!sweepOrder.includes(k)) sweepOrder.push(k);
  for (const v of all) for (const [k, text] of Object.entries(v)) (seen.get(k) ?? seen.set(k, new Set()).get(k)!).add(text!);
  for (const k of seen.keys()) if (all.some((v) => v[k] === undefined)) missing.add(k);
  const varying = [...seen.entries()].filter(([k, set]) => (set.size > 1 || (set.size === 1 && missing.has(k))) && set.size <= MAX_AXIS_VALUES).map(([k]) => k);
  const ordered = [...sweepOrder.filter((k) => varying.includes(k)), ...varying.filter((k) => !sweepOrder.includes(k)).sort()];
  return ordered.map((key) => ({ key, fromSweep: sweepOrder.includes(key), values: orderValues([...seen.get(key)!], sweepValuesOrder(sources, key)) }));
}

/** A sweep's values in the order its list gave them (first seen in job order, which is the list's). */
function sweepValuesOrder(sources: readonly GridSource[], key: string): string[] | undefined {
  const order: string[] = [];
  for (const s of sources) {
    if (!s.sweep || !(key in s.sweep)) continue;
    const t = JSON.stringify(s.sweep[key]);
    if (!order.includes(t)) order.push(t);
  }
  return order.length ? order : undefined;
}

/** Numbers by size, anything else by its text; a sweep's values as its list gave them. */
function orderValues(values: string[], sweepOrder: string[] | undefined): string[] {
  if (sweepOrder) return [...sweepOrder, ...values.filter((v) => !sweepOrder.includes(v)).sort()];
  const numbers = values.every((v) => typeof JSON.parse(v) === 'number');
  return numbers ? values.sort((a, b) => Number(a) - Number(b)) : values.sort();
}

/** The text a header shows for a value: a string as it is, anything else as JSON; `(none)` for a missing field. */
export function valueLabel(json: string | undefined): string {
  if (json === undefined) return '(none)';
  const v: unknown = JSON.parse(json);
  return typeof v === 'string' ? v : json;
}

/** Headers shorten long values (a prompt): the whole value is the tooltip. */
export function shortLabel(label: string, max = 40): string {
  const one = label.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export interface GridLayout {
  xs: (string | undefined)[];
  ys: (string | undefined)[];
  /** The jobs of each cell by `${xi},${yi}` (two or more: stacked, with their count). */
  cells: Map<string, number[]>;
}

/** Where each job goes for axes `x` and `y` (`y` undefined: one row); only the jobs whose `z` value is `zValue`. */
export function arrangeGrid(jobs: readonly { index: number; values: GridValues }[], keys: readonly GridKey[], x: string, y: string | undefined, z?: { key: string; value: string | undefined }): GridLayout {
  const axis = (k: string | undefined): (string | undefined)[] => {
    if (k === undefined) return [undefined];
    const key = keys.find((g) => g.key === k);
    const values: (string | undefined)[] = key ? [...key.values] : [];
    if (jobs.some((j) => j.values[k] === undefined)) values.push(undefined);
    return values;
  };
  const xs = axis(x);
  const ys = axis(y);
  const xAt = new Map(xs.map((v, i) => [v, i]));
  const yAt = new Map(ys.map((v, i) => [v, i]));
  const cells = new Map<string, number[]>();
  for (const j of jobs) {
    if (z && j.values[z.key] !== z.value) continue;
    const xi = xAt.get(j.values[x]);
    const yi = y === undefined ? 0 : yAt.get(j.values[y]);
    if (xi === undefined || yi === undefined) continue;
    const id = `${xi},${yi}`;
    (cells.get(id) ?? cells.set(id, []).get(id)!).push(j.index);
  }
  return { xs, ys, cells };
}

/**
 * The axes a grid shows: those chosen (kept while the batch still varies in them), else by default the first key
 * down (it varies slowest: the grid reads like the file), the second across, a third paging. A Y or Z chosen as
 * none is `''` and stays none (undefined is no choice yet). The page and the host (which sends the first screen's
 * jobs first) both ask this.
 */
export function chooseAxes(keys: readonly GridKey[], chosen: { x?: string | undefined; y?: string | undefined; z?: string | undefined }): { x?: string; y?: string; z?: string } {
  const known = (k: string | undefined): string | undefined => (k && keys.some((g) => g.key === k) ? k : undefined);
  const x = known(chosen.x) ?? (keys.length > 1 ? keys[1]!.key : keys[0]?.key);
  const y = chosen.y === '' ? '' : (known(chosen.y) ?? (keys.length > 1 ? keys[0]!.key : undefined));
  const z = chosen.z === '' ? '' : (known(chosen.z) ?? (keys.length > 2 ? keys[2]!.key : undefined));
  return { ...(x ? { x } : {}), ...(y !== undefined ? { y } : {}), ...(z !== undefined ? { z } : {}) };
}

/** The jobs of the cells in the grid's top-left `cols` x `rows` (all of a stacked cell's): what a page shows first. */
export function cornerJobs(layout: GridLayout, cols: number, rows: number): number[] {
  const out: number[] = [];
  for (const [id, indices] of layout.cells) {
    const [xi, yi] = id.split(',').map(Number) as [number, number];
    if (xi < cols && yi < rows) out.push(...indices);
  }
  return out;
}

type Axes = { x?: string | undefined; y?: string | undefined; z?: string | undefined };

/**
 * An axis the user sets: another axis that held that key takes the one this axis had (the two swap, as the X/Y
 * plot users know does), so no key is on two axes (found walking the grid by hand: X and Y both `seed` drew a
 * diagonal of cells stacked 1/3). X, which has no none, takes the first key no other axis holds when it would be
 * left with none; with no such key the choice is refused (the axes stay as they were).
 */
export function pickAxis(keys: readonly GridKey[], chosen: Axes, axis: 'x' | 'y' | 'z', value: string): Axes {
  const next: Axes = { ...chosen, [axis]: value };
  if (value === '') return next;
  for (const other of ['x', 'y', 'z'] as const) {
    if (other === axis || chosen[other] !== value) continue;
    const old = chosen[axis];
    if (other !== 'x') next[other] = old ?? '';
    else if (old) next.x = old;
    else {
      const free = keys.find((k) => k.key !== next.y && k.key !== next.z)?.key;
      if (!free) return { ...chosen };
      next.x = free;
    }
  }
  return next;
}

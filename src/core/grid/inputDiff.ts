// Two jobs compared (issue 31 "Two jobs side by side"): the input keys that differ, by dotted path as the sweep
// block writes them, old and new; and a line diff of two text outputs. Plain data, no `vscode` import.
import { flattenInput } from './gridAxes';

export interface KeyChange {
  key: string;
  /** JSON text; undefined: the first job's input has no such key. */
  old?: string;
  new?: string;
}

/** The keys whose values differ between `a` and `b`, by name. */
export function diffInputs(a: Record<string, unknown>, b: Record<string, unknown>): KeyChange[] {
  const fa = flattenInput(a);
  const fb = flattenInput(b);
  const keys = [...new Set([...Object.keys(fa), ...Object.keys(fb)])].sort();
  const out: KeyChange[] = [];
  for (const key of keys) {
    const old = key in fa ? JSON.stringify(fa[key]) : undefined;
    const now = key in fb ? JSON.stringify(fb[key]) : undefined;
    if (old !== now) out.push({ key, ...(old !== undefined ? { old } : {}), ...(now !== undefined ? { new: now } : {}) });
  }
  return out;
}

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Lines beyond which the diff is not computed (an LCS table is lines x lines): the texts are shown whole instead. */
export const MAX_DIFF_LINES = 2000;

/** A line diff of `a` to `b` (longest common subsequence); undefined when either has more than MAX_DIFF_LINES lines. */
export function diffLines(a: string, b: string): DiffLine[] | undefined {
  const x = a.split('\n');
  const y = b.split('\n');
  if (x.length > MAX_DIFF_LINES || y.length > MAX_DIFF_LINES) return undefined;
  const w = y.length + 1;
  const lcs = new Uint16Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      out.push({ op: ' ', text: x[i]! });
      i++;
      j++;
    } else if (j < y.length && (i === x.length || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) out.push({ op: '+', text: y[j++]! });
    else out.push({ op: '-', text: x[i++]! });
  }
  return out;
}

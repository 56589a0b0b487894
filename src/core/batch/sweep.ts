// A sweep block (issue 23, docs/batches.md "Sweeps"): `{"input": {...}, "sweep": {"seed": [1, 2, 3], "width":
// [512, 1024]}}` is the Cartesian product of the lists, each combination's values set on a copy of `input`.
// The form is ours (the platform has none): it lives beside "input" only, so it can never be mistaken for an
// input field a model reads. Decisions, each refused before anything is sent with the sweep's line and column:
// - a key is a path into the input, dots separating levels (`"sampling_params.max_tokens"`); missing objects
//   on the way are created, a non-object on the way is an error (it would silently replace the user's value);
// - every value is a non-empty list: an empty list would make the product empty, which is never what was meant;
// - the first key varies slowest (nested loops in the order written), so the jobs' order reads like the file;
// - at most MAX_SWEEP_JOBS combinations: a typo (a 10,000-entry list) must not become 10,000 paid jobs.
import { BadInputError } from '../http/errors';
import type { JobInput } from '../schemas';

export const MAX_SWEEP_JOBS = 1000;

/** One combination: the values it set, by the sweep's keys (shown as the row's summary), and the input it makes. */
export interface SweepPoint {
  values: Record<string, unknown>;
  input: JobInput;
}

export interface SweepBlock {
  value: unknown;
  line: number;
  column: number;
}

/** The combinations of `sweep` over `input`. Throws BadInputError at the sweep's position for a bad block. */
export function expandSweep(input: JobInput, sweep: SweepBlock): SweepPoint[] {
  const fail = (message: string): never => {
    throw new BadInputError(`"sweep" (line ${sweep.line}, column ${sweep.column}): ${message}`, sweep.line, sweep.column);
  };
  const block = sweep.value;
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return fail('must be an object of lists, e.g. {"seed": [1, 2, 3]}.');
  const axes = Object.entries(block as Record<string, unknown>);
  if (axes.length === 0) return fail('is empty: give at least one key with a list of values.');
  let total = 1;
  for (const [key, values] of axes) {
    if (key === '' || key.split('.').some((part) => part === '')) fail(`the key ${JSON.stringify(key)} is not a path (dots separate levels).`);
    if (!Array.isArray(values)) return fail(`${JSON.stringify(key)} must be a list of values, not ${typeof values}.`);
    if (values.length === 0) fail(`${JSON.stringify(key)} is an empty list: the sweep would make no jobs.`);
    total *= values.length;
    if (total > MAX_SWEEP_JOBS) fail(`makes more than ${MAX_SWEEP_JOBS} jobs; split it into several files.`);
  }
  const points: SweepPoint[] = [];
  const walk = (axis: number, values: Record<string, unknown>): void => {
    if (axis === axes.length) {
      const copy = structuredClone(input);
      for (const [key, value] of Object.entries(values)) setPath(copy, key, value, fail);
      points.push({ values: { ...values }, input: copy });
      return;
    }
    const [key, list] = axes[axis]!;
    for (const value of list as unknown[]) walk(axis + 1, { ...values, [key]: value });
  };
  walk(0, {});
  return points;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown, fail: (m: string) => never): void {
  const parts = path.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    const next = at[part];
    if (next === undefined) at = at[part] = {};
    else if (typeof next === 'object' && next !== null && !Array.isArray(next)) at = next as Record<string, unknown>;
    else fail(`${JSON.stringify(path)} goes through "${part}", which is not an object in "input".`);
  }
  at[parts[parts.length - 1]!] = structuredClone(value);
}

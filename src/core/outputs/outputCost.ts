// The cost a public endpoint's job reports in its output (SPEC 2.8). A file of its own because the job's life
// and its cost (dist/extension.js) read it, while the rest of ./outputs.ts (parsing a whole output for its
// media) is needed only once a job's outputs are saved, in dist/rooms.js.

/** The `cost` of a public endpoint's job (SPEC 2.8), in USD, where the output carries one. */
export function outputCost(output: unknown): number | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  const cost = (output as Record<string, unknown>)['cost'];
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : undefined;
}

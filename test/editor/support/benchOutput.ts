// Where an `@bench` editor suite writes its figures: the path test/bench/editorHost.bench.ts sets (passed on by
// run.mjs and code-server). Only the bench asks for these suites (they take a while and measure rather than
// check): without the path the suite is skipped, so a normal editor run shows it pending.
import type { Context } from 'mocha';

const BENCH_OUT_ENV = 'SERVERLESS_GPU_BENCH_OUT';

/** `<the bench's path><suffix>`, or skips the suite of `context` when no bench asked for it. */
export function benchOutputOrSkip(context: Context, suffix = ''): string {
  const out = process.env[BENCH_OUT_ENV];
  if (!out) context.skip();
  return `${out}${suffix}`;
}

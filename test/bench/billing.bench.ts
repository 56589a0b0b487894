// Billing figures (issue 2): the size of the shipped extension bundle, and the cost of turning a year of
// hourly billing for 20 endpoints (175,200 records) into what the views show: JSON.parse, validation and
// aggregation, against JSON.parse alone on the same bytes. Target: the pipeline costs at most 3x JSON.parse.
// Two validations are measured: the client's (safeParseBillingResponse, which checks records in place and
// falls back on the schema for the error) and the plain zod schema ListServerlessBillingResponse.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregateBilling } from '../../src/core/billing/aggregate';
import { safeParseBillingResponse } from '../../src/core/http/billingBody';
import { ListServerlessBillingResponse } from '../../src/core/schemas';
import { aBillingResponse } from '../unit/builders/billingResponse';
import type { BenchContext } from './context';

export default async function billingBench(ctx: BenchContext): Promise<void> {
  // The production build is what the .vsix ships (minified); measure that, not the debug build. It goes to a
  // temporary folder (--out-root) so the development build in ./dist, maybe in use by a test run, is untouched.
  const outRoot = mkdtempSync(join(tmpdir(), 'bench-build-'));
  try {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--production', '--out-root', outRoot], { cwd: ctx.root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`production build failed: ${build.stderr}`);
    ctx.report('bundle.extension.js', statSync(join(outRoot, 'dist', 'extension.js')).size, 'bytes');
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }

  const response = aBillingResponse().withEndpoints(20).hourly(365 * 24).startingAt('2025-01-01T00:00:00Z').build();
  const text = JSON.stringify(response);
  ctx.log(`${response.records.length} records, ${(text.length / 1e6).toFixed(1)} MB of JSON`);
  ctx.report('billing.records', response.records.length, 'records');
  ctx.report('billing.responseSize', Buffer.byteLength(text), 'bytes');

  const parseOnly = () => JSON.parse(text);
  const pipeline = () => {
    const result = safeParseBillingResponse(JSON.parse(text));
    if (!result.success) throw new Error(`fixture rejected: ${result.error.message}`);
    return aggregateBilling(result.data);
  };
  const { baseline, candidate } = await ctx.compare(parseOnly, pipeline, { iterations: 11, warmup: 2 });
  const base = { name: 'billing.jsonParse', value: baseline.medianMs };
  ctx.report('billing.jsonParse', baseline.medianMs, 'ms');
  ctx.report('billing.pipeline', candidate.medianMs, 'ms', base);

  const zodPipeline = () => aggregateBilling(ListServerlessBillingResponse.parse(JSON.parse(text)));
  const zod = await ctx.compare(parseOnly, zodPipeline, { iterations: 7, warmup: 1 });
  ctx.report('billing.jsonParse.zodRuns', zod.baseline.medianMs, 'ms');
  ctx.report('billing.pipelineZodOnly', zod.candidate.medianMs, 'ms', { name: 'billing.jsonParse.zodRuns', value: zod.baseline.medianMs });

  // The parts, for whoever has to make the pipeline faster.
  const parsed = JSON.parse(text);
  const validate = await ctx.timeIt(() => safeParseBillingResponse(parsed), { iterations: 5 });
  ctx.report('billing.validateOnly', validate.medianMs, 'ms', base);
  const valid = ListServerlessBillingResponse.parse(parsed);
  const aggregate = await ctx.timeIt(() => aggregateBilling(valid), { iterations: 5 });
  ctx.report('billing.aggregateOnly', aggregate.medianMs, 'ms', base);
  ctx.report('billing.peakRss', ctx.peakRss(), 'bytes');
}

// One job of a memory bench (memory.bench.test.ts, mixedOutputs.bench.test.ts): the current file run through
// the extension's own command while the host's memory is sampled, from a quiet baseline until the panel has drawn
// every image; then the samples' summary written where test/bench/editorHost.bench.ts reads it.
import * as assert from 'node:assert/strict';
import { writeBenchFigures } from './hostStalls';
import * as vscode from 'vscode';
import { JobCommands } from '../../../src/jobs/commandIds';
import type { JobRecord } from '../../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../../src/jobs/registerJobs';
import { count, driverAvailable } from './driver';
import { eventually } from './extension';
import { delay, each, median, MemorySampler, QUIET_MS, SAMPLE_EVERY_MS } from './memorySampler';

export interface SampledJob {
  done: JobRecord;
  sampler: MemorySampler;
}

/**
 * Runs the current file and waits for the job to complete, for `panelHasImages` (what the host sent the panel)
 * and, with a driver, for the webview to draw `images` images; sampling memory the whole time, with a quiet
 * second before and after.
 */
export async function runCurrentFileSampled(api: JobRunnerApi, images: number, panelHasImages: (key: string) => boolean): Promise<SampledJob> {
  const sampler = new MemorySampler();
  let done: JobRecord;
  try {
    await delay(QUIET_MS);
    sampler.startJob();
    const started = (await vscode.commands.executeCommand(JobCommands.runCurrentFile)) as JobRecord | undefined;
    assert.ok(started?.key, 'a job was started');
    done = await eventually(() => {
      const r = api.history.get(started.key);
      return r && r.finishedAt !== undefined && !api.runner.isRunning(started.key) ? r : undefined;
    }, 'the job to finish', 240_000);
    assert.equal(done.status, 'COMPLETED', done.error);
    await eventually(() => panelHasImages(started.key), `the panel to be sent the ${images} images`, 120_000);
    if (driverAvailable()) {
      await eventually(async () => (await count('figure.image img[data-loaded]', { inWebview: true })) === images, `the webview to draw the ${images} images`, 120_000);
    }
    await delay(QUIET_MS);
  } finally {
    sampler.stop();
  }
  return { done, sampler };
}

/** The summary the bench reads: the quiet baseline's median and max, the peak from the command on, the bytes saved. */
export function writeMemoryResult(outPath: string, sampler: MemorySampler, savedBytes: number): void {
  assert.ok(sampler.baseline.length > 10 && sampler.during.length > 10, `enough samples (${sampler.baseline.length}, ${sampler.during.length})`);
  const result = {
    // The median of the quiet second before the job; the peak is the highest sample from the command on.
    baseline: each(median, sampler.baseline),
    baselineMax: each((v) => Math.max(...v), sampler.baseline),
    peak: each((v) => Math.max(...v), sampler.during),
    savedBytes,
    samples: { baseline: sampler.baseline.length, during: sampler.during.length, everyMs: SAMPLE_EVERY_MS },
  };
  writeBenchFigures(outPath, result);
}

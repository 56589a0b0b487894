// A finished 30 x 30 sweep of 900 jobs written straight into a manifest (no service involved), each job with its own
// copy of a small real JPEG under the batch's folder: what the grid's scale test and bench open.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MANIFEST_FILE, MANIFEST_VERSION } from '../../../src/core/batch';
import { getExtension, workspaceFolder } from './extension';

/** Writes the batch into a fresh folder of the workspace; returns its manifest's path. */
export function write900Grid(): string {
  const dir = fs.mkdtempSync(path.join(workspaceFolder().uri.fsPath, '.grid900-'));
  const sample = path.join(getExtension().extensionPath, 'test', 'fixtures', 'media', 'sample.jpg');
  const lines: string[] = [JSON.stringify({ type: 'batch', version: MANIFEST_VERSION, batchId: 'grid900', endpointId: 'gimg', service: 'http://127.0.0.1:1', createdAt: new Date().toISOString(), jobs: 900 })];
  for (let i = 0; i < 900; i++) {
    const out = path.join(dir, `job-${i}`, 'image-0.jpg');
    fs.mkdirSync(path.dirname(out));
    fs.copyFileSync(sample, out);
    lines.push(JSON.stringify({ type: 'job', index: i, ref: { file: 'big.input.json', sweep: { seed: Math.floor(i / 30), steps: i % 30 } }, digest: 'd', phase: 'ended', jobId: `j${i}`, status: 'COMPLETED', outputs: [out], at: Date.now() }));
  }
  const manifest = path.join(dir, MANIFEST_FILE);
  fs.writeFileSync(manifest, lines.join('\n') + '\n');
  return manifest;
}

/** What the grid page measured of itself (its hidden #perf: media/batchGrid/main.ts). */
export interface GridPagePerf {
  frameWait: number;
  script: number;
  message?: number;
  firstDraw?: number;
  firstDrawAt: number;
  longestFrame: number;
  observed: string;
  scrollGapMax: number;
}

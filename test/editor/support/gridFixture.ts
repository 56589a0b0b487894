// A finished 30 x 30 sweep of 900 jobs written straight into a manifest (no service involved), each job with its own
// copy of a small real JPEG under the batch's folder: what the grid's scale test and bench open.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MANIFEST_FILE, MANIFEST_VERSION } from '../../../src/core/batch';
import { getExtension, workspaceFolder } from './extension';

/** Writes the batch (`side` x `side` jobs, 30 x 30 by default) into a fresh folder of the workspace; returns its manifest's path. */
export function write900Grid(side = 30): string {
  const n = side * side;
  const dir = fs.mkdtempSync(path.join(workspaceFolder().uri.fsPath, `.grid${n}-`));
  const sample = path.join(getExtension().extensionPath, 'test', 'fixtures', 'media', 'sample.jpg');
  const lines: string[] = [JSON.stringify({ type: 'batch', version: MANIFEST_VERSION, batchId: `grid${n}`, endpointId: 'gimg', service: 'http://127.0.0.1:1', createdAt: new Date().toISOString(), jobs: n })];
  for (let i = 0; i < n; i++) {
    const out = path.join(dir, `job-${i}`, 'image-0.jpg');
    fs.mkdirSync(path.dirname(out));
    fs.copyFileSync(sample, out);
    lines.push(JSON.stringify({ type: 'job', index: i, ref: { file: 'big.input.json', sweep: { seed: Math.floor(i / side), steps: i % side } }, digest: 'd', phase: 'ended', jobId: `j${i}`, status: 'COMPLETED', outputs: [out], at: Date.now() }));
  }
  const manifest = path.join(dir, MANIFEST_FILE);
  fs.writeFileSync(manifest, lines.join('\n') + '\n');
  return manifest;
}

/** What the grid page measured of itself (its hidden #perf: media/batchGrid/gridPage.ts). */
export interface GridPagePerf {
  origin: number;
  frameWait: number;
  script: number;
  /** When the grid was asked for (epoch ms): the Grid button's click, or the host's word. */
  shownAt?: number;
  message?: number;
  firstDraw?: number;
  firstDrawAt: number;
  firstPaintAt?: number;
  imagesAt?: number;
  images?: number;
  longestFrame: number;
  observed: string;
  scrollGapMax: number;
}

// A new batch's folder is its own, even when a batch of the same input started in the same second: two runs of
// one folder within a second had shared an id and a folder, and the Jobs view refused the repeated id (CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newBatchDir } from '../../../src/core/batch/batchDir';

test('batches started in the same second get their own ids and folders', async () => {
  const root = mkdtempSync(join(tmpdir(), 'batch-dir-'));
  try {
    const batches = join(root, 'batches');
    const wanted = '2026-11-27T09-58-00-batch-again';
    const made = await Promise.all([newBatchDir(batches, wanted), newBatchDir(batches, wanted), newBatchDir(batches, wanted)]);
    assert.deepEqual(made.map((m) => m.batchId).sort(), [wanted, `${wanted}-2`, `${wanted}-3`]);
    for (const m of made) assert.ok(statSync(m.dir).isDirectory() && m.dir === join(batches, m.batchId));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

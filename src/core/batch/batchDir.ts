// Where a new batch's manifest and outputs go: a folder of its own under the outputs root's `batches/`.
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * A folder of its own for a new batch: `wanted` (its start to the second and what it ran), or `wanted-2`, `-3`…
 * when a batch of the same input already started in that second. Two runs of one folder within a second had
 * shared an id and a folder (one manifest for two batches), and the Jobs view refused the repeated id.
 */
export async function newBatchDir(batchesDir: string, wanted: string): Promise<{ batchId: string; dir: string }> {
  await mkdir(batchesDir, { recursive: true });
  for (let n = 1; ; n++) {
    const batchId = n === 1 ? wanted : `${wanted}-${n}`;
    const dir = path.join(batchesDir, batchId);
    try {
      await mkdir(dir);
      return { batchId, dir };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

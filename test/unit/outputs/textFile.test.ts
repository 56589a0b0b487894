import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTextFile, writeTextFile } from '../../../src/core/outputs/textFile';

describe('writeTextFile / readTextFile: big text without one Buffer of it all', () => {
  test('round-trips text of several slices, with a surrogate pair across a slice boundary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'text-file-'));
    try {
      // 1 MiB slices: the first emoji (two UTF-16 units) straddles the first boundary; é and 中 take 2 and 3 bytes.
      const slice = 1 << 20;
      const text = `${'a'.repeat(slice - 1)}😀${'é中'.repeat(slice / 2)}😀${'b'.repeat(1000)}`;
      const path = join(dir, 'job.json');
      await writeTextFile(path, text);
      assert.deepEqual(await readFile(path), Buffer.from(text, 'utf8'));
      assert.equal(await readTextFile(path), text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('an empty file, and a BOM dropped as TextDecoder does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'text-file-'));
    try {
      await writeTextFile(join(dir, 'empty'), '');
      assert.equal(await readTextFile(join(dir, 'empty')), '');
      await writeFile(join(dir, 'bom'), Buffer.from('\ufeff{"a":1}', 'utf8'));
      assert.equal(await readTextFile(join(dir, 'bom')), '{"a":1}');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// Two jobs compared (src/core/grid/inputDiff.ts): the input keys that differ by dotted path, and a line diff.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diffInputs, diffLines } from '../../../src/core/grid/inputDiff';

describe('compare', () => {
  test('names the changed, added and removed keys, nested by dotted path', () => {
    assert.deepEqual(diffInputs({ prompt: 'a', seed: 1, opts: { steps: 4 } }, { prompt: 'a', seed: 2, opts: { steps: 4, cfg: 7 } }), [
      { key: 'opts.cfg', new: '7' },
      { key: 'seed', old: '1', new: '2' },
    ]);
    assert.deepEqual(diffInputs({ a: 1 }, { a: 1 }), []);
  });

  test('a line diff keeps the common lines', () => {
    assert.deepEqual(diffLines('a\nb\nc', 'a\nx\nc'), [
      { op: ' ', text: 'a' },
      { op: '+', text: 'x' },
      { op: '-', text: 'b' },
      { op: ' ', text: 'c' },
    ]);
  });
});

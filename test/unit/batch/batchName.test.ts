// What a batch is called in tabs, picks and Jobs rows (src/core/batch/batchName.ts): what the user ran and when it
// started. The walk found two tabs "Batch: batch", Jobs rows "Batch batch", and a grid tab named by the internal id
// "Grid: 2026-11-27T08-45-26-sweep.input.json".
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { batchName, batchNameFromId, startedWords } from '../../../src/core/batch/batchName';

describe('a batch\'s name', () => {
  const now = new Date(2026, 10, 27, 9, 0, 0);

  test('the folder or file and the start time in words: two runs of one folder read apart', () => {
    const a = batchName('batch', new Date(2026, 10, 27, 8, 45, 26).toISOString(), now);
    const b = batchName('batch', new Date(2026, 10, 27, 8, 45, 51).toISOString(), now);
    assert.equal(a, 'batch (started 08:45:26)');
    assert.notEqual(a, b);
  });

  test('another day, another year: the date is said', () => {
    assert.equal(startedWords(new Date(2026, 10, 26, 17, 5, 1), now), 'Nov 26, 17:05:01');
    assert.equal(startedWords(new Date(2025, 0, 3, 7, 0, 0), now), 'Jan 3 2025, 07:00:00');
  });

  test('a grid\'s folder (the batch id) reads as the file it ran and when, never the id', () => {
    const id = `${new Date(2026, 10, 27, 8, 45, 26).toISOString().replace(/[:.]/g, '-').slice(0, 19)}-sweep.input.json`;
    assert.equal(batchNameFromId(id, now), 'sweep.input.json (started 08:45:26)');
    assert.equal(batchNameFromId('b-reload', now), undefined, 'a folder named otherwise keeps its name');
  });
});

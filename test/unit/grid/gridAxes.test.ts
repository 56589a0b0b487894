// Choosing a batch grid's axes and placing its jobs (src/core/grid/gridAxes.ts): a sweep's keys first in the block's
// order, then any input field whose value differs; cells by (X, Y), two jobs of one cell kept together.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { arrangeGrid, chooseAxes, cornerJobs, pickAxis, flattenInput, shortLabel, valueLabel, valuesOf, varyingKeys } from '../../../src/core/grid/gridAxes';

describe('grid axes', () => {
  test("a sweep's keys come first, in the block's order, with the values as its lists gave them", () => {
    const sources = [];
    for (const seed of [3, 1, 2]) for (const width of [512, 64]) sources.push({ index: sources.length, sweep: { seed, width }, input: { prompt: 'a cat', seed, width } });
    const keys = varyingKeys(sources);
    assert.deepEqual(keys.map((k) => [k.key, k.fromSweep, k.values]), [
      ['seed', true, ['3', '1', '2']],
      ['width', true, ['512', '64']],
    ]);
  });

  test('a JSONL batch whose lines differ in prompt offers prompt; nested fields by their dotted path', () => {
    const keys = varyingKeys([
      { index: 0, input: { prompt: 'a cat', sampling_params: { max_tokens: 3, temperature: 0.5 } } },
      { index: 1, input: { prompt: 'a dog', sampling_params: { max_tokens: 3, temperature: 0.7 } } },
    ]);
    assert.deepEqual(keys.map((k) => k.key), ['prompt', 'sampling_params.temperature']);
    assert.deepEqual(keys[0]!.values, ['"a cat"', '"a dog"']);
  });

  test('nothing varies: no key (the grid says so instead of drawing 1 x N)', () => {
    assert.deepEqual(varyingKeys([{ index: 0, input: { prompt: 'x' } }, { index: 1, input: { prompt: 'x' } }]), []);
  });

  test('a field some inputs lack varies (missing is a value), numbers sort by size', () => {
    const keys = varyingKeys([{ index: 0, input: { steps: 20 } }, { index: 1, input: { steps: 4 } }, { index: 2, input: {} }]);
    assert.deepEqual(keys.map((k) => [k.key, k.values]), [['steps', ['4', '20']]]);
  });

  test('jobs land in their (X, Y) cell; two with the same values are stacked, never dropped', () => {
    const sources = [
      { index: 0, sweep: { seed: 1, width: 64 } },
      { index: 1, sweep: { seed: 1, width: 96 } },
      { index: 2, sweep: { seed: 2, width: 64 } },
      { index: 3, sweep: { seed: 2, width: 96 } },
      { index: 4, sweep: { seed: 2, width: 96 } },
    ];
    const keys = varyingKeys(sources);
    const grid = arrangeGrid(sources.map((s) => ({ index: s.index, values: valuesOf(s) })), keys, 'width', 'seed');
    assert.deepEqual(grid.xs, ['64', '96']);
    assert.deepEqual(grid.ys, ['1', '2']);
    assert.deepEqual(Object.fromEntries(grid.cells), { '0,0': [0], '1,0': [1], '0,1': [2], '1,1': [3, 4] });
  });

  test('a third key pages the grid', () => {
    const sources = [0, 1, 2, 3].map((i) => ({ index: i, sweep: { a: i % 2, b: 0, c: i < 2 ? 'x' : 'y' } }));
    sources.push({ index: 4, sweep: { a: 0, b: 1, c: 'x' } });
    const keys = varyingKeys(sources);
    const grid = arrangeGrid(sources.map((s) => ({ index: s.index, values: valuesOf(s) })), keys, 'a', 'b', { key: 'c', value: '"y"' });
    assert.deepEqual([...grid.cells.values()].flat().sort(), [2, 3]);
  });

  test('labels: strings as they are, a long prompt shortened, a missing field named', () => {
    assert.equal(valueLabel('"a cat"'), 'a cat');
    assert.equal(valueLabel('[1,2]'), '[1,2]');
    assert.equal(valueLabel(undefined), '(none)');
    assert.equal(shortLabel('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
    assert.deepEqual(flattenInput({ a: { b: { c: 1 } }, l: [1, 2] }), { 'a.b.c': 1, l: [1, 2] });
  });

  test('default axes: the first key down, the second across, a third pages; a chosen key kept only while it varies', () => {
    const keys = ['seed', 'width', 'steps'].map((key) => ({ key, fromSweep: true, values: ['1', '2'] }));
    assert.deepEqual(chooseAxes(keys, {}), { x: 'width', y: 'seed', z: 'steps' });
    assert.deepEqual(chooseAxes(keys, { x: 'seed', y: 'width' }), { x: 'seed', y: 'width', z: 'steps' });
    assert.deepEqual(chooseAxes(keys, { x: 'gone' }), { x: 'width', y: 'seed', z: 'steps' });
    assert.deepEqual(chooseAxes(keys.slice(0, 1), {}), { x: 'seed' });
    assert.deepEqual(chooseAxes([], {}), {});
    // Y or Z chosen as none stays none.
    assert.deepEqual(chooseAxes(keys, { x: 'seed', y: '', z: '' }), { x: 'seed', y: '', z: '' });
  });

  test('a key picked for an axis that another axis holds swaps the two: never one key on two axes', () => {
    const keys = ['seed', 'width', 'steps'].map((key) => ({ key, fromSweep: true, values: ['1', '2'] }));
    // X set to Y's key: Y takes X's (both seed drew a diagonal of cells stacked 1/3).
    assert.deepEqual(pickAxis(keys, { x: 'width', y: 'seed', z: '' }, 'x', 'seed'), { x: 'seed', y: 'width', z: '' });
    assert.deepEqual(pickAxis(keys, { x: 'width', y: 'seed', z: 'steps' }, 'z', 'width'), { x: 'steps', y: 'seed', z: 'width' });
    // Y was none: X, which cannot be none, takes a key no axis holds; Z set to Y's key leaves Y none.
    assert.deepEqual(pickAxis(keys, { x: 'width', y: '', z: '' }, 'y', 'width'), { x: 'seed', y: 'width', z: '' });
    assert.deepEqual(pickAxis(keys, { x: 'width', y: 'seed', z: '' }, 'z', 'seed'), { x: 'width', y: '', z: 'seed' });
    // A free key or none: nothing else moves.
    assert.deepEqual(pickAxis(keys, { x: 'width', y: 'seed', z: '' }, 'z', 'steps'), { x: 'width', y: 'seed', z: 'steps' });
    assert.deepEqual(pickAxis(keys, { x: 'width', y: 'seed', z: '' }, 'y', ''), { x: 'width', y: '', z: '' });
    // One key only, on X: Y may not take it (X would have none), the axes stay.
    assert.deepEqual(pickAxis(keys.slice(0, 1), { x: 'seed', y: '' }, 'y', 'seed'), { x: 'seed', y: '' });
  });

  test("the first screen's jobs: the cells of the top-left corner, every job of a stacked one", () => {
    const jobs = [];
    for (let y = 0; y < 30; y++) for (let x = 0; x < 30; x++) jobs.push({ index: jobs.length, values: { x: String(x), y: String(y) } });
    jobs.push({ index: 900, values: { x: '0', y: '0' } });
    const keys = [{ key: 'y', fromSweep: true, values: Array.from({ length: 30 }, (_, i) => String(i)) }, { key: 'x', fromSweep: true, values: Array.from({ length: 30 }, (_, i) => String(i)) }];
    const first = cornerJobs(arrangeGrid(jobs, keys, 'x', 'y'), 3, 2).sort((a, b) => a - b);
    assert.deepEqual(first, [0, 1, 2, 30, 31, 32, 900]);
  });
});

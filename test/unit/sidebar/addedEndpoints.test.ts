// The endpoints added by id (src/endpoints/addedEndpoints.ts), kept in globalState per connection profile:
// a damaged stored entry is skipped without losing the others, an id appears once, profiles do not mix.
// globalState is a plain in-memory Memento here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { AddedEndpoints } from '../../../src/endpoints/addedEndpoints';

function memento(initial: Record<string, unknown> = {}): vscode.Memento {
  const values = new Map(Object.entries(initial));
  return {
    keys: () => [...values.keys()],
    get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
    update: async (key: string, value: unknown) => { values.set(key, value); },
  } as vscode.Memento;
}

describe('added endpoints', () => {
  test('a stored list with damaged entries keeps the good ones, and an empty or odd display name is dropped', () => {
    const added = new AddedEndpoints(memento({
      'serverlessGpu.addedEndpoints:Default': [
        { id: 'ep-1', displayName: 'One' }, null, 'ep-2', { displayName: 'no id' }, { id: 7 },
        { id: 'ep-3', displayName: '' }, { id: 'ep-4', displayName: 42 }, { id: 'ep-5' },
      ],
    }));
    assert.deepEqual(added.list('Default'), [{ id: 'ep-1', displayName: 'One' }, { id: 'ep-3' }, { id: 'ep-4' }, { id: 'ep-5' }]);
  });

  test('no stored list, or one that is not a list, is empty', () => {
    assert.deepEqual(new AddedEndpoints(memento()).list('Default'), []);
    assert.deepEqual(new AddedEndpoints(memento({ 'serverlessGpu.addedEndpoints:Default': { id: 'x' } })).list('Default'), []);
  });

  test('adding an id again renames it and moves it last; each profile has its own list; remove says if it removed', async () => {
    const added = new AddedEndpoints(memento());
    await added.add('Default', { id: 'a', displayName: 'A' });
    await added.add('Default', { id: 'b' });
    await added.add('Default', { id: 'a', displayName: 'A2' });
    await added.add('Other', { id: 'c' });
    assert.deepEqual(added.list('Default'), [{ id: 'b' }, { id: 'a', displayName: 'A2' }]);
    assert.deepEqual(added.list('Other'), [{ id: 'c' }]);
    assert.equal(await added.remove('Default', 'b'), true);
    assert.equal(await added.remove('Default', 'b'), false);
    assert.deepEqual(added.list('Default'), [{ id: 'a', displayName: 'A2' }]);
  });
});

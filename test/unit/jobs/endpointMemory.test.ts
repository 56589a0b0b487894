// What the runner remembers per workspace (src/jobs/endpointMemory.ts): the endpoint per input file and the
// endpoints used here, most recent first; Clear Job History forgets the second and keeps the first.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { EndpointMemory } from '../../../src/jobs/endpointMemory';
import { memoryMemento } from '../../editor/support/memoryMemento';

/** Only `toString()` of a Uri is read: the key of the file's entry. */
const file = (path: string): vscode.Uri => ({ toString: () => `file://${path}` }) as vscode.Uri;

describe('endpoint memory', () => {
  test('used endpoints are listed most recent first, once each; forgetting them keeps the endpoint per file', async () => {
    const memory = new EndpointMemory(memoryMemento());
    await memory.rememberEndpoint(file('/w/a.input.json'), 'echo');
    await memory.rememberInput('sdxl-turbo', { prompt: 'x' });
    await memory.rememberEndpoint(file('/w/b.input.json'), 'echo');
    assert.deepEqual(memory.usedEndpoints(), ['echo', 'sdxl-turbo']);

    await memory.forgetUsedEndpoints();
    assert.deepEqual(memory.usedEndpoints(), []);
    assert.equal(memory.endpointFor(file('/w/a.input.json')), 'echo');
    assert.equal(memory.lastInput('sdxl-turbo')?.input.prompt, 'x');
  });

  test('an id that would change the route is not used (workspaceState can be edited by others)', async () => {
    const memento = memoryMemento();
    await memento.update('serverlessGpu.fileEndpoints.v1', { 'file:///w/a.input.json': '../billing' });
    await memento.update('serverlessGpu.usedEndpoints.v1', ['echo', '../x', 42]);
    const memory = new EndpointMemory(memento);
    assert.equal(memory.endpointFor(file('/w/a.input.json')), undefined);
    assert.deepEqual(memory.usedEndpoints(), ['echo']);
  });
});

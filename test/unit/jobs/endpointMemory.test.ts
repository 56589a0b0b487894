// What the runner remembers per workspace (src/jobs/endpointMemory.ts): the endpoint per input file and the
// endpoints used here per service, most recent first; Clear Job History forgets the second and keeps the first.
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

  test('used endpoints are per service: after a switch, ids used on the other service are not offered', async () => {
    const memento = memoryMemento();
    let service = 'http://127.0.0.1:4000';
    const memory = new EndpointMemory(memento, () => service);
    await memory.rememberEndpoint(file('/w/a.input.json'), 'ef-logs');
    await memory.rememberInput('x3ojdha9', { prompt: 'x' });
    service = 'https://api.runpod.ai';
    assert.deepEqual(memory.usedEndpoints(), [], 'nothing used on this service yet');
    await memory.rememberInput('sdxl-prod', { prompt: 'y' });
    assert.deepEqual(memory.usedEndpoints(), ['sdxl-prod']);
    // The endpoint chosen for a file and the last inputs are not per service: they are the file's and the endpoint's.
    assert.equal(memory.endpointFor(file('/w/a.input.json')), 'ef-logs');
    service = 'http://127.0.0.1:4000';
    assert.deepEqual(memory.usedEndpoints(), ['x3ojdha9', 'ef-logs'], 'back on the first service, its own list');
    await memory.forgetUsedEndpoints();
    assert.deepEqual(memory.usedEndpoints(), []);
    service = 'https://api.runpod.ai';
    assert.deepEqual(memory.usedEndpoints(), [], 'Clear Job History forgets every service\'s list');
  });

  test('the list of before per-service lists is read as the first service\'s, then moved to it', async () => {
    const memento = memoryMemento();
    await memento.update('serverlessGpu.usedEndpoints.v1', ['echo', 'flux-dev']);
    const memory = new EndpointMemory(memento, () => 'https://api.runpod.ai');
    assert.deepEqual(memory.usedEndpoints(), ['echo', 'flux-dev']);
    await memory.rememberInput('sdxl-prod', { prompt: 'y' });
    assert.deepEqual(memory.usedEndpoints(), ['sdxl-prod', 'echo', 'flux-dev']);
    assert.equal(memento.get('serverlessGpu.usedEndpoints.v1'), undefined, 'the old list is gone once moved');
    assert.deepEqual(new EndpointMemory(memento, () => 'http://127.0.0.1:4000').usedEndpoints(), [], 'not another service\'s');
  });

  test('at most 20 services are remembered, the least recently used forgotten first', async () => {
    const memento = memoryMemento();
    let service = '';
    const memory = new EndpointMemory(memento, () => service);
    for (let i = 0; i < 22; i++) {
      service = `http://127.0.0.1:${4000 + i}`;
      await memory.rememberInput('echo', { prompt: String(i) });
    }
    assert.equal(Object.keys(memento.get<Record<string, string[]>>('serverlessGpu.usedEndpoints.v2', {})).length, 20);
    service = 'http://127.0.0.1:4001';
    assert.deepEqual(memory.usedEndpoints(), [], 'the second oldest is gone');
    service = 'http://127.0.0.1:4021';
    assert.deepEqual(memory.usedEndpoints(), ['echo']);
  });
});

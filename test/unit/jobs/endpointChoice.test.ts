// What Enter picks in the endpoint quick pick (src/jobs/endpointChoice.ts). The selected/active row the
// extension host sees at Enter can be stale (the rows are replaced on each keystroke), so the typed text decides
// first; a row the user reached with the arrow keys under the filter is still honoured.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptedEndpointId, checkEndpointId, rowNamed, type EndpointRow } from '../../../src/jobs/endpointChoice';

const row = (id: string, description?: string, label = id): EndpointRow => ({ label, endpointId: id, ...(description ? { description } : {}) });
const rows: EndpointRow[] = [
  row('wan-2-1-video', 'used here'),
  row('echo', 'used here'),
  row('kokoro-tts', 'used here'),
  row('sdxl-turbo', 'your endpoint'),
  row('abc123', 'abc123 · your endpoint', 'My renamed endpoint'),
];

describe('endpoint picker: what Enter picks', () => {
  test('a typed id that is a row\'s id wins over a stale selected row (typed "echo", the host still saw wan-2-1-video)', () => {
    assert.equal(acceptedEndpointId('echo', rows[0], rows), 'echo');
    assert.equal(acceptedEndpointId('  echo ', undefined, rows), 'echo');
  });

  test('a typed id that matches no row is taken over a stale row the filter does not show', () => {
    assert.equal(acceptedEndpointId('my-new-endpoint', rows[0], rows), 'my-new-endpoint');
    assert.equal(acceptedEndpointId('my-new-endpoint', undefined, rows), 'my-new-endpoint');
  });

  test('the typed id\'s own row (offered as "use this endpoint id") gives that id', () => {
    const typedRow: EndpointRow = { label: 'my-new-endpoint', description: 'use this endpoint id', endpointId: 'my-new-endpoint' };
    assert.equal(acceptedEndpointId('my-new-endpoint', typedRow, rows), 'my-new-endpoint');
  });

  test('a row reached with the arrow keys under a partial filter is the one picked, not the partial text', () => {
    assert.equal(acceptedEndpointId('sdx', rows[3], rows), 'sdxl-turbo');
    assert.equal(acceptedEndpointId('sdt', rows[3], rows), 'sdxl-turbo', 'fuzzy: its letters in order');
    assert.equal(acceptedEndpointId('renamed', rows[4], rows), 'abc123', 'matched on its label');
    assert.equal(acceptedEndpointId('yourendpoint', rows[3], rows), 'sdxl-turbo', 'matched on its description');
  });

  test('a typed endpoint name picks that endpoint\'s id, not a new id spelled like the name (the packaged test typed "Echo")', () => {
    const named: EndpointRow[] = [
      { label: 'Echo', description: 'echo', endpointId: 'echo' },
      { label: 'Twin', description: 'a1', endpointId: 'a1' },
      { label: 'Twin', description: 'a2', endpointId: 'a2' },
    ];
    // The focused row was the one offering "Echo" as an id of its own (the picker no longer adds it for a name).
    assert.equal(acceptedEndpointId('Echo', { label: 'Echo', description: 'use this endpoint id', endpointId: 'Echo' }, named), 'echo');
    assert.equal(rowNamed('Echo', named), 'echo');
    assert.equal(rowNamed('Twin', named), undefined, 'a name two endpoints share picks neither');
    assert.equal(acceptedEndpointId('Twin', named[2], named), 'a2', 'the row chosen among same-named ones');
  });

  test('nothing typed: the selected row', () => {
    assert.equal(acceptedEndpointId('', rows[2], rows), 'kokoro-tts');
    assert.equal(acceptedEndpointId('   ', undefined, rows), undefined);
  });

  test('a typed text that cannot be an endpoint id keeps the picker open (undefined) unless a shown row is chosen', () => {
    const invalidRow: EndpointRow = { label: 'a/b', description: checkEndpointId('a/b') ?? '' };
    assert.equal(acceptedEndpointId('a/b', invalidRow, rows), undefined);
    assert.equal(acceptedEndpointId('a/b', rows[0], rows), undefined);
    assert.equal(acceptedEndpointId('sdxl turbo', rows[3], rows), 'sdxl-turbo');
  });
});

describe('endpoint ids', () => {
  test('an id that could not sit in a URL path is refused with a reason (SPEC 4.2)', () => {
    assert.equal(checkEndpointId('sdxl-turbo'), undefined);
    assert.match(checkEndpointId('  ') ?? '', /Type an endpoint id/);
    assert.match(checkEndpointId('a b') ?? '', /no spaces/);
    assert.match(checkEndpointId('x'.repeat(201)) ?? '', /at most 200/);
  });
});

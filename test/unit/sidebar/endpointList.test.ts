// The Endpoints view's merge of billing, the account's endpoint list and the endpoints added by id
// (src/endpoints/billingTreeModel.ts), and the words of each endpoint item (itemText.ts), in plain Node.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildBillingTree, type EndpointNode } from '../../../src/endpoints/billingTreeModel';
import { buildBillingTable } from '../../../src/core/billing/billingTable';
import { endpointText, endpointTooltip } from '../../../src/endpoints/itemText';
import { aBillingResponse } from '../builders/billingResponse';

const billed = () => buildBillingTable(aBillingResponse().withEndpoints(['abc123', 'gone-1', 'free-one']).daily(3)
  .withAmounts((e) => (e === 2 ? { gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0 } : { gpuAmount: e === 0 ? 2 : 1, cpuAmount: 0, diskAmount: 0, feeAmount: 0 }))
  .build());

function byId(nodes: readonly EndpointNode[], id: string): EndpointNode {
  const n = nodes.find((e) => e.id === id);
  assert.ok(n, `no node ${id} in ${nodes.map((e) => e.id).join(', ')}`);
  return n;
}

describe('endpoint list merged with billing', () => {
  test('listed endpoints get their name; a listed endpoint with no spend is shown at $0.00; a billed one not in the list is deleted', () => {
    const model = buildBillingTree(billed(), [], [
      { id: 'abc123', name: 'SDXL prod' },
      { id: 'free-one', name: 'Free one' },
      { id: 'zz-new', name: 'Brand new' },
      { id: 'aa-new', name: 'Another new' },
    ]);
    assert.deepEqual(model.endpoints.map((e) => e.id), ['abc123', 'gone-1', 'free-one', 'aa-new', 'zz-new']);
    assert.equal(byId(model.endpoints, 'abc123').displayName, 'SDXL prod');
    assert.equal(byId(model.endpoints, 'abc123').deleted, false);
    assert.equal(byId(model.endpoints, 'gone-1').deleted, true);
    assert.equal(byId(model.endpoints, 'gone-1').displayName, undefined);
    assert.equal(byId(model.endpoints, 'zz-new').amounts.total, 0);
    assert.deepEqual(byId(model.endpoints, 'zz-new').buckets, []);
    assert.equal(byId(model.endpoints, 'zz-new').listed, true);
    assert.equal(endpointText(byId(model.endpoints, 'zz-new')).description, 'zz-new · $0.00');
    assert.deepEqual(endpointText(byId(model.endpoints, 'gone-1')), { label: 'gone-1', description: '$3.00 · deleted' }); // three daily buckets of $1
  });

  test('without a list (no route, or not readable) nothing is named or deleted: the view of before', () => {
    const model = buildBillingTree(billed(), [{ id: 'mine', displayName: 'Mine' }]);
    assert.deepEqual(model.endpoints.map((e) => [e.id, e.displayName, e.deleted, e.listed]), [
      ['abc123', undefined, false, false], ['gone-1', undefined, false, false], ['free-one', undefined, false, false], ['mine', 'Mine', false, false],
    ]);
  });

  test('an endpoint added by id is never deleted (public model ids are in no list), and its given name wins over the list\'s', () => {
    const model = buildBillingTree(billed(), [{ id: 'gone-1' }, { id: 'abc123', displayName: 'My name' }, { id: 'public-model' }], [{ id: 'abc123', name: 'Service name' }]);
    assert.equal(byId(model.endpoints, 'gone-1').deleted, false);
    assert.equal(byId(model.endpoints, 'abc123').displayName, 'My name');
    assert.equal(byId(model.endpoints, 'abc123').added, true);
    assert.equal(byId(model.endpoints, 'public-model').deleted, false);
    assert.equal(model.endpoints.at(-1)!.id, 'public-model');
  });

  test('a listed endpoint that was also added appears once; a list name equal to the id is no name; duplicate list ids appear once', () => {
    const model = buildBillingTree(billed(), [{ id: 'new-one' }], [{ id: 'new-one', name: 'new-one' }, { id: 'dup', name: 'Dup' }, { id: 'dup', name: 'Dup' }]);
    assert.equal(model.endpoints.filter((e) => e.id === 'new-one').length, 1);
    assert.equal(model.endpoints.filter((e) => e.id === 'dup').length, 1);
    assert.equal(byId(model.endpoints, 'new-one').displayName, undefined);
    assert.equal(endpointText(byId(model.endpoints, 'new-one')).description, '$0.00');
  });

  test('the tooltip names the endpoint with its id and says when it was deleted', () => {
    const model = buildBillingTree(billed(), [], [{ id: 'abc123', name: 'SDXL prod' }]);
    assert.match(endpointTooltip(byId(model.endpoints, 'abc123'), model.window), /^SDXL prod \(abc123\)\nTotal /);
    assert.match(endpointTooltip(byId(model.endpoints, 'gone-1'), model.window), /^gone-1\nDeleted: billed in this window, but no longer in the account's endpoint list\n/);
  });
});

describe('public models in the billing tree (issue 22)', () => {
  test('a billed public model in no endpoint list is a public model with its name and price, never "deleted"', () => {
    const table = buildBillingTable(aBillingResponse().withEndpoints(['black-forest-labs-flux-1-schnell', 'gone-2']).daily(2).build());
    const model = buildBillingTree(table, [], [{ id: 'abc123', name: 'SDXL prod' }]);
    const flux = byId(model.endpoints, 'black-forest-labs-flux-1-schnell');
    assert.equal(flux.deleted, false);
    assert.equal(flux.publicModel?.kind, 'image');
    assert.equal(flux.displayName, 'FLUX.1 schnell');
    const text = endpointText(flux).description;
    assert.match(text, /^black-forest-labs-flux-1-schnell · \$\d+\.\d{2,6} · \$0\.0024 per megapixel$/);
    assert.doesNotMatch(text, /deleted/);
    assert.match(endpointTooltip(flux, model.window), /Public model \(image\).*billed to this account per use/);
    assert.match(endpointTooltip(flux, model.window), /Source: https:\/\/docs\.runpod\.io\//);
    // An id of no catalog that is billed but not listed is still a deleted endpoint.
    assert.equal(byId(model.endpoints, 'gone-2').deleted, true);
  });
});

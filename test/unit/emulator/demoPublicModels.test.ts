// Issue 22: the catalog of public models is what the pickers offer, so every one of its ids must run on the
// demo emulator (FLUX.1 dev was offered and then refused as an unknown endpoint), as a public endpoint of its kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PUBLIC_MODELS } from '../../../src/core/serverless/publicModels';
import { demoConfig } from '../../../src/emulator/demo/demo';
import { parseConfig } from '../../../src/emulator/config';

test('the demo serves every public model of the catalog, as a public endpoint of its kind', () => {
  const config = parseConfig(demoConfig());
  const endpoints = config.users[0]!.endpoints;
  for (const model of PUBLIC_MODELS) {
    const served = endpoints.find((e) => e.id === model.id);
    assert.ok(served, `${model.id} is in the demo`);
    assert.equal(served.kind, `public-${model.kind}`, model.id);
    assert.equal(served.name, model.name, model.id);
  }
});

// Issue 28, Core: the core's zod schemas of the serverless routes checked against the platform's REST v2
// document (the project's copy, test/fixtures/rest-v2/): the request schemas take exactly the document's fields
// (an unknown field would be sent for nothing, a missing one could never be sent), and every example the
// document gives for these routes parses with the matching schema, requests strictly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as z from 'zod/mini';
import {
  CreateEndpointRequest, CreateGpuRequest, CreateTemplateRequest, UpdateEndpointRequest, UpdateGpuRequest, UpdateTemplateRequest, WorkersRequest,
} from '../../../src/core/serverless/requestSchemas';
import { ListGpuTypesResponse, ListTemplatesResponse, Template } from '../../../src/core/serverless/resourceSchemas';
import { ListEndpointsResponse, ServerlessEndpoint } from '../../../src/core/serverless/schemas';

const doc = JSON.parse(readFileSync(resolve(__dirname, '../../fixtures/rest-v2/serverless.openapi.json'), 'utf8'));

type Json = Record<string, any>;
const resolveRef = (n: Json): Json => (typeof n.$ref === 'string' ? resolveRef(n.$ref.slice(2).split('/').reduce((o: Json, k: string) => o[k], doc)) : n);

/** Every property a schema allows, through allOf and $ref. */
function properties(name: string): string[] {
  const out = new Set<string>();
  const walk = (n: Json): void => {
    const s = resolveRef(n);
    for (const k of Object.keys(s.properties ?? {})) out.add(k);
    for (const part of s.allOf ?? []) walk(part);
  };
  walk({ $ref: `#/components/schemas/${name}` });
  return [...out].sort();
}

const shapeKeys = (schema: z.ZodMiniObject): string[] => Object.keys(schema.def.shape).sort();

test('the request schemas take exactly the document\'s fields', () => {
  const pairs: Array<[string, z.ZodMiniObject]> = [
    ['CreateEndpointRequest', CreateEndpointRequest], ['UpdateEndpointRequest', UpdateEndpointRequest],
    ['CreateEndpointGpuConfig', CreateGpuRequest], ['UpdateEndpointGpuConfig', UpdateGpuRequest], ['EndpointWorkers', WorkersRequest],
    ['CreateTemplateRequest', CreateTemplateRequest], ['UpdateTemplateRequest', UpdateTemplateRequest],
  ];
  for (const [name, schema] of pairs) assert.deepEqual(shapeKeys(schema), properties(name), name);
});

test('every example of the document for these routes parses with the core\'s schema', () => {
  const examples = (path: string, method: string, where: 'request' | string): unknown[] => {
    const op = doc.paths[path][method];
    const content = where === 'request' ? op.requestBody.content : resolveRef(op.responses[where]).content;
    return Object.values(content['application/json'].examples ?? {}).map((e: any) => e.value);
  };
  const cases: Array<[unknown[], z.ZodMiniType, string]> = [
    [examples('/v2/serverless', 'get', '200'), ListEndpointsResponse, 'listEndpoints 200'],
    [examples('/v2/serverless', 'post', 'request'), CreateEndpointRequest, 'createEndpoint body'],
    [examples('/v2/serverless', 'post', '201'), ServerlessEndpoint, 'createEndpoint 201'],
    [examples('/v2/serverless/{id}', 'get', '200'), ServerlessEndpoint, 'getEndpoint 200'],
    [examples('/v2/templates', 'get', '200'), ListTemplatesResponse, 'listTemplates 200'],
    [examples('/v2/templates', 'post', 'request'), CreateTemplateRequest, 'createTemplate body'],
    [examples('/v2/templates', 'post', '201'), Template, 'createTemplate 201'],
    [examples('/v2/templates/{id}', 'patch', 'request'), UpdateTemplateRequest, 'updateTemplate body'],
    [examples('/v2/catalog/gpus', 'get', '200'), ListGpuTypesResponse, 'listGpuTypes 200'],
  ];
  for (const [values, schema, what] of cases) {
    assert.ok(values.length > 0, `${what}: the document has an example`);
    for (const v of values) {
      const r = schema.safeParse(v);
      assert.ok(r.success, `${what}: ${r.success ? '' : JSON.stringify(r.error.issues)}`);
    }
  }
});

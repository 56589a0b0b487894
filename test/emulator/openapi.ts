// Checks an emulator answer against the platform's REST v2 document (the project's own copy of its serverless
// part, test/fixtures/rest-v2/, with its origin and license): the status is one the operation documents (or its
// `default`), the content type is the documented one, the body validates against the documented schema (ajv,
// JSON Schema 2020-12, as OpenAPI 3.1 uses), and every header the response documents is present.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { Reply } from './harness';

const DOC_ID = 'rest-v2';
const doc = JSON.parse(readFileSync(resolve(__dirname, '../fixtures/rest-v2/serverless.openapi.json'), 'utf8'));

// strict off: the document carries OpenAPI keywords (discriminator, x-enum-varnames) beside JSON Schema's.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat('float', true);
ajv.addSchema(doc, DOC_ID);

type Json = Record<string, any>;

function deref(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const path = node.$ref.replace(/^#\//, '').split('/');
  return deref(path.reduce((o: Json, k: string) => o[k], doc));
}

const validators = new Map<string, ReturnType<typeof ajv.compile>>();

function validatorFor(pointer: string) {
  let v = validators.get(pointer);
  if (!v) validators.set(pointer, (v = ajv.compile({ $ref: `${DOC_ID}#${pointer}` })));
  return v;
}

/** The JSON pointer of the response body's schema, for ajv (refs resolved by ajv itself). */
function schemaPointer(path: string, method: string, status: string, responseRef: string | undefined, mediaType: string): string {
  const base = responseRef
    ? responseRef.replace(/^#/, '')
    : `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}`;
  return `${base}/content/${mediaType.replace(/\//g, '~1')}/schema`;
}

/**
 * Asserts that `r`, the answer to `method` on the documented `path` (the template, as `/v2/serverless/{id}`),
 * is what the document allows; returns the body.
 */
export function assertDocumented(r: Reply, method: string, path: string): any {
  const op = doc.paths[path]?.[method.toLowerCase()];
  assert.ok(op, `the document has no ${method} ${path}`);
  const status = String(r.status);
  const key = op.responses[status] ? status : 'default';
  const raw = op.responses[key] as Json | undefined;
  assert.ok(raw, `${method} ${path} answered ${status}, which the document does not list: ${r.text.slice(0, 300)}`);
  const response = deref(raw);
  for (const h of Object.keys(response.headers ?? {})) {
    if (['Cache-Control', 'Connection', 'X-Accel-Buffering', 'Retry-After', 'RateLimit', 'RateLimit-Policy'].includes(h) || deref(response.headers[h]).required) {
      assert.ok(r.headers[h.toLowerCase()] !== undefined, `${method} ${path} ${status}: the documented header ${h} is missing`);
    }
  }
  if (!response.content) {
    assert.equal(r.body.length, 0, `${method} ${path} ${status} has no body in the document, but one came: ${r.text.slice(0, 200)}`);
    return undefined;
  }
  const mediaType = Object.keys(response.content)[0]!;
  assert.match(String(r.headers['content-type']), new RegExp(`^${mediaType.replace(/[+/]/g, '\\$&')}\\b`), `${method} ${path} ${status}: content type`);
  if (mediaType === 'text/event-stream') return r.text;
  const validate = validatorFor(schemaPointer(path, method.toLowerCase(), key, typeof raw.$ref === 'string' ? raw.$ref : undefined, mediaType));
  const ok = validate(r.json);
  assert.ok(ok, `${method} ${path} ${status} does not match the document: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}\n${r.text.slice(0, 600)}`);
  return r.json;
}

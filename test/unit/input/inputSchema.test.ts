// The contributed JSON schema of input files (schemas/input.schema.json) and the core's wire schema must offer
// the same request options, each explained; and the manifest's Jobs welcome text must read as plain words
// (welcome views render links only: Markdown emphasis and backticks would show literally).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExecutionPolicy, RequestOptions, S3Config } from '../../../src/core/runtime/schemas';

const root = join(__dirname, '..', '..', '..');
const schema = JSON.parse(readFileSync(join(root, 'schemas', 'input.schema.json'), 'utf8')) as {
  then: { properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> };
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { viewsWelcome: Array<{ view: string; contents: string }> };
};

describe('input file schema: request options', () => {
  test('beside "input" it offers exactly the core\'s request options, each with a description', () => {
    const offered = Object.keys(schema.then.properties).filter((k) => k !== 'input' && k !== 'sweep').sort();
    assert.deepEqual(offered, Object.keys(RequestOptions.shape).sort());
    for (const key of offered) assert.ok(schema.then.properties[key]!.description, `${key} is described`);
  });

  test('policy and s3Config list the core\'s fields, each with a description', () => {
    for (const [key, shape] of [['policy', ExecutionPolicy.shape], ['s3Config', S3Config.shape]] as const) {
      const fields = schema.then.properties[key]!.properties ?? {};
      assert.deepEqual(Object.keys(fields).sort(), Object.keys(shape).sort(), key);
      for (const [name, field] of Object.entries(fields)) assert.ok(field.description, `${key}.${name} is described`);
    }
  });
});

describe('input file schema: sweep', () => {
  test('a sweep block is offered beside "input" only, described, as non-empty lists under dotted paths', () => {
    const sweep = schema.then.properties.sweep as { description?: string; minProperties?: number; propertyNames?: { pattern: string }; additionalProperties?: { type: string; minItems: number } };
    assert.match(sweep.description ?? '', /Cartesian product/);
    assert.equal(sweep.minProperties, 1);
    assert.deepEqual([sweep.additionalProperties?.type, sweep.additionalProperties?.minItems], ['array', 1]);
    const path = new RegExp(sweep.propertyNames!.pattern);
    assert.ok(path.test('seed') && path.test('sampling_params.max_tokens'));
    assert.ok(!path.test('a..b') && !path.test('.a') && !path.test(''));
  });
});

describe('the Jobs view\'s welcome text', () => {
  test('is plain words: no Markdown emphasis or backticks, which a welcome view shows literally', () => {
    const jobs = manifest.contributes.viewsWelcome.find((w) => w.view === 'serverlessGpu.jobs');
    assert.ok(jobs);
    assert.doesNotMatch(jobs.contents, /\*\*|`/);
    assert.match(jobs.contents, /\.input\.json/);
  });
});

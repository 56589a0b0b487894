// describeError (src/errors/describeError.ts): every core error becomes words a user can act on and the
// action that fixes it, and no message ever carries the key.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Commands } from '../../../src/connection/commandIds';
import {
  BadQueryError, ForbiddenError, NetworkError, NotFoundError, RateLimitedError, SchemaError, ServerError, TimeoutError, UnauthorizedError, ValidationError,
} from '../../../src/core/http/errors';
import { parseInputFile } from '../../../src/core/input/inputFile';
import { describeError } from '../../../src/errors/describeError';

const retry = { title: 'Retry', command: Commands.refreshEndpoints };

describe('describeError', () => {
  test('a bad input file names its position once, at the end of the sentence', () => {
    const describeFile = (text: string): string => {
      try {
        parseInputFile(text);
      } catch (e) {
        return describeError(e).message;
      }
      return assert.fail('the file was accepted');
    };
    assert.equal(describeFile('{\n  "a": 1,\n  "b": \n}'), 'The input file is not valid JSON: unexpected "}" where a value was expected (line 4, column 1).');
    assert.equal(describeFile('{"input": 1}'), '"input" must be a JSON object, not a number (line 1, column 11).');
  });

  test('401: the key was rejected, with Set API Key', () => {
    const d = describeError(new UnauthorizedError({ detail: 'expired' }));
    assert.match(d.message, /rejected \(401\)/);
    assert.deepEqual(d.actions.map((a) => a.command), [Commands.setApiKey]);
  });

  test('403 on billing says the key lacks billing:read and may still run jobs', () => {
    const d = describeError(new ForbiddenError({ detail: 'The key lacks the billing:read scope.' }), { operation: 'billing' });
    assert.match(d.message, /no access to billing \(it lacks the billing:read permission\)/);
    assert.match(d.message, /may still run jobs/);
    assert.equal(d.actions[0]?.command, Commands.setApiKey);
  });

  test('403 on run names the endpoint', () => {
    assert.match(describeError(new ForbiddenError(), { operation: 'run', endpointId: 'ep1' }).message, /may not run jobs on endpoint ep1/);
  });

  test('429: rate limited, next try in N s (rounded up), with the wait for an automatic retry', () => {
    const d = describeError(new RateLimitedError(11_200, { detail: 'Rate limit exceeded for the minute window.' }), { retry });
    assert.equal(d.message, 'Rate limited (Rate limit exceeded for the minute window): next try in 12 s.');
    assert.equal(d.retryAfterMs, 11_200);
    assert.deepEqual(d.actions, [retry]);
  });

  test('network: cannot reach HOST, with Retry first', () => {
    const d = describeError(new NetworkError('api.example.com', 'ECONNREFUSED'), { retry });
    assert.equal(d.message, 'Cannot reach api.example.com. Check the connection profile and your network.');
    assert.equal(d.actions[0], retry);
  });

  test('timeout names the host and the limit', () => {
    assert.equal(describeError(new TimeoutError('api.example.com', 30_000)).message, 'api.example.com did not answer within 30 s.');
  });

  test('schema: names the path that broke', () => {
    assert.equal(describeError(new SchemaError('records.3.totalAmount', 'expected number')).message, 'Unexpected response from the service at records.3.totalAmount: expected number');
  });

  test('validation lists the server\'s errors', () => {
    const d = describeError(new ValidationError(400, { detail: 'bad', errors: ['input: required', 'foo: unknown property'] }));
    assert.equal(d.message, 'The service rejected the request (400): input: required; foo: unknown property');
    assert.deepEqual(d.details, ['input: required', 'foo: unknown property']);
  });

  test('404 of a job says results are kept for 30 minutes', () => {
    assert.match(describeError(new NotFoundError(), { operation: 'status', jobId: 'job-1' }).message, /^Job job-1 was not found\. .*30 minutes/);
  });

  test('a bad billing query offers to change the window', () => {
    const d = describeError(new BadQueryError(['lastN must be at least 1']));
    assert.match(d.message, /lastN must be at least 1/);
    assert.equal(d.actions[0]?.command, Commands.changeBillingWindow);
  });

  test('a stray exception is still words, with Show Logs', () => {
    const d = describeError(new TypeError('x is undefined'));
    assert.equal(d.kind, 'unknown');
    assert.match(d.message, /x is undefined/);
    assert.ok(d.actions.some((a) => a.command === Commands.showLogs));
  });

  test('never the key: a server detail or exception quoting it is scrubbed', () => {
    const key = 'sk-live-0123456789abcdef';
    const texts = [
      describeError(new ServerError(500, { detail: `upstream said Bearer ${key} is odd` }), { secrets: [key] }).message,
      describeError(new Error(`request with key ${key} failed`), { secrets: [key] }).message,
      describeError(new ValidationError(400, { errors: [`token ${key} not allowed`] }), { secrets: [key] }).details!.join(' '),
      describeError(new ForbiddenError({ detail: `key ${key} lacks billing:read` }), { operation: 'billing', secrets: [key] }).message,
    ];
    for (const t of texts) assert.ok(!t.includes(key), t);
  });
});

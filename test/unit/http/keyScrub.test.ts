// Issue 12, finding 1: whatever a worker returns, the client hands back nothing that carries the API key. The
// transport scrubs every body by value before it is parsed, so each field the editor stores or shows (output,
// image_url and its rejection, workerId, error, a problem's detail) is clean however it spelled the key.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { parseOutputs } from '../../../src/core/outputs/outputs';
import { REDACTED, unescapePrintableAscii } from '../../../src/core/log';
import { json, problem, rejection, scriptedServers } from '../support/scriptedServer';

// A key with characters that URL-encoding and JSON-escaping change, so each form is a different string.
const KEY = 'rpa_PLANTED/key+"4f9a"';
const FORMS = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1)];
// Every ASCII character of the key as a \uXXXX escape: valid JSON that no by-value search of the raw text finds.
const ESCAPED = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const serve = scriptedServers();

function leaks(value: unknown): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...FORMS, ...FORMS.map((f) => JSON.stringify(f).slice(1, -1))].filter((f) => text.includes(f) || String(value).includes(f));
}

/** A job object echoing the key in every field a worker controls, in every spelling. */
function echoingJobBody(): string {
  const escaped = JSON.stringify(KEY).slice(1, -1);
  return `{"id":"job-1","status":"COMPLETED","workerId":"w-${escaped}","error":"echo: ${escaped}",` +
    `"output":{"text":"${escaped}","nested":[{"k":"Bearer ${escaped}"}],"image_url":"javascript:${escaped}",` +
    `"video_url":"https://cdn.example.invalid/v.webm?k=${encodeURIComponent(KEY)}","spelled":"${ESCAPED}"}}`;
}

describe('the API key never comes back out of the client (issue 12)', () => {
  test('a job that echoes the key into output, image_url, workerId and error is handed back without it', async () => {
    const server = await serve(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: echoingJobBody() }));
    const client = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: KEY });
    const job = await client.status('echo', 'job-1');
    assert.deepEqual(leaks(job), [], JSON.stringify(job));
    assert.equal(job.workerId, `w-${REDACTED}`);
    assert.equal(job.error, `echo: ${REDACTED}`);
    const output = job.output as Record<string, unknown>;
    assert.equal(output['text'], REDACTED);
    assert.equal(output['spelled'], REDACTED, 'spelled with \\u escapes');
    assert.equal(output['video_url'], `https://cdn.example.invalid/v.webm?k=${REDACTED}`);
    // The rejected image_url's reason quotes what it was given: the scrubbed text, never the key.
    const rejected = parseOutputs(job.output).filter((p) => p.kind === 'rejected');
    assert.ok(rejected.length >= 1);
    assert.deepEqual(leaks(rejected), []);
  });

  test('a problem+json detail that quotes the key becomes an error without it', async () => {
    const server = await serve([problem(400, `bad input near ${KEY}`, { errors: [`input.prompt: ${encodeURIComponent(KEY)}`] })]);
    const client = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: KEY });
    const e = await rejection(client.run('echo', { prompt: 'x' }));
    assert.deepEqual(leaks([e.message, (e as { problem?: unknown }).problem]), []);
    assert.match(e.message, /\[REDACTED\]/);
  });

  test('a run answer whose id is the key gives back no key', async () => {
    const server = await serve([json({ id: `id-${KEY}`, status: 'IN_QUEUE' })]);
    const client = createServiceClient({ billingBaseUrl: server.url, jobsBaseUrl: server.url, apiKey: KEY });
    assert.deepEqual(leaks(await client.run('echo', {})), []);
  });

  test('a clean body is passed on unchanged, and \\u escapes only become characters where that is the same JSON', () => {
    const clean = '{"records":[],"note":"caf\\u00e9 \\\\u0041 \\u000a"}';
    assert.equal(unescapePrintableAscii(clean), clean, 'non-ASCII, a control character and an escaped backslash stay');
    assert.equal(unescapePrintableAscii('{"a":"\\u0041\\u002f\\u0022\\u005c"}'), '{"a":"A/\\"\\\\"}');
    assert.deepEqual(JSON.parse(unescapePrintableAscii(`{"k":"${ESCAPED}"}`)), { k: KEY });
  });
});

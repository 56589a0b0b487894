// Issue 28, Core: a hosted worker's log as Server-Sent Events, read as it arrives; the parser takes the format
// in any chunking; a follow resumes with Last-Event-ID without repeating a line. Against the emulator.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../../../src/emulator/index';
import { createServiceClient } from '../../../src/core/http/client';
import { NotFoundError } from '../../../src/core/http/errors';
import { followWorkerLogs, SseParser } from '../../../src/core/serverless/workerLogs';

test('the SSE parser: events split across chunks, CRLF, comments, multi-line data, ids', () => {
  const text = ': keep-alive\r\n\r\nid: 1\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: 2\ndata: two\n\n';
  for (const size of [1, 3, 7, text.length]) {
    const p = new SseParser();
    const events = [];
    for (let i = 0; i < text.length; i += size) events.push(...p.push(text.slice(i, i + size)));
    assert.deepEqual(events, [{ id: '1', data: '{"a":\n1}' }, { id: '2', data: 'two' }], `chunks of ${size}`);
  }
});

test('followWorkerLogs: live lines, then a resume with Last-Event-ID that repeats nothing; 404 for an unknown worker', async () => {
  const emulator = await startEmulator({
    config: { users: [{ id: 'u', keys: [{ key: 'k', scopes: ['endpoints:read', 'jobs:run', 'jobs:read'] }], endpoints: [{ id: 'lg', kind: 'echo', queueMs: 0, executionMs: 50, idleTimeoutMs: 60_000 }] }] },
  });
  after(() => emulator.close());
  const settings = { billingBaseUrl: emulator.url, jobsBaseUrl: emulator.url, apiKey: 'k' };
  const client = createServiceClient(settings);
  const first = await client.runSync('lg', { n: 1 });
  assert.equal(first.status, 'COMPLETED');
  const [worker] = (await client.listEndpointWorkers('lg')).workers;
  const seen: string[] = [];
  const stop = new AbortController();
  const following = followWorkerLogs(settings, 'lg', worker!.id, {}, (e) => {
    seen.push(e.line);
    if (seen.length === 3) stop.abort();
  }, { signal: stop.signal });
  const r = await following;
  assert.equal(r.end, 'cancelled');
  assert.deepEqual(seen.slice(1), [`job ${first.id} started`, `job ${first.id} done in 50 ms`]);
  const second = await client.runSync('lg', { n: 2 });
  const more: string[] = [];
  const stop2 = new AbortController();
  await followWorkerLogs(settings, 'lg', worker!.id, { lastEventId: r.lastEventId! }, (e) => {
    more.push(e.line);
    if (more.length === 2) stop2.abort();
  }, { signal: stop2.signal });
  assert.deepEqual(more, [`job ${second.id} started`, `job ${second.id} done in 50 ms`]);
  await assert.rejects(followWorkerLogs(settings, 'lg', 'nobody', {}, () => undefined), NotFoundError);
});

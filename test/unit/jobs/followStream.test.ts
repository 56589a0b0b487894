// Following a job's text through /stream against a real local server: the text grows chunk by chunk, the
// follower ends with the job, learns which endpoints stream, and learns a service without the route once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServiceClient } from '../../../src/core/http/client';
import { followStream, shouldStream, StreamingEndpoints } from '../../../src/core/jobs/followStream';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import type { Clock } from '../../../src/core/http/clock';
import { json, problem, scriptedServers, type ScriptedServer } from '../support/scriptedServer';

const serve = scriptedServers();
const clientOf = (s: ScriptedServer) => createServiceClient({ billingBaseUrl: s.url, jobsBaseUrl: s.url, apiKey: 'k-stream-1234' }, { random: () => 0 });
/** A clock whose time moves only by its own sleeps, which it records (and ends at once). */
function virtualClock(): Clock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return { sleeps, now: () => now, sleep: async (ms) => { sleeps.push(ms); now += ms; } };
}
const batch = (...tokens: string[]) => ({ output: { choices: [{ tokens }], usage: { input: 2, output: tokens.length } } });

describe('followStream', () => {
  test('gathers the text of each vLLM batch as it comes, reports it, and ends with the job', async () => {
    const server = await serve([
      json({ status: 'IN_QUEUE', stream: [] }),
      json({ status: 'IN_PROGRESS', stream: [batch(' You', ' asked')] }),
      json({ status: 'IN_PROGRESS', stream: [batch(':', ' hi'), batch('.')] }),
      json({ status: 'COMPLETED', stream: [] }),
    ]);
    const seen: string[] = [];
    const statuses: string[] = [];
    const endpoints = new StreamingEndpoints();
    const result = await followStream(clientOf(server), 'llama', 'j1', {
      signal: new AbortController().signal, idleIntervalMs: 10, routeSupport: new RouteSupport(), endpoints,
      onText: (t) => seen.push(t), onStatus: (s) => statuses.push(s),
    });
    assert.deepEqual(result, { text: ' You asked: hi.', streamed: true });
    assert.deepEqual(seen, [' You asked', ' You asked: hi.']);
    assert.deepEqual(statuses, ['IN_QUEUE', 'IN_PROGRESS', 'IN_PROGRESS', 'COMPLETED']);
    assert.equal(endpoints.get(server.url, 'llama'), true);
    assert.ok(server.requests.every((r) => r.url === '/v2/llama/stream/j1'));
  });

  test('an endpoint whose job completes having streamed nothing before its end is learned as not streaming', async () => {
    const server = await serve([
      json({ status: 'IN_PROGRESS', stream: [] }),
      json({ status: 'COMPLETED', stream: [{ output: [{ image_url: 'data:image/png;base64,AAAA', seed: 1 }] }] }),
    ]);
    const endpoints = new StreamingEndpoints();
    const routes = new RouteSupport();
    const client = clientOf(server);
    assert.equal(shouldStream(client, 'sdxl', { routeSupport: routes, endpoints }), true, 'unknown endpoints are tried');
    const result = await followStream(client, 'sdxl', 'j1', { signal: new AbortController().signal, idleIntervalMs: 10, routeSupport: routes, endpoints, onText: () => undefined });
    assert.deepEqual(result, { text: '', streamed: false });
    assert.equal(shouldStream(client, 'sdxl', { routeSupport: routes, endpoints }), false);
  });

  test('an answer over the size a text stream has is left unread, and its endpoint learned as not streaming', async () => {
    // A plain handler's whole output handed over at its end, or a worker streaming big previews: text comes in
    // small answers. (A big final output read here too, beside the job's own wait, doubled the extension host's
    // memory peak for big images, issue 11.) Read, this one would be followed by more questions.
    const preview = { status: 'IN_PROGRESS', stream: [{ output: [{ image_url: `data:image/png;base64,${'A'.repeat(4000)}`, seed: 1 }] }] };
    const server = await serve([json({ status: 'IN_PROGRESS', stream: [] }), json(preview), json({ status: 'COMPLETED', stream: [] })]);
    const endpoints = new StreamingEndpoints();
    const routes = new RouteSupport();
    const client = clientOf(server);
    const result = await followStream(client, 'sdxl', 'j1', { signal: new AbortController().signal, idleIntervalMs: 10, routeSupport: routes, endpoints, onText: () => undefined, maxAnswerBytes: 1000 });
    assert.deepEqual(result, { text: '', streamed: false });
    assert.equal(server.requests.length, 2, 'not asked again');
    assert.equal(shouldStream(client, 'sdxl', { routeSupport: routes, endpoints }), false);
    assert.equal(routes.get(server.url, 'stream'), 'yes', 'the route is there');
  });

  test('a service without /stream is learned once: no stream is tried again', async () => {
    const server = await serve([problem(404, 'no route')]);
    const routes = new RouteSupport();
    const client = clientOf(server);
    const result = await followStream(client, 'ep', 'j1', { signal: new AbortController().signal, routeSupport: routes, endpoints: new StreamingEndpoints(), onText: () => undefined });
    assert.deepEqual(result, { text: '', streamed: false });
    assert.equal(shouldStream(client, 'other', { routeSupport: routes }), false);
  });

  test('an answer with nothing new is followed by a pause, not a tight loop', async () => {
    const server = await serve([json({ status: 'IN_PROGRESS', stream: [] }), json({ status: 'IN_PROGRESS', stream: [] }), json({ status: 'COMPLETED', stream: [] })]);
    // The pause is counted from when the previous request left, so it is read on a clock of our own (only its
    // sleeps move time): the server's arrival times, read before, could be less than the pause apart when the
    // first request's arrival lagged on a loaded machine (seen once under five engineers' load).
    const clock = virtualClock();
    await followStream(clientOf(server), 'ep', 'j1', { signal: new AbortController().signal, idleIntervalMs: 100, clock, routeSupport: new RouteSupport(), endpoints: new StreamingEndpoints(), onText: () => undefined });
    assert.equal(server.requests.length, 3);
    assert.deepEqual(clock.sleeps.slice(0, 1), [100], 'a pause of the idle interval before asking again');
  });

  test('while nothing comes the pause grows, up to its cap, and text or a new status brings it back down', async () => {
    // The pauses are read from a clock of our own (only its sleeps move time), so load on the machine cannot
    // change them: 80, 120, 180, 200 (capped); text: asked again at once; 80 again, then 120; the job leaves
    // the queue (a new status): 80 again.
    const replies: { status: string; stream: unknown[] }[] = [
      ...[[], [], [], []].map((stream) => ({ status: 'IN_QUEUE', stream })),
      { status: 'IN_QUEUE', stream: [{ output: 'hi' }] },
      { status: 'IN_QUEUE', stream: [] },
      { status: 'IN_QUEUE', stream: [] },
      { status: 'IN_PROGRESS', stream: [] },
      { status: 'IN_PROGRESS', stream: [] },
    ];
    const server = await serve((_req, i) => json(replies[i] ?? { status: 'COMPLETED', stream: [] }));
    const clock = virtualClock();
    await followStream(clientOf(server), 'ep', 'j1', {
      signal: new AbortController().signal, idleIntervalMs: 80, maxIdleIntervalMs: 200, clock, routeSupport: new RouteSupport(), endpoints: new StreamingEndpoints(), onText: () => undefined,
    });
    assert.deepEqual(clock.sleeps, [80, 120, 180, 200, 80, 120, 80, 120]);
  });

  test('an abort ends it with the text gathered so far', async () => {
    const controller = new AbortController();
    const server = await serve((_req, i) => json({ status: 'IN_PROGRESS', stream: i === 0 ? [{ output: 'partial ' }] : [] }));
    const result = await followStream(clientOf(server), 'ep', 'j1', {
      signal: controller.signal, idleIntervalMs: 20, routeSupport: new RouteSupport(), endpoints: new StreamingEndpoints(),
      onText: () => setTimeout(() => controller.abort(), 30),
    });
    assert.deepEqual(result, { text: 'partial ', streamed: true });
  });
});

describe('StreamingEndpoints', () => {
  test('what was learned is kept as JSON and read back leniently', () => {
    const learned = new StreamingEndpoints();
    learned.set('https://api.example', 'llama', true);
    learned.set('https://api.example', 'sdxl', false);
    const back = StreamingEndpoints.fromJSON(JSON.parse(JSON.stringify(learned.toJSON())));
    assert.equal(back.get('https://api.example', 'llama'), true);
    assert.equal(back.get('https://api.example', 'sdxl'), false);
    assert.equal(back.get('https://api.example', 'other'), undefined);
    for (const junk of [undefined, null, 'x', [1], { 'a b': 'yes' }]) assert.deepEqual(StreamingEndpoints.fromJSON(junk).toJSON(), {});
  });
});

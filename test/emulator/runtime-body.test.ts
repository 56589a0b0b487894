// Issue 9 "Request body": `input` plus the documented optional `webhook`, `policy` and `s3Config`; anything
// else stays a 400 naming it. Webhooks: when the job ends the emulator POSTs the /status JSON to a loopback URL
// (others are a 400 saying why), retried up to 2 more times, 10 s (emulator time) apart, on a non-2xx answer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { until } from '../unit/support/until';
import { assertProblem } from './assertions';
import { RT, useRuntimeEmulator } from './runtimeFixtures';

const rt = useRuntimeEmulator();
const api = rt.api;

const advance = rt.advance;
const run = (body: unknown) => api.call('POST', `/v2/${RT.webhook}/run`, body);

/** A real HTTP server on 127.0.0.1 that records each POST and answers with the next status of `answers`. */
async function hookServer(answers: number[]) {
  const calls: Array<{ body: any; at: number }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ body: JSON.parse(Buffer.concat(chunks).toString()), at: Date.now() });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
}


describe('the optional top-level fields', () => {
  test('webhook, policy and s3Config are accepted', async () => {
    const r = await run({
      input: { a: 1 },
      webhook: 'http://127.0.0.1:9/hook',
      policy: { executionTimeout: 900_000, lowPriority: false, ttl: 3_600_000 },
      s3Config: { accessId: 'id', accessSecret: 'secret', bucketName: 'b', endpointUrl: 'https://s3.example' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'IN_QUEUE');
  });

  const bad: Array<[string, unknown, string]> = [
    ['an unknown top-level field', { input: {}, webhookV3: 'x' }, "$: additional properties 'webhookV3' not allowed"],
    ['an unknown policy field', { input: {}, policy: { priority: 1 } }, "$.policy: additional properties 'priority' not allowed"],
    ['executionTimeout of 5000 (must be > 5000)', { input: {}, policy: { executionTimeout: 5000 } }, '$.policy.executionTimeout'],
    ['ttl under 10 s', { input: {}, policy: { ttl: 9999 } }, '$.policy.ttl'],
    ['ttl over a week', { input: {}, policy: { ttl: 604_800_001 } }, '$.policy.ttl'],
    ['lowPriority that is not a boolean', { input: {}, policy: { lowPriority: 'yes' } }, '$.policy.lowPriority'],
    ['s3Config without its fields', { input: {}, s3Config: { bucketName: 'b' } }, '$.s3Config.accessId'],
    ['a webhook that is not a URL', { input: {}, webhook: 'not a url' }, '$.webhook'],
    ['a webhook that is not loopback', { input: {}, webhook: 'https://example.com/hook' }, 'loopback'],
    ['a webhook on another scheme', { input: {}, webhook: 'ftp://127.0.0.1/x' }, '$.webhook'],
  ];
  for (const [what, body, named] of bad) {
    test(`${what} is 400 naming it`, async () => {
      const p = assertProblem(await run(body), 400);
      assert.ok(p.errors?.some((e) => e.includes(named)), `${named} not in ${JSON.stringify(p.errors)}`);
    });
  }
});

describe('webhook calls', () => {
  test('when the job ends, the /status JSON is POSTed once to the webhook', async () => {
    const hook = await hookServer([200]);
    try {
      const id = await api.submit(RT.webhook, { n: 1 }, { webhook: hook.url });
      await sleep(300);
      assert.equal(hook.calls.length, 0, 'not before the job ends');
      await advance(3000);
      await until('the webhook call', () => hook.calls.length === 1);
      const status = (await api.status(RT.webhook, id)).json;
      assert.deepEqual(hook.calls[0]!.body, status);
      assert.equal(status.status, 'COMPLETED');
      await advance(60_000);
      await sleep(300);
      assert.equal(hook.calls.length, 1, 'a 200 is not retried');
    } finally { await hook.close(); }
  });

  test('the job ends on the clock even when nobody reads it: the webhook still comes (real time only)', async () => {
    const hook = await hookServer([200]);
    try {
      await api.submit(RT.webhook, {}, { webhook: hook.url }); // queue 1 s + run 2 s of real time
      await until('the webhook call', () => hook.calls.length === 1, 10_000);
      assert.equal(hook.calls[0]!.body.status, 'COMPLETED');
    } finally { await hook.close(); }
  });

  test('a failing webhook is retried twice, 10 s of emulator time apart, then given up', async () => {
    const hook = await hookServer([500, 503, 500, 200]);
    try {
      const id = await api.submit(RT.webhook, {}, { webhook: hook.url });
      await advance(3000);
      await until('the first attempt', () => hook.calls.length === 1);
      await sleep(300);
      assert.equal(hook.calls.length, 1, 'the retry waits 10 s');
      await advance(10_000);
      await until('the second attempt', () => hook.calls.length === 2);
      await advance(10_000);
      await until('the third attempt', () => hook.calls.length === 3);
      await advance(60_000);
      await sleep(300);
      assert.equal(hook.calls.length, 3, 'no fourth attempt');
      for (const c of hook.calls) assert.equal(c.body.id, id);
    } finally { await hook.close(); }
  });

  test('cancelled and timed-out jobs call their webhook too', async () => {
    const hook = await hookServer([]);
    try {
      const id = await api.submit(RT.webhook, {}, { webhook: hook.url });
      await api.cancel(RT.webhook, id);
      await until('the cancel call', () => hook.calls.length === 1);
      assert.equal(hook.calls[0]!.body.status, 'CANCELLED');
      await api.submit(RT.timeout, {}, { webhook: hook.url });
      await advance(8000);
      await until('the timeout call', () => hook.calls.length === 2);
      assert.equal(hook.calls[1]!.body.status, 'TIMED_OUT');
    } finally { await hook.close(); }
  });
});

// SPEC 8 rules 1-4 and issue #3 "Rate limits": per user, across its keys, fixed windows aligned to UTC minute,
// hour and day boundaries. Every authenticated response carries RateLimit and RateLimit-Policy as structured
// field lists (parsed here with the structured-headers library); `r` already counts the request it answers; a
// 429 consumes nothing and says, in Retry-After, the longest wait among the exhausted windows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseList, type Item } from 'structured-headers';
import { moveClock, request, startEmulator, type Emulator, type Reply } from './harness';
import { assertProblem } from './assertions';
import { config, KEYS } from './fixtures';

/** Small quotas so each window can be used up: minute 2, hour 3, day 5. */
const LIMITS = { minute: 2, hour: 3, day: 5 };

let emu: Emulator;
before(async () => { emu = await startEmulator(config({ rateLimits: LIMITS })); });
after(async () => { await emu?.stop(); });

interface Window { name: string; params: Map<string, unknown> }

/** Parses a structured-field list of windows; fails the test on anything but three sf-string members. */
function windows(r: Reply, header: 'ratelimit' | 'ratelimit-policy'): Window[] {
  const raw = r.headers[header];
  assert.equal(typeof raw, 'string', `${header} missing on ${r.status}`);
  const list = parseList(raw as string);
  return list.map((member) => {
    assert.ok(!Array.isArray((member as Item)[0]), `${header}: an inner list is not a window`);
    const [name, params] = member as Item;
    assert.equal(typeof name, 'string', `${header}: window names are sf-strings ("minute"), got ${String(name)}`);
    return { name: name as string, params: params as Map<string, unknown> };
  });
}

/** {minute: [r, t], hour: [...], day: [...]} from RateLimit, checking the members, their order and parameters. */
function remaining(r: Reply): Record<'minute' | 'hour' | 'day', { r: number; t: number }> {
  const ws = windows(r, 'ratelimit');
  assert.deepEqual(ws.map((w) => w.name), ['minute', 'hour', 'day']);
  const out: Record<string, { r: number; t: number }> = {};
  for (const w of ws) {
    assert.deepEqual([...w.params.keys()].sort(), ['r', 't'], `RateLimit "${w.name}" params`);
    const rv = w.params.get('r');
    const tv = w.params.get('t');
    assert.ok(Number.isInteger(rv) && (rv as number) >= 0, `r=${String(rv)}`);
    assert.ok(Number.isInteger(tv) && (tv as number) >= 0, `t=${String(tv)}`);
    out[w.name] = { r: rv as number, t: tv as number };
  }
  return out as Record<'minute' | 'hour' | 'day', { r: number; t: number }>;
}

function rs(r: Reply): [number, number, number] {
  const x = remaining(r);
  return [x.minute.r, x.hour.r, x.day.r];
}

/** `t` is whole seconds to the window's end; allow for the real time between setting the clock and asking. */
function assertReset(actual: number, expectedSeconds: number, what: string) {
  assert.ok(actual <= expectedSeconds && actual >= expectedSeconds - 3, `${what}: t=${actual}, expected about ${expectedSeconds}`);
}

const billing = (key: string) => request(emu.url, '/v2/billing/serverless?lastN=1', { key });

describe('one user, three windows (clock set to 2026-06-15T12:00:05Z)', () => {
  test('r counts the request it answers, is shared by all of the user\'s keys, and t counts down to the UTC boundary', async () => {
    await moveClock(emu.url, { now: '2026-06-15T12:00:05Z' });
    const first = await billing(KEYS.full);
    assert.equal(first.status, 200, first.text);
    const a = remaining(first);
    assert.deepEqual([a.minute.r, a.hour.r, a.day.r], [1, 2, 4]);
    assertReset(a.minute.t, 55, 'minute');
    assertReset(a.hour.t, 3595, 'hour');
    assertReset(a.day.t, 12 * 3600 - 5, 'day');

    const second = await billing(KEYS.billing); // another key of the same user
    assert.equal(second.status, 200);
    assert.deepEqual(rs(second), [0, 1, 3]);
  });

  test('the third request in the minute is 429 with Retry-After = the minute\'s wait and a detail naming it', async () => {
    const r = await billing(KEYS.full);
    const p = assertProblem(r, 429);
    assert.match(p.detail, /minute/);
    const retry = Number(r.headers['retry-after']);
    assert.ok(Number.isInteger(retry), `Retry-After ${r.headers['retry-after']}`);
    assertReset(retry, 55, 'Retry-After');
    const x = remaining(r);
    assert.deepEqual([x.minute.r, x.hour.r, x.day.r], [0, 1, 3], 'a 429 consumes nothing');
    assert.equal(retry, x.minute.t);
  });

  test('a refused request consumes nothing: after two more 429s the next minute has the full hour left', async () => {
    assert.equal((await billing(KEYS.full)).status, 429);
    assert.equal((await billing(KEYS.expiresAt1pm)).status, 429); // any key of the user: the quota is per user
    await moveClock(emu.url, { now: '2026-06-15T12:01:00Z' });
    const r = await billing(KEYS.full);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(rs(r), [1, 0, 2]);
  });

  test('an exhausted hour gives 429 naming the hour with Retry-After to 13:00, though the minute has room', async () => {
    const r = await billing(KEYS.full);
    const p = assertProblem(r, 429);
    assert.match(p.detail, /hour/);
    assertReset(Number(r.headers['retry-after']), 3540, 'Retry-After');
    assert.deepEqual(rs(r), [1, 0, 2]);
  });

  test('another user is not limited by this one', async () => {
    const r = await billing(KEYS.bob);
    assert.equal(r.status, 200, r.text);
  });

  test('when minute and day are both exhausted, Retry-After is the longer wait (to midnight UTC)', async () => {
    await moveClock(emu.url, { now: '2026-06-15T13:00:00Z' });
    const a = await billing(KEYS.full);
    assert.equal(a.status, 200, a.text);
    assert.deepEqual(rs(a), [1, 2, 1]);
    const b = await billing(KEYS.full);
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(rs(b), [0, 1, 0]);
    const c = await billing(KEYS.full);
    const p = assertProblem(c, 429);
    assert.match(p.detail, /day/);
    assertReset(Number(c.headers['retry-after']), 11 * 3600, 'Retry-After');
  });

  test('job routes count against the same quota', async () => {
    const r = await request(emu.url, '/v2/echo/run', { key: KEYS.full, body: { input: {} } });
    assertProblem(r, 429);
  });

  test('at midnight UTC every window starts afresh', async () => {
    await moveClock(emu.url, { now: '2026-06-16T00:00:00Z' });
    const r = await billing(KEYS.full);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(rs(r), [1, 2, 4]);
    const x = remaining(r);
    assertReset(x.day.t, 86400, 'day');
  });

  test('requests without a valid key are not counted against the user', async () => {
    await moveClock(emu.url, { now: '2026-06-17T00:00:00Z' });
    for (let i = 0; i < 3; i++) assert.equal((await request(emu.url, '/v2/billing/serverless', { key: 'k-unknown' })).status, 401);
    const r = await billing(KEYS.full);
    assert.deepEqual(rs(r), [1, 2, 4]);
  });
});

// Later days only: the clock is never moved backwards in this file.
describe('headers', () => {
  test('RateLimit-Policy names each window with its quota and length in seconds', async () => {
    await moveClock(emu.url, { now: '2026-06-20T08:00:00Z' });
    const r = await billing(KEYS.bob);
    assert.equal(r.status, 200, r.text);
    const policy = windows(r, 'ratelimit-policy');
    assert.deepEqual(policy.map((w) => [w.name, Object.fromEntries(w.params)]), [
      ['minute', { q: 2, w: 60 }], ['hour', { q: 3, w: 3600 }], ['day', { q: 5, w: 86400 }],
    ]);
  });

  test('errors from an authenticated request (403, 400) carry the headers and count too', async () => {
    await moveClock(emu.url, { now: '2026-06-21T08:00:00Z' });
    const forbidden = await request(emu.url, '/v2/billing/serverless', { key: KEYS.runOnly });
    assertProblem(forbidden, 403);
    assert.deepEqual(rs(forbidden), [1, 2, 4]);
    const bad = await request(emu.url, '/v2/billing/serverless?bucketSize=nope', { key: KEYS.full });
    assertProblem(bad, 400);
    assert.deepEqual(rs(bad), [0, 1, 3]);
  });

  test('the job routes carry the headers and draw on the same windows as billing', async () => {
    await moveClock(emu.url, { now: '2026-06-22T08:00:00Z' });
    const run = await request(emu.url, '/v2/echo/run', { key: KEYS.full, body: { input: {} } });
    assert.equal(run.status, 200, run.text);
    assert.deepEqual(rs(run), [1, 2, 4]);
    const status = await request(emu.url, `/v2/echo/status/${run.json.id}`, { key: KEYS.full });
    assert.equal(status.status, 200, status.text);
    assert.deepEqual(rs(status), [0, 1, 3]);
    assert.equal(windows(status, 'ratelimit-policy').length, 3);
  });
});

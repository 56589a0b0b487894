// Issue #3 "How it starts" and "Configuration": the CLI's contract. One ready line with the URL, loopback by
// default, a free port for --port 0, a clean stop on SIGTERM/SIGINT, the admin routes only with --admin, the
// built-in demo without --config, and exit code 2 with the bad field named for a config it cannot accept.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, runCli, startEmulator, writeConfig } from './harness';
import { config } from './fixtures';

describe('starting and stopping', () => {
  test('the ready line names http://127.0.0.1:PORT with a real port, and it serves there', async () => {
    const emu = await startEmulator(config(), { admin: false, extraArgs: ['--host', '127.0.0.1'] });
    try {
      const m = /^http:\/\/127\.0\.0\.1:(\d+)$/.exec(emu.url);
      assert.ok(m, `ready URL ${emu.url} is not on 127.0.0.1`);
      assert.ok(Number(m[1]) > 0);
      const r = await request(emu.url, '/v2/billing/serverless', { key: 'k-full' });
      assert.equal(r.status, 200, r.text);
    } finally {
      await emu.stop();
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} stops it cleanly: exit code 0 and the port closed`, async () => {
      const emu = await startEmulator(config(), { admin: false });
      const { code, signal: killedBy } = await emu.stop(signal);
      assert.equal(killedBy, null, `killed by ${killedBy} instead of exiting`);
      assert.equal(code, 0, emu.output());
      await assert.rejects(request(emu.url, '/', { timeoutMs: 10_000 }), /ECONNREFUSED|ECONNRESET|socket hang up/);
    });
  }

  test('two emulators started with --port 0 get different ports', async () => {
    const a = await startEmulator(config(), { admin: false });
    const b = await startEmulator(config(), { admin: false });
    try {
      assert.notEqual(a.url, b.url);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

describe('the admin routes exist only with --admin', () => {
  test('without --admin, /__admin/clock and /__admin/faults are 404 and the clock does not move', async () => {
    const emu = await startEmulator(config(), { admin: false });
    try {
      assert.equal((await request(emu.url, '/__admin/clock', { method: 'POST', body: { advanceMs: 86_400_000 } })).status, 404);
      assert.equal((await request(emu.url, '/__admin/faults', { method: 'POST', body: {} })).status, 404);
      const r = await request(emu.url, '/v2/billing/serverless?lastN=1&bucketSize=day', { key: 'k-full' });
      assert.equal(new Date(r.json.metadata.query.startTime).toISOString(), '2026-06-15T00:00:00.000Z');
    } finally {
      await emu.stop();
    }
  });

  test('with --admin, the clock route answers the new time', async () => {
    const emu = await startEmulator(config(), { admin: true });
    try {
      const set = await request(emu.url, '/__admin/clock', { method: 'POST', body: { now: '2030-01-02T03:04:05Z' } });
      assert.equal(set.status, 200, set.text);
      const t = Date.parse(set.json.now);
      assert.ok(t >= Date.parse('2030-01-02T03:04:05Z') && t < Date.parse('2030-01-02T03:05:05Z'), set.text);
      const moved = await request(emu.url, '/__admin/clock', { method: 'POST', body: { advanceMs: 86_400_000 } });
      assert.equal(moved.status, 200, moved.text);
      const t2 = Date.parse(moved.json.now);
      assert.ok(t2 - t >= 86_400_000 && t2 - t < 86_400_000 + 60_000, moved.text);
      const bad = await request(emu.url, '/__admin/clock', { method: 'POST', body: { now: '2027-02-29T00:00:00Z' } });
      assert.equal(bad.status, 400, bad.text);
      // Billing defaults follow the moved clock: the current hour is now 2030-01-03T03:00Z.
      const billing = await request(emu.url, '/v2/billing/serverless?lastN=1&bucketSize=hour', { key: 'k-full' });
      assert.equal(billing.status, 200, billing.text);
      assert.equal(new Date(billing.json.metadata.query.startTime).toISOString(), '2030-01-03T03:00:00.000Z');
    } finally {
      await emu.stop();
    }
  });
});

describe('the built-in demo (no --config)', () => {
  test('the documented demo keys and endpoints work, and every bucket size shows some usage', async () => {
    const emu = await startEmulator(undefined, { admin: false });
    try {
      for (const bucketSize of ['hour', 'day', 'week', 'month', 'year']) {
        const lastN = bucketSize === 'hour' ? 48 : bucketSize === 'year' ? 2 : 13;
        const r = await request(emu.url, `/v2/billing/serverless?bucketSize=${bucketSize}&lastN=${lastN}`, { key: 'demo-key-full' });
        assert.equal(r.status, 200, r.text);
        assert.ok(r.json.metadata.totals.totalAmount > 0, `no usage by ${bucketSize}`);
      }
      assert.equal((await request(emu.url, '/v2/billing/serverless', { key: 'demo-key-billing' })).status, 200);
      assert.equal((await request(emu.url, '/v2/sdxl-turbo/run', { key: 'demo-key-billing', body: { input: {} } })).status, 403);
      assert.equal((await request(emu.url, '/v2/sdxl-turbo/run', { key: 'demo-key-sdxl', body: { input: { prompt: 'x' } } })).status, 200);
      assert.equal((await request(emu.url, '/v2/flux-dev/run', { key: 'demo-key-sdxl', body: { input: { prompt: 'x' } } })).status, 403);
      for (const ep of ['sdxl-turbo', 'flux-dev', 'broken-gpu', 'black-forest-labs-flux-1-schnell', 'wan-2-1-video', 'kokoro-tts', 'echo']) {
        const r = await request(emu.url, `/v2/${ep}/run`, { key: 'demo-key-full', body: { input: { prompt: 'x' } } });
        assert.equal(r.status, 200, `${ep}: ${r.text}`);
        assert.equal(r.json.status, 'IN_QUEUE');
      }
    } finally {
      await emu.stop();
    }
  });
});

describe('a config it cannot accept exits with code 2 and names the bad field', () => {
  const good = config();
  const cases: Array<[string, unknown, RegExp]> = [
    ['a quota that is not a number', { ...good, rateLimits: { ...good.rateLimits, minute: 'sixty' } }, /rateLimits.*minute|minute.*rateLimits/],
    ['an impossible now', { ...good, now: '2027-02-29T00:00:00Z' }, /\bnow\b/],
    ['a negative retentionMinutes', { ...good, retentionMinutes: -5 }, /retentionMinutes/],
    ['an unknown scope', { ...good, users: [{ ...good.users[0], keys: [{ key: 'k', scopes: ['jobs:destroy'] }] }] }, /scopes/],
    ['an unknown endpoint kind', { ...good, users: [{ ...good.users[0], endpoints: [{ id: 'x', kind: 'hologram' }] }] }, /kind/],
    ['a usage event with an unparseable time', { ...good, users: [{ ...good.users[0], usage: [{ serverlessId: 'ep1', time: 'yesterday', gpuAmount: 1, cpuAmount: 0, diskAmount: 0, feeAmount: 0 }] }] }, /time/],
    ['users that is not an array', { ...good, users: {} }, /users/],
  ];
  for (const [what, bad, names] of cases) {
    test(`${what}`, async () => {
      const { file, cleanup } = writeConfig(bad);
      try {
        const { code, output } = await runCli(['--port', '0', '--config', file]);
        assert.equal(code, 2, output);
        assert.match(output, names);
      } finally {
        cleanup();
      }
    });
  }

  test('a file that is not JSON', async () => {
    const { file, cleanup } = writeConfig('{ "now": ');
    try {
      const { code, output } = await runCli(['--port', '0', '--config', file]);
      assert.equal(code, 2, output);
      assert.ok(output.trim().length > 0, 'no message');
    } finally {
      cleanup();
    }
  });

  for (const args of [['--port', 'not-a-port'], ['--port', '70000'], ['--bogus-flag']]) {
    test(`a bad command line (${args.join(' ')}) exits with code 2`, async () => {
      const { code, output } = await runCli(args);
      assert.equal(code, 2, output);
      assert.ok(output.trim().length > 0, 'no message');
    });
  }

  test('a file that does not exist', async () => {
    const { code, output } = await runCli(['--port', '0', '--config', '/nonexistent/emulator-config.json']);
    assert.equal(code, 2, output);
    assert.match(output, /emulator-config\.json/);
  });
});

// Issue 28: a process worker's real stdout and stderr through the REST v2 route GET
// /v2/serverless/<id>/workers/<worker>/logs (Server-Sent Events), the same route simulated workers answer: the
// handler's own print lines arrive as `container`, the emulator's lines about the worker as `system`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Emulator } from '../emulator/harness';
import { api, KEY, skipReason, startWorkerEmulator, waitFor, workerEndpoint } from './workerHarness';

const skip = skipReason();

/** The events of a worker's log stream, read until `done` holds or `ms` passed. */
function readEvents(url: string, done: (lines: Array<{ source: string; line: string }>) => boolean, ms = 20_000): Promise<Array<{ source: string; line: string; ts: string }>> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${KEY}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`logs: ${res.statusCode}`));
      let text = '';
      const events = (): Array<{ source: string; line: string; ts: string }> =>
        text.split('\n\n').slice(0, -1).map((b) => /^data: (.*)$/m.exec(b)?.[1]).filter((d): d is string => !!d).map((d) => JSON.parse(d));
      const finish = (): void => { clearTimeout(timer); req.destroy(); resolve(events()); };
      const timer = setTimeout(finish, ms);
      res.setEncoding('utf8');
      res.on('data', (d: string) => { text += d; if (done(events())) finish(); });
      res.on('end', finish);
    });
    req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
  });
}

describe('process workers on the REST worker logs route', { skip }, () => {
  let emu: Emulator;
  before(async () => { emu = await startWorkerEmulator([workerEndpoint('sleepy', 'sleeping_handler.py')]); });
  after(async () => { await emu?.stop(); });

  test("the handler's own lines arrive as container events, live, and the emulator's as system", async () => {
    const a = api(emu);
    const id = await a.submit('sleepy', { seconds: 0.2 });
    assert.equal((await a.settle('sleepy', id)).status, 'COMPLETED');
    const worker = await waitFor('a worker', async () => (await a.get('/v2/serverless/sleepy/workers')).json?.workers?.[0]);
    const url = `${emu.url}/v2/serverless/sleepy/workers/${worker.id}/logs?source=container`;
    const backfill = await readEvents(url, (ev) => ev.some((e) => e.line.includes(`sleeping worker: 0.2 s for ${id}`)));
    assert.ok(backfill.some((e) => e.line === `sleeping worker: 0.2 s for ${id}`), JSON.stringify(backfill));
    assert.ok(backfill.every((e) => e.source === 'container'));
    // Live: a second job's print arrives on a stream opened before it.
    const live = readEvents(`${url}&tail=0`, (ev) => ev.some((e) => e.line.startsWith('sleeping worker: 0.3 s')));
    await new Promise((r) => setTimeout(r, 300));
    const id2 = await a.submit('sleepy', { seconds: 0.3 });
    const lines = await live;
    assert.ok(lines.some((e) => e.line === `sleeping worker: 0.3 s for ${id2}`), JSON.stringify(lines));
    const system = await readEvents(`${emu.url}/v2/serverless/sleepy/workers/${worker.id}/logs?source=system`, (ev) => ev.length > 0, 3000);
    assert.ok(system.length > 0 && system.every((e) => e.source === 'system'), JSON.stringify(system));
  });
});

// dist/rooms.js (src/rooms, issues 28 and 30): the rooms a session may never open are a second bundle, loaded on
// first use, that takes every module it shares with dist/extension.js from extension.js itself. One instance of
// shared state: an error thrown by extension.js's HTTP client is `instanceof` the class a room checks against, and
// a store a room reads is the one the host writes.
import * as assert from 'node:assert/strict';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { activateExtension } from './support/extension';
import { startEmulator, type RunningEmulator } from './support/emulator';

suite('rooms: the second bundle', () => {
  let api: JobRunnerApi;
  let emulator: RunningEmulator | undefined;

  suiteSetup(async () => {
    const ext = await activateExtension();
    api = (ext.exports as { jobs: JobRunnerApi }).jobs;
    emulator = await startEmulator(ext.extensionPath);
  });
  suiteTeardown(async () => emulator?.close());

  test('an error from the host\'s HTTP client is instanceof the class the rooms see (one copy of the error classes)', async () => {
    const client = api.createClient({ billingBaseUrl: emulator!.url, jobsBaseUrl: emulator!.url, apiKey: 'demo-key-full' });
    const { errors } = api.rooms.probe();
    assert.ok(api.rooms.loaded(), 'asking for a room loads rooms.js');
    const thrown = await client.status('echo', 'no-such-job').then(() => undefined, (e: unknown) => e);
    assert.ok(thrown instanceof Error, `a 404 is an error: ${String(thrown)}`);
    assert.ok(thrown instanceof errors.NotFoundError, `the host's 404 (${thrown.constructor.name}) is the NotFoundError rooms.js checks against`);
    assert.ok(thrown instanceof errors.ServiceError);
  });

  test('a store the rooms read is the host\'s own object, not a second one', () => {
    const { prices } = api.rooms.probe();
    assert.equal(prices.sharedEndpointPrices, api.rooms.host.sharedEndpointPrices);
  });
});

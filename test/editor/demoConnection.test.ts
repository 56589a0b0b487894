// npm start's hand-over (src/demo/demoConnection.ts): the window opens on the profile npm start names, with
// the emulator's demo key, but only for a profile on this machine: the public demo key never goes elsewhere.
// A stand-in connection keeps the shared extension host's real profiles and keys untouched; the real wiring is
// what test/editor-host/start-smoke.mjs checks (the tree loads, the status bar names the demo profile).
import * as assert from 'node:assert/strict';
import type { Profile } from '../../src/config/settings';
import type { Logger } from '../../src/core/log';
import { connectDemoProfile, DEMO_PROFILE_ENV } from '../../src/demo/demoConnection';
import { EMULATOR_DEMO_KEY } from '../../src/connection/profiles';

const DEFAULT: Profile = { name: 'Default', billingBaseUrl: 'https://api.runpod.io', jobsBaseUrl: 'https://api.runpod.ai' };
const LOCAL: Profile = { name: 'Demo emulator (npm start)', billingBaseUrl: 'http://127.0.0.1:4321', jobsBaseUrl: 'http://127.0.0.1:4321' };
const HALF_REMOTE: Profile = { name: 'Half remote', billingBaseUrl: 'http://127.0.0.1:4321', jobsBaseUrl: 'https://jobs.example.com' };

/** Profiles by name, keys by profile name, as the real Connection keeps them. */
function standInConnection(profiles: Profile[], keys: Record<string, string> = {}) {
  let active = profiles[0]!;
  return {
    keys,
    profiles: { list: () => profiles },
    get profile(): Profile {
      return active;
    },
    switched: [] as string[],
    async switchProfile(name: string) {
      this.switched.push(name);
      active = profiles.find((p) => p.name === name) ?? profiles[0]!;
    },
    async hasKey(profile: Profile = active) {
      return profile.name in keys;
    },
    async setApiKey(key: string, profile: Profile = active) {
      keys[profile.name] = key;
    },
  };
}

function recording(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, trace() {}, debug() {}, info() {}, warn: (m: string | Error) => void warnings.push(String(m)), error() {} };
}

suite('npm start demo connection', () => {
  test('without the variable nothing changes', async () => {
    const c = standInConnection([DEFAULT, LOCAL]);
    assert.equal(await connectDemoProfile(c, {}, recording()), 'skipped');
    assert.equal(c.profile.name, 'Default');
    assert.deepEqual(c.keys, {});
  });

  test('the named loopback profile becomes active with the emulator demo key', async () => {
    const c = standInConnection([DEFAULT, LOCAL]);
    assert.equal(await connectDemoProfile(c, { [DEMO_PROFILE_ENV]: LOCAL.name }, recording()), 'connected');
    assert.equal(c.profile.name, LOCAL.name);
    assert.deepEqual(c.keys, { [LOCAL.name]: EMULATOR_DEMO_KEY });
  });

  test('a key the profile already has is kept', async () => {
    const c = standInConnection([DEFAULT, LOCAL], { [LOCAL.name]: 'my-own-key' });
    assert.equal(await connectDemoProfile(c, { [DEMO_PROFILE_ENV]: LOCAL.name }, recording()), 'connected');
    assert.deepEqual(c.keys, { [LOCAL.name]: 'my-own-key' });
  });

  test('a profile with any host off this machine never gets the demo key', async () => {
    const c = standInConnection([DEFAULT, HALF_REMOTE]);
    const log = recording();
    assert.equal(await connectDemoProfile(c, { [DEMO_PROFILE_ENV]: HALF_REMOTE.name }, log), 'skipped');
    assert.deepEqual(c.keys, {});
    assert.match(log.warnings.join('\n'), /not on this machine/);
  });

  test('an unknown profile name is reported and nothing else happens', async () => {
    const c = standInConnection([DEFAULT, LOCAL]);
    const log = recording();
    assert.equal(await connectDemoProfile(c, { [DEMO_PROFILE_ENV]: 'No such profile' }, log), 'skipped');
    assert.equal(c.profile.name, 'Default');
    assert.deepEqual(c.switched, [], 'an unknown name is never made the active profile');
    assert.deepEqual(c.keys, {});
    assert.match(log.warnings.join('\n'), /no profile named "No such profile"/);
  });
});

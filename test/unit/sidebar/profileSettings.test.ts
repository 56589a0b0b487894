// The profiles setting (src/config/profileSettings.ts): where the API key may be sent. https anywhere, plain
// http only to this machine, no credentials in URLs, built-in names not redefinable; bad entries are skipped
// with a reason, never fatal.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkBaseUrl, hostOf, parseProfiles } from '../../../src/config/profileSettings';

describe('profiles setting', () => {
  test('https anywhere and http only on loopback', () => {
    assert.equal(checkBaseUrl('https://api.example.com'), undefined);
    assert.equal(checkBaseUrl('http://127.0.0.1:8080'), undefined);
    assert.equal(checkBaseUrl('http://localhost:3000'), undefined);
    assert.match(checkBaseUrl('http://api.example.com') ?? '', /must use https/);
    assert.equal(checkBaseUrl('http://[::1]:8080'), undefined);
    assert.match(checkBaseUrl('http://127.0.0.1.example.com') ?? '', /must use https/, 'a host that merely starts like loopback');
    assert.match(checkBaseUrl('http://localhost.example.com') ?? '', /must use https/);
    assert.match(checkBaseUrl('ftp://127.0.0.1') ?? '', /must use https/);
    assert.match(checkBaseUrl('https://user:pw@api.example.com') ?? '', /user name or password/);
    assert.match(checkBaseUrl('https://api.example.com/?x=1') ?? '', /query/);
    assert.match(checkBaseUrl('not a url') ?? '', /not a URL/);
  });

  test('valid entries are kept (trailing slash dropped); bad ones are reported by index and field', () => {
    const { profiles, problems } = parseProfiles([
      { name: 'Staging', billingBaseUrl: 'https://billing.staging.example/', jobsBaseUrl: 'https://jobs.staging.example' },
      { name: 'Plain', billingBaseUrl: 'http://evil.example', jobsBaseUrl: 'https://jobs.example' },
      { name: 'Default', billingBaseUrl: 'https://evil.example', jobsBaseUrl: 'https://evil.example' },
      { name: 'Local emulator', billingBaseUrl: 'https://evil.example', jobsBaseUrl: 'https://evil.example' },
      { name: 'Staging', billingBaseUrl: 'https://other.example', jobsBaseUrl: 'https://other.example' },
      'nonsense',
    ]);
    assert.deepEqual(profiles, [{ name: 'Staging', billingBaseUrl: 'https://billing.staging.example', jobsBaseUrl: 'https://jobs.staging.example' }]);
    assert.equal(problems.length, 5);
    assert.match(problems[0]!, /^serverlessGpu\.profiles\[1\]\.billingBaseUrl: .*must use https/);
    assert.match(problems[1]!, /\[2\]: the name "Default" is already taken/);
    assert.match(problems[2]!, /\[3\]: the name "Local emulator" is already taken/);
    assert.match(problems[3]!, /\[4\]: the name "Staging" is already taken/);
    assert.match(problems[4]!, /^serverlessGpu\.profiles\[5\]/);
  });

  test('no setting: no profiles, no problems; a non-array is one problem', () => {
    assert.deepEqual(parseProfiles(undefined), { profiles: [], problems: [] });
    assert.deepEqual(parseProfiles({}).problems, ['serverlessGpu.profiles must be an array']);
  });

  test('messages name a base URL by its host and port; text that is no URL is shown as it is', () => {
    assert.equal(hostOf('https://api.runpod.io'), 'api.runpod.io');
    assert.equal(hostOf('http://127.0.0.1:8080/base/'), '127.0.0.1:8080');
    assert.equal(hostOf('not a url'), 'not a url');
  });
});

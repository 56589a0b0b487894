// Issue 12, finding 3: a cloned repository's .vscode/settings.json must not choose where files are written.
// A workspace's outputs folder outside the workspace needs the user's confirmation; the user's own setting
// does not; inside the workspace nothing is asked.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { isInside, pickOutputsDirectory, resolveOutputsRoot } from '../../../src/jobs/outputsLocation';

const ws = path.resolve('/home/me/project');

describe('where outputs may be written (issue 12)', () => {
  test('a workspace value outside the workspace (absolute or by "..") needs a confirmation, and falls back inside it', () => {
    for (const value of ['/etc/cron.d', '../../.ssh', '/home/me/project/../other']) {
      const root = resolveOutputsRoot({ value, fromWorkspace: true }, ws, []);
      assert.equal(root.needsConfirmation, true, value);
      assert.equal(root.fallback, path.join(ws, '.serverless-outputs'));
    }
  });

  test('once that folder is confirmed it is used, and only that folder', () => {
    assert.equal(resolveOutputsRoot({ value: '/data/outputs', fromWorkspace: true }, ws, ['/data/outputs']).needsConfirmation, false);
    assert.equal(resolveOutputsRoot({ value: '/data/outputs2', fromWorkspace: true }, ws, ['/data/outputs']).needsConfirmation, true);
  });

  test('the user\'s own setting and any folder inside the workspace are used without a question', () => {
    assert.deepEqual(resolveOutputsRoot({ value: '/data/outputs', fromWorkspace: false }, ws, []), {
      dir: '/data/outputs', needsConfirmation: false, fallback: path.join(ws, '.serverless-outputs'),
    });
    assert.equal(resolveOutputsRoot({ value: 'out/jobs', fromWorkspace: true }, ws, []).dir, path.join(ws, 'out/jobs'));
    assert.equal(resolveOutputsRoot({ value: `${ws}/out`, fromWorkspace: true }, ws, []).needsConfirmation, false);
    assert.equal(resolveOutputsRoot({ value: '  ', fromWorkspace: true }, ws, []).dir, path.join(ws, '.serverless-outputs'));
  });

  test('an untrusted workspace\'s value is not read at all: the user\'s value or the default counts', () => {
    const info = { globalValue: '/data/mine', workspaceValue: '/etc/cron.d' };
    assert.deepEqual(pickOutputsDirectory(info, false), { value: '/data/mine', fromWorkspace: false });
    assert.deepEqual(pickOutputsDirectory({ workspaceValue: '/etc/cron.d' }, false), { value: '.serverless-outputs', fromWorkspace: false });
    assert.deepEqual(pickOutputsDirectory(info, true), { value: '/etc/cron.d', fromWorkspace: true }, 'trusted: the workspace value, marked as such');
    assert.deepEqual(pickOutputsDirectory({ workspaceValue: '  ' }, true), { value: '.serverless-outputs', fromWorkspace: false });
  });

  test('inside means inside: a sibling whose name starts the same is outside', () => {
    assert.equal(isInside(ws, `${ws}-evil/x`), false);
    assert.equal(isInside(ws, `${ws}/a/../b`), true);
  });
});

describe('an outputs folder that leads out of the workspace through a symbolic link (review finding 5)', () => {
  test('a committed link as the default folder, or under a workspace value, counts as outside; the fallback is the extension\'s own folder', async () => {
    const { mkdtempSync, mkdirSync, symlinkSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(path.join(tmpdir(), 'outputs-link-'));
    try {
      const project = path.join(root, 'project');
      const elsewhere = path.join(root, 'elsewhere');
      mkdirSync(project);
      mkdirSync(elsewhere);
      mkdirSync(path.join(project, 'real-out'));
      symlinkSync(elsewhere, path.join(project, '.serverless-outputs'));
      symlinkSync(elsewhere, path.join(project, 'out'));
      const privateDir = path.join(root, 'storage', 'outputs');

      const byDefault = resolveOutputsRoot({ value: '.serverless-outputs', fromWorkspace: false }, project, [], privateDir);
      assert.equal(byDefault.needsConfirmation, true, 'the default folder is a link out of the workspace');
      assert.equal(byDefault.fallback, privateDir, 'and so is not its own fallback');

      const underLink = resolveOutputsRoot({ value: 'out/jobs', fromWorkspace: true }, project, [], privateDir);
      assert.equal(underLink.needsConfirmation, true, 'a folder not created yet under a link is outside too');

      const real = resolveOutputsRoot({ value: 'real-out', fromWorkspace: true }, project, [], privateDir);
      assert.equal(real.needsConfirmation, false, 'a real folder inside the workspace needs no question');
      assert.equal(real.fallback, privateDir, 'the fallback avoids the linked default folder');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

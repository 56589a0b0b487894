// A batch's folders are not watched by the editor (package.json `configurationDefaults`, docs/decisions.md issue
// 30, "tenth pass"): a 10,000-job batch writes 10,000 folders, and the editor's file watcher, the workbench and
// code-server's server spent ~14 s of CPU relaying their events, on the cores the extension host needs. Nothing of
// ours listens to them; a single job's folder stays watched (the Explorer shows it as it is written).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, eventually, workspaceFolder } from './support/extension';

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Makes `dir` one level at a time, each given time to be watched: the watcher adds a new folder too late for the
 * folders made inside it at once (`mkdir -p`), and nothing in those was ever reported, with or without exclusions.
 */
async function mkdirSlowly(root: string, dir: string): Promise<void> {
  let at = root;
  for (const part of path.relative(root, dir).split(path.sep)) {
    at = path.join(at, part);
    if (fs.existsSync(at)) continue;
    fs.mkdirSync(at);
    await delay(700);
  }
}

suite('outputs folder watching (issue 30)', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  test('the batches folder is left out of the watcher; the editor default exclusions stay', () => {
    const excluded = vscode.workspace.getConfiguration('files').get<Record<string, boolean>>('watcherExclude') ?? {};
    assert.equal(excluded['**/.serverless-outputs/batches/**'], true);
    // A contributed default is merged into the editor's own, not put in its place.
    assert.equal(excluded['**/.git/objects/**'], true);
  });

  test("files written in a batch's folder raise no watcher event; a single job's folder still does", async function () {
    this.timeout(60_000);
    const root = workspaceFolder().uri.fsPath;
    const seen: string[] = [];
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.txt');
    watcher.onDidCreate((u) => seen.push(u.fsPath));
    watcher.onDidChange((u) => seen.push(u.fsPath));
    try {
      const stamp = Date.now();
      const inBatch = path.join(root, '.serverless-outputs', 'batches', `watch-${stamp}`, 'echo', 'job-1', 'output.txt');
      const single = path.join(root, '.serverless-outputs', 'echo', `watch-${stamp}`, 'output.txt');
      await mkdirSlowly(root, path.dirname(single));
      await mkdirSlowly(root, path.dirname(inBatch));
      // The watcher is told of its pattern through the server: the single job's file is written again until an
      // event comes, and only then the batch's.
      await eventually(async () => {
        fs.writeFileSync(single, `single ${Date.now()}`);
        await delay(500);
        return seen.includes(single) || undefined;
      }, 'a watcher event for the single job folder', 30_000);
      fs.writeFileSync(inBatch, 'batch');
      const control = path.join(path.dirname(single), 'after.txt');
      fs.writeFileSync(control, 'after');
      // The file written after the batch's is reported: the batch's would have been by then.
      await eventually(() => seen.includes(control) || undefined, 'a watcher event for the file written after it', 30_000);
      await delay(1000);
      assert.deepEqual(seen.filter((p) => p.includes(`${path.sep}batches${path.sep}`)), []);
    } finally {
      watcher.dispose();
    }
  });
});

// Batch jobs in the Jobs view (issue 27 item 11): a batch is one collapsible row with its counts and cost, its
// children are its jobs, and a child opens the job's panel as the Batch panel's row does. On d881301 a batch's jobs
// were not in the Jobs view at all.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BatchSession } from '../../src/batch/batchSession';
import { BatchGroupItem, JobItem, JobsTreeProvider } from '../../src/history/jobsView';
import { OPEN_BATCH_JOB } from '../../src/batch/batchJobsGroups';
import { eventually } from './support/extension';
import { formatUsd } from '../../src/core/billing/usd';
import { imageInputs, useBatchRig } from './support/batchRig';

suite('batch jobs in the Jobs view', () => {
  const rig = useBatchRig('k-batch-jobs-view', [
    { id: 'pix', kind: 'image', queueMs: 20, executionMs: 200, workersMin: 2, workersMax: 2 },
  ]);

  test('a batch is one collapsible row with its counts and cost; its children are its jobs, each opening the job panel', async function () {
    this.timeout(120_000);
    const session = await rig.start({ kind: 'folder', path: imageInputs('jobs-view-batch', 3) }, 'pix', { concurrency: 2 });
    await rig.toEnd(session);
    const tree = new JobsTreeProvider(rig.api.history, () => false);
    try {
      tree.showBatches(rig.api.batches.groups);
      const groupItem = await eventually(() => tree.getChildren().find((n): n is BatchGroupItem => n instanceof BatchGroupItem && n.group.batchId === session.batchId), 'the batch row');
      assert.equal(groupItem.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      // What the user ran and when (it read "Batch batch" for a folder named batch), as the panel's tab says it.
      assert.match(String(groupItem.label), /^jobs-view-batch \(started (\w{3} \d+, )?\d\d:\d\d:\d\d\)$/);
      assert.equal(groupItem.label, session.name);
      assert.equal(rig.api.batches.manager.panelOf(session)?.panel.title, `Batch: ${session.name}`);
      const t = session.tally();
      // The one money format, the Batch panel's ("$0.0028 est." here beside "$0.00279 (estimate)" there).
      assert.equal(groupItem.description, `pix · 3 of 3 done · 3 completed · ${formatUsd(t.usd)}${t.estimated ? ' est.' : ''}`);
      const children = tree.getChildren(groupItem);
      assert.equal(children.length, 3, 'one child per job');
      assert.ok(children.every((c) => c instanceof JobItem && /^Completed/.test(String(c.description))), children.map((c) => c.description).join(' | '));
      const first = children[0] as JobItem;
      assert.equal(first.command?.command, OPEN_BATCH_JOB);
      assert.equal(first.record.jobId, session.rows().find((r) => r.index === 0)!.jobId);
      await vscode.commands.executeCommand(first.command!.command, ...(first.command!.arguments ?? []));
      const key = first.record.key;
      await eventually(() => rig.api.history.get(key) !== undefined || undefined, 'the job in the history, for its panel');
      await eventually(() => rig.api.panels.isVisible(key) || undefined, 'its job panel open');
      assert.ok(!tree.getChildren().some((n) => n instanceof JobItem && n.record.key === key), 'an opened batch job is listed under its batch only');
    } finally {
      tree.dispose();
    }
  });

  // After a window reload the Jobs view listed past batches, but a click only expanded them and Show Batch Panel
  // said "No batch in this window". A batch of an earlier window (its manifest on disk, no session of this window
  // for it) opens read-only: its rows, Export CSV's table, the grid, the billed amount; nothing can be sent.
  test('a batch of an earlier window opens its panel read-only from its Jobs row: rows, cost, CSV, bill; no button sends', async function () {
    this.timeout(120_000);
    const ran = await rig.start({ kind: 'folder', path: imageInputs('jobs-view-past', 2) }, 'pix', { concurrency: 2 });
    await rig.toEnd(ran);
    await eventually(async () => (await fs.readFile(ran.manifestPath, 'utf8')).includes('"finished"') || undefined, 'the finished line written');
    // The same manifest in a folder of its own: a batch this window never ran.
    const dir = path.join(path.dirname(ran.o.dir), `${path.basename(ran.o.dir)}-earlier`);
    await fs.mkdir(dir, { recursive: true });
    const manifestPath = path.join(dir, 'batch.jsonl');
    await fs.copyFile(ran.manifestPath, manifestPath);
    const runsBefore = rig.runsOn('pix');
    const session = await vscode.commands.executeCommand<BatchSession | undefined>('serverlessGpu.showBatch', { group: { batchId: 'not-in-this-window', manifestPath } });
    assert.ok(session, 'the panel of the earlier batch opened');
    assert.notEqual(session, ran);
    const panel = await eventually(() => rig.api.batches.manager.panelOf(session), 'its panel');
    assert.equal(panel.panel.title, `Batch: ${session.name}`);
    const summary = await eventually(() => panel.lastSummary, 'its header sent');
    assert.equal(summary.counts, '2 of 2 done · 2 completed');
    assert.match(summary.spent, /^Cost: \$/);
    assert.equal(summary.canPause || summary.canResume || summary.canCancel || summary.canRetryFailed, false, 'read-only: nothing to send, stop or resume');
    assert.match(summary.notice ?? '', /^A batch of an earlier window/);
    assert.equal(session.rows().length, 2);
    assert.match(session.csv(), /\r\ntotal,.*2 of 2 done · 2 completed/);
    await eventually(() => session.billed, 'the billed amount of its hours', 30_000);
    assert.equal(rig.runsOn('pix'), runsBefore, 'nothing sent');
    const again = await vscode.commands.executeCommand<BatchSession | undefined>('serverlessGpu.showBatch', { group: { batchId: 'not-in-this-window', manifestPath } });
    assert.equal(again, session, 'shown again, not opened twice');
    panel.panel.dispose();
  });
});

// The Batch panel's rows and buttons in the real editor (issue 23 "Running"), against the emulator behind the
// recording proxy: a completed image job's row shows a thumbnail the page really loaded from the batch's folder; a
// running row's "so far" ticks in the page with no message from the host; a text job's row shows its first line;
// Export CSV writes the table through the save dialog; the guards' questions do what their buttons say.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { thumbnailFile } from '../../src/batch/batchThumbnail';
import { CANCEL_BATCH, EXPORT_TITLE, RAISE_AND_RESUME, RESUME } from '../../src/batch/batchUi';
import type { BatchSession } from '../../src/batch/batchSession';
import { answerQuickInput, click, count, driverAvailable, property, textContent, waitForSelector } from './support/driver';
import { eventually } from './support/extension';
import { imageInputs, useBatchRig, writeWorkspaceFile } from './support/batchRig';

/** What a worker of the `formula` endpoint fails with: a spreadsheet would run it as a formula. */
const FORMULA_ERROR = '=1+2 broken worker';
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/**
 * Clicks the button labelled exactly `label` (the progress notification has its own "Cancel") of the batch's pause
 * question, where VS Code shows it: as a toast, or only in the notification center. VS Code makes no toast of a
 * notification that comes within 800 ms of three others (its spam protection; seen in this editor: of five shown at
 * once, the 4th and 5th never became toasts), which happens when a loaded machine delivers a test's notifications
 * to the page in one burst; the question is then in the notification center, where a user answers it too.
 */
async function answerPause(session: BatchSession, label: string): Promise<void> {
  const button = (where: string): string => `${where}:has-text(${JSON.stringify(`Batch ${session.o.title} paused`)}) .monaco-button:text-is(${JSON.stringify(label)})`;
  try {
    await click(button('.notification-toast'), { timeoutMs: 10_000 });
    return;
  } catch {
    // Not a toast (or gone): the notification center has every notification still open.
  }
  await vscode.commands.executeCommand('notifications.showList');
  try {
    await click(button('.notifications-center .notification-list-item'), { timeoutMs: 20_000 });
  } finally {
    await vscode.commands.executeCommand('notifications.hideList');
  }
}
const rowCell = (index: number, cell: string): string => `#rows .row[data-index="${index}"] .${cell}`;

suite('batch rows', () => {
  const rig = useBatchRig('k-batch-rows', [
    { id: 'pics', kind: 'image', queueMs: 20, executionMs: 300, workersMin: 3, workersMax: 3 },
    { id: 'talk', kind: 'llm', queueMs: 20, workersMin: 2, workersMax: 2 },
    { id: 'long', kind: 'image', queueMs: 20, executionMs: 120_000, workersMin: 2, workersMax: 2 },
    { id: 'quick', kind: 'image', queueMs: 20, executionMs: 150, workersMin: 1, workersMax: 1 },
    { id: 'formula', kind: 'image', queueMs: 20, executionMs: 50, workersMin: 1, workersMax: 1, fail: FORMULA_ERROR },
  ]);
  const panelOf = (session: BatchSession) => rig.api.batches.manager.panelOf(session)!;

  setup(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a completed image job\'s row shows a thumbnail of its first saved image, loaded from a webview URI of the batch\'s folder', async function () {
    this.timeout(120_000);
    const session = await rig.start({ kind: 'folder', path: imageInputs('rows-thumbs', 4) }, 'pics', { concurrency: 2 });
    await rig.toEnd(session);
    const panel = panelOf(session);
    const webview = panel.panel.webview;
    assert.ok(webview.options.localResourceRoots?.some((u) => u.fsPath === session.o.dir), 'the batch folder is a resource root');
    const views = await rig.rowsShown(session, 4, (v) => v.thumbnail, 'every row with a thumbnail');
    for (const v of views) {
      const row = session.rows().find((r) => r.index === v.index)!;
      const image = thumbnailFile(row.outputs, session.o.dir)!;
      assert.ok(image.endsWith('.png') && fs.existsSync(image), `row ${v.index}'s saved image: ${image}`);
      assert.equal(v.thumbnail, webview.asWebviewUri(vscode.Uri.file(image)).toString(), 'the webview URI of that file');
    }
    if (!driverAvailable()) return;
    const img = `${rowCell(0, 'note')} img.thumb`;
    await waitForSelector(img, { inWebview: true });
    // naturalWidth stays 0 unless the page fetched and decoded the bytes: the CSP and the resource root allowed it.
    const width = await eventually(async () => ((await property(img, 'naturalWidth', { inWebview: true })) as number) || undefined, 'the thumbnail to load');
    assert.equal(width, 64, 'the 64 px image the job made');
    // The browser reads the URI's host decoded (%2B as +): compared as such.
    assert.equal(decodeURIComponent(String(await property(img, 'currentSrc', { inWebview: true }))), decodeURIComponent(views.find((v) => v.index === 0)!.thumbnail!));
    assert.equal(await property(img, 'loading', { inWebview: true }), 'lazy');
    assert.equal(await count('#rows .row img.thumb', { inWebview: true }), 4, 'one thumbnail a row');
  });

  test('a running row\'s "so far" ticks in the page from one send time: the host sends nothing per tick', async function () {
    this.timeout(120_000);
    if (!driverAvailable()) this.skip();
    const session = await rig.start({ kind: 'folder', path: imageInputs('rows-live', 2) }, 'long', { concurrency: 2 });
    // Its jobs run 120 s on the endpoint's two workers: a try that fails half-way cancels them, so the second try
    // (and the next tests) do not start with both workers taken.
    try {
      const panel = panelOf(session);
      // In progress as the service's own answer says it (with its queue time), not only as the batch's /health
      // read inferred it a moment after the start: that answer is a row change of its own.
      await eventually(() => (session.rows().every((r) => r.status === 'IN_PROGRESS' && r.delayTime !== undefined) || undefined), 'both jobs in progress', 60_000);
      const [view] = await rig.rowsShown(session, 2, (v) => v.status === 'In progress', 'the page to have both rows in progress');
      assert.equal(view!.liveSince, session.rows()[0]!.submittedAt, 'the send time, sent once');
      const posted = panel.rowsPosted;
      // What changed in a row while it ticked, if anything did (named when the page was sent a row).
      const changed: string[] = [];
      const watch = session.onDidChangeRow((r) => changed.push(JSON.stringify(r)));
      const cell = rowCell(0, 'execution');
      // Each read is a round trip through the runner to the page, which takes a while on a loaded machine: the
      // page's text is checked against the time measured around both reads (it counts the real seconds between
      // them), not against the 2.2 s the test slept, which a slow read stretched (seen: a tick too many).
      let firstAsked = 0;
      let firstRead = 0;
      const first = await eventually(async () => {
        firstAsked = Date.now();
        const t = await textContent(cell, { inWebview: true });
        firstRead = Date.now();
        return /^\d+ (ms|s) so far$/.test(t) ? t : undefined;
      }, 'a "so far" in the execution cell');
      await delay(3200);
      const laterAsked = Date.now();
      const later = await textContent(cell, { inWebview: true });
      const laterRead = Date.now();
      assert.match(later, /^\d+ s so far$/);
      assert.notEqual(later, first, 'it ticked');
      const seconds = (t: string): number => (t.endsWith(' ms so far') ? 0 : Number.parseInt(t, 10));
      // The two texts were drawn between 3.2 s and (laterRead - firstAsked) apart; a text is drawn on its second, so
      // either may be up to one tick behind its read (a late timer on a loaded machine): the count moved by at
      // least 2 and at most the seconds measured around the reads, rounded up, plus that one tick.
      const most = Math.ceil((laterRead - firstAsked) / 1000) + 1;
      assert.ok(seconds(later) - seconds(first) >= 2 && seconds(later) - seconds(first) <= most, `${first} then ${later}, read ${laterAsked - firstRead} to ${laterRead - firstAsked} ms apart`);
      watch.dispose();
      assert.equal(panel.rowsPosted, posted, `no row was sent to the page while it ticked (rows changed: ${changed.join(' ') || 'none'})`);
      rig.api.batches.manager.ui.cancel(session);
      await rig.toEnd(session);
      await eventually(async () => !/so far/.test(await textContent(cell, { inWebview: true })) || undefined, 'the ticking to stop once the job was cancelled');
    } finally {
      if (!session.finished) await session.cancel().catch(() => undefined);
    }
  });

  test('rows of a text endpoint show the first line of the answer, and no thumbnail', async function () {
    this.timeout(120_000);
    const file = writeWorkspaceFile('rows-text.jsonl', ['{"prompt": "one", "sampling_params": {"max_tokens": 4}}', '{"prompt": "two", "sampling_params": {"max_tokens": 4}}'].join('\n'));
    const session = await rig.start({ kind: 'jsonl', path: file }, 'talk');
    await rig.toEnd(session);
    const views = await rig.rowsShown(session, 2, (v) => v.status === 'Completed' && v.note, 'both rows with their first line');
    for (const v of views) {
      assert.equal(v.thumbnail, undefined);
      const saved = session.rows()[v.index]!.outputs!.find((f) => f.endsWith('output.txt'))!;
      assert.equal(v.note, fs.readFileSync(saved, 'utf8').trim().split('\n')[0], 'the first line of the saved answer');
    }
    if (!driverAvailable()) return;
    await eventually(async () => (await textContent(rowCell(1, 'note'), { inWebview: true })) === views.find((v) => v.index === 1)!.note || undefined, 'the page to show the first line');
    assert.equal(await count('#rows .row img', { inWebview: true }), 0);
  });

  test('Export CSV writes the table through the save dialog: a header, a line per job numbered as the panel (# from 1), a formula-like cell prefixed, a total line; then says where it wrote', async function () {
    this.timeout(120_000);
    if (!driverAvailable()) this.skip();
    const session = await rig.start({ kind: 'folder', path: imageInputs('rows-csv', 3) }, 'formula', { guards: {} });
    await rig.toEnd(session);
    const target = path.join(session.o.dir, 'exported.csv');
    await click('#export', { inWebview: true });
    // code-server's save dialog is the simple one: a quick input holding the path. It walks to the default file a
    // folder at a time after it opens, so a path typed before it got there is replaced by its own: waited for first.
    const box = '.quick-input-widget:not([style*="display: none"]) .quick-input-box input';
    const shown = path.join(path.basename(session.o.dir), 'batch.csv');
    await eventually(async () => String(await property(box, 'value').catch(() => '')).endsWith(shown) || undefined, `the save dialog to offer ${shown}`);
    await answerQuickInput(target, { title: EXPORT_TITLE });
    const csv = await eventually(() => (fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined), 'the CSV to be written');
    const lines = csv.split('\r\n');
    assert.equal(lines.pop(), '', 'every line ends with CRLF');
    assert.equal(lines[0], '#,file,line,sweep,jobId,phase,status,delayMs,executionMs,costUsd,costKind,outputs,firstLine,error');
    assert.equal(lines.length, 5, 'a header, one line per job, the total');
    const t = session.tally();
    assert.equal(lines[4], `total,,,,,,${'3 of 3 done · 3 failed'},,,${Number(t.usd.toFixed(6))},${t.estimated ? 'estimate' : 'reported'},,,`);
    session.rows().forEach((r, i) => {
      const line = lines[i + 1]!;
      assert.ok(line.startsWith(`${r.index + 1},${r.ref.file},,,${r.jobId},ended,FAILED,`), `numbered from 1 as the panel's #: ${line}`);
      assert.ok(line.endsWith(`,'${FORMULA_ERROR}`), `the error cell starts with ' so no spreadsheet runs it: ${line}`);
    });
    await waitForSelector(`.notification-toast:has-text("Exported 3 jobs and their total to ${target}")`);
  });

  test('a failure streak pauses and asks: Resume sends more jobs, Cancel Batch cancels the rest', async function () {
    this.timeout(120_000);
    if (!driverAvailable()) this.skip();
    const before = rig.runsOn('formula');
    const session = await rig.start({ kind: 'folder', path: imageInputs('rows-streak', 8) }, 'formula', { concurrency: 1, guards: { failureStreak: 2 } });
    await eventually(() => session.runner.paused?.reason === 'failures' || undefined, 'the streak to pause the batch');
    const sentAtPause = rig.runsOn('formula');
    await answerPause(session, RESUME);
    await eventually(() => rig.runsOn('formula') > sentAtPause || undefined, 'more jobs sent after Resume');
    // Resume starts the streak again: two more failures in a row pause it again.
    await eventually(() => session.runner.paused?.reason === 'failures' || undefined, 'the next failure to pause again');
    const sent = rig.runsOn('formula');
    assert.ok(sent - before < 8, `not every job was sent (${sent - before})`);
    await answerPause(session, CANCEL_BATCH);
    await rig.toEnd(session);
    assert.equal(rig.runsOn('formula'), sent, 'nothing sent after Cancel Batch');
    assert.equal(session.rows().filter((r) => r.phase === 'skipped').length, 8 - (sent - before), 'the unsent jobs skipped');
    const health = await rig.client.health('formula');
    assert.equal(health.jobs.inProgress + health.jobs.inQueue, 0);
  });

  test('the spend limit pauses and asks: "Double the Limit and Resume" resumes with twice the limit and sends more', async function () {
    this.timeout(120_000);
    if (!driverAvailable()) this.skip();
    // 0.15 s x $0.00031/s is about $0.0000465 a job: the 4th would pass the limit and is not sent; twice it, the 8th.
    const session = await rig.start({ kind: 'folder', path: imageInputs('rows-spend', 14) }, 'quick', { concurrency: 1, guards: { maxUsd: 0.00017 } });
    await eventually(() => session.runner.paused?.reason === 'spend' || undefined, 'the spend guard to pause the batch');
    const sentAtPause = rig.runsOn('quick');
    await answerPause(session, RAISE_AND_RESUME);
    await eventually(() => session.limits.maxUsd === 0.00034 || undefined, 'the limit doubled');
    await eventually(() => (session.runner.paused === undefined && rig.runsOn('quick') > sentAtPause) || undefined, 'the batch resumed and sending');
    await eventually(() => session.runner.paused?.reason === 'spend' || undefined, 'the doubled limit to be reached');
    const sent = rig.runsOn('quick');
    assert.ok(sent - sentAtPause >= 3, `more jobs sent under the doubled limit (${sentAtPause} then ${sent})`);
    assert.ok(session.runner.spentUsd <= 0.00034 && sent < 14, `paused before the doubled limit: $${session.runner.spentUsd}, ${sent} sent`);
    await answerPause(session, CANCEL_BATCH);
    await rig.toEnd(session);
    assert.equal(rig.runsOn('quick'), sent, 'nothing sent after Cancel Batch');
  });
});

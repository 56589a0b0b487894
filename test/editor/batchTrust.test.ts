// Issue 27 items 1-6 in the real editor, against the emulator behind the recording proxy: every status, count and
// cost the Batch panel, the progress notification and a guard's question show is true and the same, and Cancel
// and Retry Failed never lose a failure. Each test failed on main d881301 (the reason is in its comment).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { spentText } from '../../src/batch/batchSummary';
import type { BatchSession } from '../../src/batch/batchSession';
import { count, driverAvailable, textContent } from './support/driver';
import { eventually } from './support/extension';
import { imageInputs, useBatchRig } from './support/batchRig';

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const rowCell = (index: number, cell: string): string => `#rows .row[data-index="${index}"] .${cell}`;
/**
 * Every notification's text (the progress notification and the questions), read in the notification center: after
 * a full run of suites a toast can be out of view (a toast shows for a while and only so many at once).
 */
async function toasts(): Promise<string> {
  await vscode.commands.executeCommand('notifications.showList');
  return textContent('.notifications-center');
}

suite('batch trust (issue 27)', () => {
  const rig = useBatchRig('k-batch-trust', [
    // One worker: the jobs after the first wait in the queue for it.
    // 4 s a job: the page is read through the browser after the host saw "In progress", which takes a second or
    // more on a loaded machine; at 2.5 s the job had sometimes ended by then (CI).
    { id: 'single', kind: 'image', queueMs: 20, executionMs: 4000, workersMin: 1, workersMax: 1 },
    { id: 'cheap', kind: 'image', queueMs: 20, executionMs: 300, workersMin: 3, workersMax: 3 },
    { id: 'broken', kind: 'image', queueMs: 20, executionMs: 50, workersMin: 3, workersMax: 6, fail: 'CUDA out of memory' },
    { id: 'forever', kind: 'image', queueMs: 20, executionMs: 120_000, workersMin: 2, workersMax: 2 },
  ]);
  const panelOf = (session: BatchSession) => rig.api.batches.manager.panelOf(session)!;
  /**
   * What a timeout in test 1 needs to say (it failed twice in one CI run, 1e3708b, with nothing to go on): whether
   * the host's row ever left the queue (the queue watch's /health reads and what they answered), or it did and the
   * page never took it (no Batch panel in the editor, the page not ready: it was that).
   */
  const whyNotShown = (session: BatchSession): string => {
    const rows = session.rows().map((r) => `${r.index}:${r.status ?? r.phase}`).join(' ');
    const health = rig.proxy.requests.filter((r) => r.url.endsWith('/health') && r.at >= (session.rows()[0]?.submittedAt ?? 0));
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => `${t.label}${t.isActive ? '*' : ''}`));
    return `host rows ${rows}; rows on the page ${panelOf(session).shownRows().length} (${JSON.stringify(panelOf(session).pageState())}); /health reads ${health.length} (${[...new Set(health.map((r) => r.status))].join(',')}); tabs [${tabs.join(', ')}]`;
  };

  setup(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  // Item 1. On d881301 a queued job's held /status-sync answered only at its end, so its row never read
  // "In progress": the row of job 2 went from "In queue" to "Completed".
  // The page must be there to show a start. In this editor a new Batch page sometimes has its rows only ~30 s after
  // it opens (about half of 20 runs of `--grep "^batch (?!grid|jobs|prices|rows)"`, 2026-11-29; never with this
  // suite alone): its frame is there, its script has not run. 30 s is the editor's own wait for a webview resource
  // (`resolveTimeout` in VS Code's webview service-worker.js), so one of the page's files was asked for and never
  // answered. Setting the page's html again did not help, nor a first page loaded before, nor closing the page and
  // opening a new one: every Batch page opened meanwhile had its rows at the same moment, ~31 s after the first
  // opened. So ten jobs of 4 s, one at a time, and the job measured is the first one that started after its page was
  // there.
  test('1: a running batch job reads "In progress" in the panel within about 2 s of the service starting it', async function () {
    this.timeout(180_000);
    const t0 = Date.now();
    const session = await rig.start({ kind: 'folder', path: imageInputs('trust-status', 10) }, 'single', { concurrency: 10 });
    const pageAt = await eventually(() => (panelOf(session).shownRows().length > 0 ? Date.now() : undefined), 'the Batch page to have its rows', 45_000).catch((e: Error) => {
      throw new Error(`${e.message}; ${whyNotShown(session)}`);
    });
    if (pageAt - t0 > 5_000) console.log(`batch trust 1: the Batch page had its rows ${pageAt - t0} ms after the batch's start (the editor's slow first load, above)`);
    // Rows the host already knew to have left the queue when the page came: their start may be long before it.
    const before = new Set(session.rows().filter((r) => r.phase === 'ended' || (r.phase === 'active' && r.status !== 'IN_QUEUE')).map((r) => r.index));
    const { index, seen } = await eventually(() => {
      const v = panelOf(session).shownRows().find((r) => r.index > 0 && !before.has(r.index) && /^In progress/.test(r.status));
      return v ? { index: v.index, seen: Date.now() } : undefined;
    }, 'a job started after the page came to read In progress', 30_000).catch((e: Error) => {
      throw new Error(`${e.message} (the page had its rows ${pageAt - t0} ms after the start); ${whyNotShown(session)}`);
    });
    if (driverAvailable()) {
      await eventually(async () => /^In progress/.test(await textContent(rowCell(index, 'status'), { inWebview: true })) || undefined, 'the page to say In progress too', 4_000);
    }
    await rig.toEnd(session);
    const row = session.rows()[index]!;
    const started = row.submittedAt! + row.delayTime!;
    // The beat (1.5 s), the panel's 200 ms and the shared machine's load: about 2 s (from the page's coming, for a
    // job the host learned of just before it).
    const lag = seen - Math.max(started, pageAt);
    assert.ok(lag < 2500, `job ${index + 1} seen ${lag} ms after the service started it (the page had its rows ${pageAt - t0} ms after the batch's start)`);
    assert.ok(seen < row.endedAt!, 'before it ended');
  });

  // Item 2. On d881301 the question said "The batch has cost about $X" from the guard's own sum of ended jobs,
  // while the header's "Cost so far" counted more; the guard paused only after the crossing.
  test('2: the spend limit: the panel, the notification and the question say one amount, within the documented overshoot', async function () {
    this.timeout(120_000);
    if (!driverAvailable()) this.skip();
    // About $0.0000465 a job (0.15 s.. here 0.3 s x the table's price), 3 in flight.
    const limit = 0.0004;
    const session = await rig.start({ kind: 'folder', path: imageInputs('trust-spend', 30) }, 'cheap', { concurrency: 3, guards: { maxUsd: limit } });
    await eventually(() => session.runner.paused?.reason === 'spend' || undefined, 'the spend guard to pause the batch');
    const question = await eventually(async () => {
      const text = await toasts();
      return /Batch trust-spend paused: /.test(text) ? text : undefined;
    }, 'the question');
    const amount = spentText(session.tally());
    assert.equal(session.tally().running, 0, 'asked once the jobs in flight had ended');
    const header = await eventually(async () => {
      const t = await textContent('#spent', { inWebview: true });
      return t === amount ? t : undefined;
    }, `the header to say ${amount}`);
    assert.ok(question.includes(`${amount}.`), `the question says ${amount}: ${question}`);
    // This batch's notifications only (the center may still list an earlier test's last words).
    const ours = question.split(/(?=Batch )/).filter((n) => n.startsWith('Batch trust-spend')).join(' ');
    const mentions = ours.match(/Cost so far: \$\d+\.\d{4}/g) ?? [];
    assert.ok(mentions.length >= 2, `the notification and the question both say the amount: ${question}`);
    assert.equal(new Set(mentions).size, 1, `one amount in every toast: ${mentions.join(' | ')}`);
    assert.equal(header, amount);
    assert.match(question, /the next job would take the batch past its spend limit of \$0\.0004\./);
    // docs/batches.md: past the limit by at most what the jobs in flight when it was reached cost.
    const perJob = session.tally().pricedUsd / session.tally().priced;
    assert.ok(session.runner.spentUsd <= limit + 3 * perJob + 1e-12, `$${session.runner.spentUsd} within $${limit} + 3 jobs of $${perJob}`);
    void session.cancel();
    await rig.toEnd(session);
  });

  // Item 3. On d881301 a retry's new attempt replaced the first one's cost: "Cost so far" did not move.
  test('3: Retry Failed adds each retry\'s cost to the job and to "Cost so far"', async function () {
    this.timeout(120_000);
    const session = await rig.start({ kind: 'folder', path: imageInputs('trust-retry-cost', 3) }, 'broken', { concurrency: 3, guards: {} });
    await rig.toEnd(session);
    const first = session.tally().usd;
    assert.ok(first > 0, 'the failed attempts have a cost');
    rig.api.batches.manager.ui.retryFailed(session);
    await eventually(() => session.rows().every((r) => r.retries === 1 && r.phase === 'ended') || undefined, 'every job retried');
    await rig.toEnd(session);
    await eventually(() => Math.abs(session.tally().usd - 2 * first) < 1e-12 || undefined, 'the cost of both attempts', 10_000);
    const shown = await eventually(() => panelOf(session).lastSummary?.spent === spentText(session.tally(), true) ? panelOf(session).lastSummary!.spent : undefined, 'the header to count both attempts');
    assert.match(shown, /^Cost: \$\d/, 'an ended batch\'s cost is its cost, not "so far"');
    const rows = await rig.rowsShown(session, 3, (v) => /attempts, each billed/.test(v.costHow), 'each row\'s cost to be the sum of its attempts');
    for (const v of rows) assert.ok(Math.abs(v.costUsd! - (2 * first) / 3) < 1e-9, `row ${v.index}: ${v.costUsd}`);
  });

  // Item 4. On d881301 the streak paused a batch that had ended ("5 jobs failed in a row" after the end), and
  // Retry Failed after Cancel turned every failed row into "Skipped (batch cancelled)", retrying none.
  test('4: a finished all-failed batch asks nothing; Cancel, then Retry Failed, retries them all', async function () {
    this.timeout(120_000);
    const before = rig.proxy.requests.filter((r) => r.url.startsWith('/v2/broken/retry/')).length;
    const session = await rig.start({ kind: 'folder', path: imageInputs('trust-all-failed', 6) }, 'broken', { concurrency: 6, guards: { failureStreak: 5 } });
    await rig.toEnd(session);
    assert.deepEqual(session.rows().map((r) => r.status), Array(6).fill('FAILED'));
    await delay(1000);
    assert.equal(session.runner.paused, undefined, 'a finished batch is not paused');
    if (driverAvailable()) assert.doesNotMatch(await toasts(), /failed in a row/, 'no guard\'s question after the end');
    void session.cancel();
    await delay(300);
    rig.api.batches.manager.ui.retryFailed(session);
    await eventually(() => session.rows().every((r) => r.retries === 1 && r.phase === 'ended') || undefined, 'all six retried to their end');
    await rig.toEnd(session);
    assert.equal(session.rows().filter((r) => r.phase === 'skipped').length, 0, 'none skipped');
    assert.equal(rig.proxy.requests.filter((r) => r.url.startsWith('/v2/broken/retry/')).length - before, 6, 'six /retry');
    await eventually(() => panelOf(session).lastSummary?.counts === '6 of 6 done · 6 failed' || undefined, 'the header: 6 failed, none cancelled');
  });

  // Item 5. On d881301 a batch paused by a guard and then cancelled kept "Paused: …" and its Resume button.
  test('5: a cancelled batch shows Cancelled, not Paused with a Resume button', async function () {
    this.timeout(120_000);
    const session = await rig.start({ kind: 'folder', path: imageInputs('trust-cancelled', 8) }, 'broken', { concurrency: 1, guards: { failureStreak: 2 } });
    await eventually(() => session.runner.paused?.reason === 'failures' || undefined, 'the streak to pause the batch');
    // What the question's Cancel Batch does once confirmed (the toast may be out of view in a full run of suites).
    void session.cancel();
    await rig.toEnd(session);
    const summary = await eventually(() => panelOf(session).lastSummary && !panelOf(session).lastSummary!.running ? panelOf(session).lastSummary : undefined, 'the header after the cancel');
    assert.equal(summary.notice, 'Cancelled');
    assert.equal(summary.state, 'cancelled');
    assert.equal(summary.paused, false);
    assert.equal(summary.canResume, false);
    assert.equal(summary.canRetryFailed, true, 'its failed jobs can still be retried');
    if (driverAvailable()) {
      await eventually(async () => (await textContent('#notice', { inWebview: true })) === 'Cancelled' || undefined, 'the page to say Cancelled');
      assert.equal(await count('#resume:not([hidden])', { inWebview: true }), 0, 'no Resume button');
    }
  });

  // Item 6. On d881301 a cancelled job was counted as ended and as cancelled ("2 of 6 ended · 6 cancelled"), and
  // the notification counted on its own timer.
  test('6: after Cancel Batch the counts add up, and the header and the notification say the same', async function () {
    this.timeout(120_000);
    const session = await rig.start({ kind: 'folder', path: imageInputs('trust-counts', 6) }, 'forever', { concurrency: 2 });
    await eventually(() => session.rows().filter((r) => r.phase === 'active').length === 2 || undefined, 'two jobs running');
    if (driverAvailable()) {
      // Mid-run: the page's header and the progress notification, read together, say the same counts.
      const both = await eventually(async () => {
        const [page, toast] = [await textContent('#counts', { inWebview: true }), await toasts()];
        return page && toast.includes(page) ? page : undefined;
      }, 'the header\'s counts in the notification');
      assert.match(both, /^0 of 6 done · 2 running · 4 not sent$/);
    }
    void session.cancel();
    await rig.toEnd(session);
    const counts = await eventually(() => panelOf(session).lastSummary?.state === 'cancelled' ? panelOf(session).lastSummary!.counts : undefined, 'the final header');
    // Two were running and are cancelled; four were never sent, and say so (the rows' own words), not "cancelled".
    assert.equal(counts, '6 of 6 done · 2 cancelled · 4 not sent (batch cancelled)');
    if (driverAvailable()) {
      await eventually(async () => (await toasts()).includes(`Batch trust-counts on forever: ${counts}.`) || undefined, 'the notification at the end to say the same counts');
      // Its state's word ends as a sentence after the cost (a walk by hand read "…Cost: $0.0012. Cancelled").
      const said = await textContent('.notifications-center .notification-list-item-message:has-text("Batch trust-counts on forever:")');
      assert.match(said, /\. Cost: \$[\d.]+( \(estimate\))?\. Cancelled\.$/);
    }
  });
});

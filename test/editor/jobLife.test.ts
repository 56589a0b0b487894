// One life of a job told the same by every view (issue 22): at each step of a job run to completion, one
// cancelled in its queue, one cancelled while running and one failed then retried, the panel (its page's own
// text), the Jobs view, the history record and job.json say the same status and the same duration; the live
// "so far" ticks in the panel and in the Jobs view; a cancel's answer is shown at once, not when the status
// wait already held by the service ends; and a retry shows attempt 2 moving, never the old failure.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeJob, lifeLine } from '../../src/core/jobs/jobLife';
import { publicModelOfKind } from '../../src/core/serverless/publicModels';
import { demoConfig } from '../../src/emulator/demo/demo';
import type { ServiceClient } from '../../src/core/service';
import { JobItem, JobsTreeProvider } from '../../src/history/jobsView';
import type { PanelJob } from '../../src/jobPanel/protocol';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { driverAvailable, screenshot, textContent, waitForSelector } from './support/driver';
import { emulatorJobsInSuite } from './support/emulator';
import { jobWaits } from './support/jobWaits';
import { eventually } from './support/extension';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const VIDEO = publicModelOfKind('video').id;
/**
 * The demo, with its video model running 10 min instead of 6 s. The cancel-while-running test reads the panel and
 * the Jobs view twice while the job runs; on a loaded 2-core machine, opening the panel and the view and reading
 * them could take longer than the demo's 6 s, so the job had ended and the reads never saw one running state. The
 * test cancels the job, so it never runs that long.
 */
function demoWithLongVideo(): ReturnType<typeof demoConfig> {
  const config = demoConfig();
  const user = config.users[0]!;
  user.endpoints = user.endpoints!.map((e) => (e.id === VIDEO ? { ...e, executionMs: 600_000 } : e));
  return config;
}

suite('job life', () => {
  let api: JobRunnerApi;
  let client: ServiceClient;
  const { finished, showPanel, runFile: run } = jobWaits(() => api);

  /** The Jobs view's row of a job, as the view's provider draws it now. */
  const viewRow = (key: string): string => {
    const tree = new JobsTreeProvider(api.history, (k) => api.runner.isRunning(k));
    try {
      const item = tree.getChildren().find((i): i is JobItem => 'record' in i && i.record.key === key);
      assert.ok(item, `the Jobs view lists ${key}`);
      return String(item.description);
    } finally {
      tree.dispose();
    }
  };

  /** The panel's status line: the page's own text when the driver can read it, else what it was last sent. */
  const panelLine = async (key: string): Promise<string> => {
    if (driverAvailable()) return textContent('#status-line', { inWebview: true });
    const sent = api.panels.lastSent(key);
    assert.ok(sent, 'the panel was sent the job');
    return lifeLine(sent);
  };

  /** The Jobs view's row in the workbench (its aria-label is the job life's words), for the live ticks. */
  const viewRowOnScreen = (endpointId: string, status: string): Promise<string> =>
    textContent(`.monaco-list-row[aria-label^="${endpointId}, ${status}"]`, { timeoutMs: 15_000 });

  /** A finished job reads the same in the panel, the Jobs view, the history and job.json. */
  const assertSameEverywhere = async (key: string): Promise<JobRecord> => {
    const record = await finished(key);
    const life = describeJob(record);
    assert.equal(life.final, true, `${key} ended (${record.status})`);
    assert.match(life.durationText, /^\d+(\.\d)? (ms|s)$|^\d+ min \d\d s$/, `a duration of record: "${life.durationText}"`);
    const line = `${life.statusText} · ${life.durationText}`;
    if (driverAvailable()) await showPanel(key);
    await eventually(async () => (await panelLine(key)) === line, `the panel to read "${line}" (it reads "${await panelLine(key).catch(() => '?')}")`);
    assert.ok(viewRow(key).startsWith(`${line} · `), `the Jobs view reads "${viewRow(key)}", not "${line} · …"`);
    if (record.outputsFolder) {
      const saved = JSON.parse(fs.readFileSync(path.join(vscode.Uri.parse(record.outputsFolder).fsPath, 'job.json'), 'utf8')) as { life?: { statusText: string; durationText: string } };
      assert.deepEqual(saved.life && { statusText: saved.life.statusText, durationText: saved.life.durationText }, { statusText: life.statusText, durationText: life.durationText }, 'job.json says the same');
    } else {
      assert.fail(`${key} has no outputs folder, so no job.json`);
    }
    return record;
  };

  // A fresh emulator: its cold-start endpoint is cold, so a job there waits in the queue.
  emulatorJobsInSuite((jobs) => {
    ({ api, client } = jobs);
  }, demoWithLongVideo());

  test('a job run to completion reads the same status and duration in the panel, the Jobs view, the history and job.json', async () => {
    const started = await run('life-complete.input.json', 'flux-dev', { prompt: 'one life', width: 64, height: 64 });
    await eventually(() => api.history.get(started.key)?.jobId, 'the job id');
    if (driverAvailable()) await showPanel(started.key);
    // While it moves: the same status in the panel and the Jobs view, both "so far".
    const record = api.history.get(started.key)!;
    if (describeJob(record).live) {
      const [panel, row] = [await panelLine(started.key), viewRow(started.key)];
      const status = describeJob(api.history.get(started.key)!).statusText;
      if (describeJob(api.history.get(started.key)!).live) {
        assert.match(panel, new RegExp(`^${status} · .* so far`), panel);
        assert.match(row, new RegExp(`^${status} · .* so far · `), row);
      }
    }
    const done = await assertSameEverywhere(started.key);
    assert.equal(done.status, 'COMPLETED', done.error);
    // The times of record are the service's: the duration is its queue wait plus its execution.
    assert.equal(describeJob(done).durationText, describeJob({ status: 'COMPLETED', submittedAt: 0, delayTime: done.delayTime, executionTime: done.executionTime }).durationText);
  });

  test('a job cancelled in its queue reads Cancelled at once, the same everywhere', async () => {
    const started = await run('life-cancel-queued.input.json', 'sd35-large', { prompt: 'never runs', width: 64, height: 64 });
    const jobId = await eventually(() => api.history.get(started.key)?.jobId, 'the job id');
    await eventually(() => api.history.get(started.key)?.status === 'IN_QUEUE', 'the job to wait in the queue (cold start)');
    assert.equal((await client.status('sd35-large', jobId)).status, 'IN_QUEUE');
    if (driverAvailable()) {
      await showPanel(started.key);
      assert.match(await panelLine(started.key), /^In queue · .* so far/);
    }
    const asked = Date.now();
    assert.equal(((await vscode.commands.executeCommand(JobCommands.cancelJob, started.key)) as { kind: string }).kind, 'cancelled');
    // The cancel's answer is news at once: not when the status wait the service holds (up to 10 s) ends.
    await eventually(() => api.panels.lastSent(started.key)?.status === 'CANCELLED', 'the panel to be sent CANCELLED', 2000);
    assert.ok(Date.now() - asked < 2500, `shown cancelled ${Date.now() - asked} ms after the cancel was asked`);
    assert.match(viewRow(started.key), /^Cancelled · /);
    const done = await assertSameEverywhere(started.key);
    assert.equal(done.status, 'CANCELLED');
  });

  test('a job cancelled while running ticks its "so far" in the panel and the Jobs view, then reads Cancelled at once, the same everywhere', async function () {
    this.timeout(180_000);
    const started = await run('life-cancel-running.input.json', VIDEO, { prompt: 'a long video' });
    const jobId = await eventually(() => api.history.get(started.key)?.jobId, 'the job id');
    await eventually(async () => (await client.status(VIDEO, jobId)).status === 'IN_PROGRESS', 'the job to run on a worker', 20_000);
    if (driverAvailable()) {
      await showPanel(started.key);
      await vscode.commands.executeCommand('serverlessGpu.jobs.focus');
      // Two reads at least a second apart of one state (a move from the queue to a worker between them starts over).
      // The second read waits for the "so far" to move (a tick drawn late on a loaded machine is still a tick); one
      // that never moves while the state stays fails below.
      const statusNow = (): string => describeJob(api.history.get(started.key)!).statusText;
      const row = (status: string): Promise<string> => viewRowOnScreen(VIDEO, status).catch(() => '');
      const movedFrom = async (first: string, read: () => Promise<string>): Promise<string> => {
        const until = Date.now() + 10_000;
        for (;;) {
          const now = await read();
          if (now !== first || Date.now() > until) return now;
          await sleep(200);
        }
      };
      let reads: { status: string; panel1: string; row1: string; panel2: string; row2: string } | undefined;
      const deadline = Date.now() + 90_000;
      while (!reads && Date.now() < deadline) {
        const status = statusNow();
        const [panel1, row1] = [await panelLine(started.key), await row(status)];
        await sleep(1100);
        if (statusNow() !== status || !row1) continue;
        const [panel2, row2] = [await movedFrom(panel1, () => panelLine(started.key)), await movedFrom(row1, () => row(status))];
        if (statusNow() === status && row2 && panel1.startsWith(status) && panel2.startsWith(status)) reads = { status, panel1, row1, panel2, row2 };
      }
      assert.ok(reads, 'two reads of the same state a second apart');
      const { status, panel1, row1, panel2, row2 } = reads;
      assert.match(panel1, / so far$/);
      assert.notEqual(panel1, panel2, 'the panel\'s "so far" ticks');
      assert.notEqual(row1, row2, 'the Jobs view\'s "so far" ticks');
      assert.ok(row1.includes(`${status} · `), `${panel1} | ${row1}`);
      await screenshot('job-life', { docs: true });
    } else {
      const first = viewRow(started.key);
      await sleep(1100);
      assert.notEqual(first, viewRow(started.key));
    }
    const asked = Date.now();
    assert.equal(((await vscode.commands.executeCommand(JobCommands.cancelJob, started.key)) as { kind: string }).kind, 'cancelled');
    await eventually(() => api.panels.lastSent(started.key)?.status === 'CANCELLED', 'the panel to be sent CANCELLED', 2000);
    assert.ok(Date.now() - asked < 2500, `shown cancelled ${Date.now() - asked} ms after the cancel was asked`);
    if (driverAvailable()) await waitForSelector('#status-line:has-text("Cancelled · ")', { inWebview: true, timeoutMs: 3000 });
    const done = await assertSameEverywhere(started.key);
    assert.equal(done.status, 'CANCELLED');
    // The times of record are the service's (it ran for a while), not the clock from submission to cancel.
    assert.ok(done.executionTime !== undefined && done.executionTime > 0, 'the service timed its run');
  });

  test('a failed job retried shows attempt 2 moving in the panel and the Jobs view, never the old failure, then the same everywhere', async () => {
    const started = await run('life-retry.input.json', 'broken-gpu', { prompt: 'fails every time' });
    const failed = await assertSameEverywhere(started.key);
    assert.equal(failed.status, 'FAILED');
    assert.equal(describeJob(failed).attempt, 1);

    // Every state the views were given during the retry, as they were given it.
    const rows: Array<{ running: boolean; description: string; record: JobRecord }> = [];
    const posts: PanelJob[] = [];
    const subs = [
      api.history.onDidChange((r) => {
        if (r?.key === started.key) rows.push({ running: api.runner.isRunning(r.key), description: String(new JobItem(r, api.runner.isRunning(r.key)).description), record: r });
      }),
      api.panels.onDidPost(({ key, job }) => key === started.key && posts.push(job)),
    ];
    try {
      if (driverAvailable()) await showPanel(started.key);
      // The page's own text, read while it moves (the retried job runs about 1.3 s).
      const seenOnPage = driverAvailable()
        ? waitForSelector('#status-line:has-text("attempt 2"):has-text("so far")', { inWebview: true, timeoutMs: 5000 }).then(() => true, () => false)
        : Promise.resolve(true);
      assert.equal(await vscode.commands.executeCommand(JobCommands.retryJob, started.key), true);
      const again = await eventually(() => {
        const r = api.history.get(started.key);
        return r?.attempt === 2 && r.finishedAt !== undefined && !api.runner.isRunning(started.key) ? r : undefined;
      }, 'attempt 2 to end');
      assert.ok(await seenOnPage, 'the panel read "attempt 2 … so far" while the retry ran');

      const moving = rows.filter((r) => r.record.attempt === 2 && describeJob(r.record).live);
      assert.ok(moving.length > 0, 'the Jobs view was given attempt 2 while it moved');
      for (const r of rows.filter((x) => x.running)) {
        assert.doesNotMatch(r.description, /^Failed(?! · attempt 2)/, `a followed job read "${r.description}"`);
        if (r.record.attempt === 2 && describeJob(r.record).live) assert.match(r.description, /^(In queue|In progress) · attempt 2 · .* so far · /);
      }
      const livePosts = posts.filter((p) => p.running && p.attempt === 2 && describeJob(p).live);
      assert.ok(livePosts.length > 0, 'the panel was given attempt 2 while it moved');
      for (const p of livePosts) assert.equal(p.error, undefined, 'no old failure beside attempt 2 in progress');
      assert.equal(posts.some((p) => p.running && p.status === 'FAILED' && p.attempt !== 2), false, 'never the old failure as running');

      assert.equal(again.status, 'FAILED');
      const done = await assertSameEverywhere(started.key);
      assert.match(describeJob(done).statusText, /^Failed · attempt 2$/);
    } finally {
      for (const s of subs) s.dispose();
    }
  });
});

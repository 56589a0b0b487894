// The status-bar item that counts running jobs; hidden when none run. A click lists them (open or stop).
// Jobs the service has ended but whose outputs are still being written are counted apart ("saving outputs"),
// so the status bar never suggests a job is done before its files are on disk (issue 15). One job alone is
// shown as the job life describes it, its "so far" ticking once a second like the panel's and the Jobs view's.
import * as vscode from 'vscode';
import { jobActions, lifeLine, msToNextTick } from '../core/jobs/jobLife';
import type { HistoryStore } from '../history/historyStore';
import { JobCommands } from './commandIds';
import type { JobRunner } from './jobRunner';

/** The status bar's words for `running` followed jobs of which `saving` are saving their outputs. */
export function runningJobsText(running: number, saving: number): string {
  const jobs = (n: number): string => `${n} job${n === 1 ? '' : 's'}`;
  if (saving === 0) return `$(sync~spin) ${jobs(running)} running`;
  if (saving === running) return `$(sync~spin) saving outputs of ${jobs(saving)}`;
  return `$(sync~spin) ${jobs(running - saving)} running, ${saving} saving outputs`;
}

export function createRunningJobsStatusBar(runner: JobRunner, history: HistoryStore): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('serverlessGpu.runningJobs', vscode.StatusBarAlignment.Left, 40);
  item.name = 'Serverless GPU: running jobs';
  item.command = JobCommands.showRunningJobs;
  let ticker: ReturnType<typeof setTimeout> | undefined;
  const update = (): void => {
    const count = runner.runningCount();
    if (count === 0) {
      item.hide();
      if (ticker) clearTimeout(ticker);
      ticker = undefined;
      return;
    }
    const followed = history.all().filter((r) => runner.isRunning(r.key));
    // Followed but with nothing left to stop: the service has ended it and its outputs are being written.
    const saving = followed.filter((r) => !jobActions(r, true).stopWaiting).length;
    const only = count === 1 && followed.length === 1 ? followed[0] : undefined;
    item.text = only && saving === 0 ? `$(sync~spin) 1 job running · ${only.endpointId} · ${lifeLine(only)}` : runningJobsText(count, saving);
    // On the job's own second, like the panel and the Jobs view.
    if (ticker) clearTimeout(ticker);
    ticker = only ? setTimeout(update, msToNextTick(only)) : undefined;
    item.tooltip = 'Serverless GPU jobs being followed. Click to open or stop one.';
    item.show();
  };
  update();
  return vscode.Disposable.from(item, runner.onDidChangeRunning(update), history.onDidChange(update), { dispose: () => ticker && clearTimeout(ticker) });
}

// The status-bar item that counts running jobs; hidden when none run. A click lists them (open or stop).
// Jobs the service has ended but whose outputs are still being written are counted apart ("saving outputs"),
// so the status bar never suggests a job is done before its files are on disk (issue 15).
import * as vscode from 'vscode';
import type { HistoryStore } from '../history/historyStore';
import { JobCommands } from './commandIds';
import { LocalStatus } from './jobRecord';
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
  const update = (): void => {
    const count = runner.runningCount();
    if (count === 0) {
      item.hide();
      return;
    }
    const saving = history.all().filter((r) => r.status === LocalStatus.saving && runner.isRunning(r.key)).length;
    item.text = runningJobsText(count, saving);
    item.tooltip = 'Serverless GPU jobs being followed. Click to open or stop one.';
    item.show();
  };
  update();
  return vscode.Disposable.from(item, runner.onDidChangeRunning(update), history.onDidChange(update));
}

// The status-bar item that counts running jobs; hidden when none run. A click lists them (open or stop).
import * as vscode from 'vscode';
import { JobCommands } from './commandIds';
import type { JobRunner } from './jobRunner';

export function createRunningJobsStatusBar(runner: JobRunner): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('serverlessGpu.runningJobs', vscode.StatusBarAlignment.Left, 40);
  item.name = 'Serverless GPU: running jobs';
  item.command = JobCommands.showRunningJobs;
  const update = (count: number): void => {
    if (count === 0) {
      item.hide();
      return;
    }
    item.text = `$(sync~spin) ${count} job${count === 1 ? '' : 's'} running`;
    item.tooltip = 'Serverless GPU jobs being followed. Click to open or stop one.';
    item.show();
  };
  update(runner.runningCount());
  const sub = runner.onDidChangeRunning(update);
  return vscode.Disposable.from(item, sub);
}

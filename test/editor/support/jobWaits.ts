// What the job suites do and wait for, through the job runner's test API: a job run from an input file of the
// workspace, a job at its end (finished and no longer followed: its outputs are on disk by then), and a job's
// panel in front with its webview loaded.
import * as vscode from 'vscode';
import { JobCommands } from '../../../src/jobs/commandIds';
import type { JobRecord } from '../../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../../src/jobs/registerJobs';
import { eventually, workspaceFolder } from './extension';

export function jobWaits(api: () => JobRunnerApi) {
  const finished = (key: string, timeoutMs = 60_000): Promise<JobRecord> =>
    eventually(() => {
      const r = api().history.get(key);
      return r && r.finishedAt !== undefined && !api().runner.isRunning(key) ? r : undefined;
    }, `job ${key} to finish`, timeoutMs);

  /** Brings a job's panel to the front (as a click in the Jobs view would) before its DOM is read. */
  const showPanel = async (key: string): Promise<void> => {
    api().panels.open(key);
    await eventually(() => api().panels.isVisible(key), `the panel of ${key} to be visible`);
    await eventually(() => api().panels.isReady(key), `the webview of ${key} to say ready`);
  };
  /** Writes `value` to the workspace's `file`, remembers `endpointId` for it and runs it as the user would. */
  const runFile = async (file: string, endpointId: string, value: unknown): Promise<JobRecord> => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, file);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n'));
    await api().memory.rememberEndpoint(uri, endpointId);
    return (await vscode.commands.executeCommand(JobCommands.runCurrentFile, uri)) as JobRecord;
  };
  return { finished, showPanel, runFile };
}

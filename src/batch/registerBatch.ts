// The batch feature, wired (issue 23): the manager, its commands, the CodeLens of .jsonl and sweep files, and the
// offer to resume a batch the last window left unfinished: after activation has returned, reading files only.
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { BatchCodeLensProvider, registerBatchCommands } from './batchCommands';
import { BatchManager, type BatchManagerDeps } from './batchManager';
import { offerResume } from './batchResume';
import { BatchJobGroups } from './batchJobsGroups';
import type { BatchGroups } from '../history/jobsView';

export interface BatchApi {
  manager: BatchManager;
  /** What the Jobs view lists of the batches. */
  groups: BatchJobGroups;
}

export function registerBatches(deps: BatchManagerDeps & { inputFilePattern: () => string; jobsView: { showBatches(g: BatchGroups): void } }, logger: Logger): { disposables: vscode.Disposable[]; api: BatchApi } {
  const manager = new BatchManager(deps);
  // The Jobs view lists each batch as one row, its jobs opened as the Batch panel's rows open them.
  const groups = new BatchJobGroups(manager, () => deps.outputs.roots().map((u) => u.fsPath), async (record) => {
    await deps.history.upsert(record);
    deps.panels.open(record.key);
  }, logger);
  deps.jobsView.showBatches(groups);
  const lens = new BatchCodeLensProvider();
  const disposables: vscode.Disposable[] = [
    groups,
    manager,
    ...registerBatchCommands(manager),
    // By language too (issue 32): VS Code's JSON Lines language is what `onLanguage:jsonl` activates on, and a
    // provider selected by its language is asked for a restored editor of that language as soon as it registers.
    vscode.languages.registerCodeLensProvider([{ language: 'jsonl' }, { pattern: '**/*.jsonl' }, { pattern: deps.inputFilePattern() }], lens),
  ];
  const later = setTimeout(() => {
    void offerResume(manager, deps.outputs.roots().map((u) => u.fsPath), logger).catch((e: unknown) => logger.error('looking for unfinished batches failed', e));
  }, 0);
  disposables.push(new vscode.Disposable(() => clearTimeout(later)));
  return { disposables, api: { manager, groups } };
}

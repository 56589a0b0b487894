// The batch feature, wired (issue 23): its commands, the CodeLens of .jsonl and sweep files, and the offer to
// resume a batch the last window left unfinished: after activation has returned, reading files only.
// The manager, the panel and the runner live in dist/rooms.js (src/rooms): loaded when a batch is first started,
// shown or offered to resume, so a session that runs no batch never parses them.
import { open, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { rooms } from '../rooms/rooms';
import { BatchCodeLensProvider, registerBatchCommands } from './batchCommands';
import type { BatchManager, BatchManagerDeps } from './batchManager';
import type { BatchJobGroups } from './batchJobsGroups';
import type { BatchSession } from './batchSession';
import type { BatchGroups } from '../history/jobsView';

export interface BatchApi {
  /** Loads the batch room on first use (tests reach it here). */
  readonly manager: BatchManager;
  /** What the Jobs view lists of the batches (loads the batch room too). */
  readonly groups: BatchJobGroups;
}

type BatchDeps = BatchManagerDeps & {
  inputFilePattern: () => string;
  jobsView: { showBatches(g: BatchGroups): void };
  /** Called for every batch started or resumed in this window (the durations it teaches are saved). */
  onSessionStart?: (s: BatchSession) => void;
};

export function registerBatches(deps: BatchDeps, logger: Logger): { disposables: vscode.Disposable[]; api: BatchApi } {
  let manager: BatchManager | undefined;
  let groups: BatchJobGroups | undefined;
  const changed = new vscode.EventEmitter<void>();
  const managerOf = (): BatchManager => {
    if (manager) return manager;
    manager = new (rooms().batch.manager.BatchManager)(deps);
    if (deps.onSessionStart) manager.onDidStart(deps.onSessionStart);
    changed.fire();
    return manager;
  };
  const roots = (): string[] => deps.outputs.roots().map((u) => u.fsPath);
  // The Jobs view lists each batch as one row, its jobs opened as the Batch panel's rows open them. The rows come
  // from the batch room, loaded only once a batch exists (on disk or started here): activation loads nothing.
  let batchesOnDisk = false;
  const groupsOf = (): BatchJobGroups => {
    if (groups) return groups;
    groups = new (rooms().batch.groups.BatchJobGroups)(managerOf(), roots, async (record) => {
      await deps.history.upsert(record);
      deps.panels.open(record.key);
    }, logger);
    groups.onDidChange(() => changed.fire());
    return groups;
  };
  deps.jobsView.showBatches({ groups: () => (manager || batchesOnDisk ? groupsOf().groups() : []), onDidChange: changed.event });
  const lens = new BatchCodeLensProvider();
  const disposables: vscode.Disposable[] = [
    { dispose: () => { groups?.dispose(); manager?.dispose(); } },
    changed,
    ...registerBatchCommands(managerOf, () => manager?.sessions ?? [], async () => (manager || batchesOnDisk ? groupsOf().listed() : [])),
    // By language too (issue 32): VS Code's JSON Lines language is what `onLanguage:jsonl` activates on, and a
    // provider selected by its language is asked for a restored editor of that language as soon as it registers.
    vscode.languages.registerCodeLensProvider([{ language: 'jsonl' }, { pattern: '**/*.jsonl' }, { pattern: deps.inputFilePattern() }], lens),
  ];
  const later = setTimeout(() => {
    void anyBatch(roots()).then((any) => {
      if (!any) return;
      batchesOnDisk = true;
      changed.fire();
    });
    void mayBeUnfinished(roots())
      .then((maybe) => (maybe ? rooms().batch.resume.offerResume(managerOf(), roots(), logger) : undefined))
      .catch((e: unknown) => logger.error('looking for unfinished batches failed', e));
  }, 0);
  disposables.push(new vscode.Disposable(() => clearTimeout(later)));
  return { disposables, api: { get manager() { return managerOf(); }, get groups() { return groupsOf(); } } };
}

/** Whether any batch folder exists under `roots` (a directory listing, no manifest read). */
async function anyBatch(roots: readonly string[]): Promise<boolean> {
  for (const root of new Set(roots)) {
    if ((await readdir(path.join(root, 'batches')).catch(() => [] as string[])).length) return true;
  }
  return false;
}

/**
 * Whether any batch under `roots` may be unfinished: the last line of its manifest is not a "finished" event
 * (its tail read, no parser: the manifest's own reader is in the room). Only then is the batch room loaded, and
 * batchResume.ts decides from the whole manifest.
 */
async function mayBeUnfinished(roots: readonly string[]): Promise<boolean> {
  for (const root of new Set(roots)) {
    const names = await readdir(path.join(root, 'batches')).catch(() => [] as string[]);
    for (const name of names) {
      if (!(await lastLineFinished(path.join(root, 'batches', name, MANIFEST_NAME)).catch(() => false))) return true;
    }
  }
  return false;
}

/** The manifest's name (core/batch/manifestFormat.ts MANIFEST_FILE; package.json's activation event names it too). */
const MANIFEST_NAME = 'batch.jsonl';

async function lastLineFinished(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 4096);
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, size - length);
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n');
    const last = lines.length >= 2 ? lines[lines.length - 2]! : '';
    const line = JSON.parse(last) as { type?: unknown; event?: unknown };
    return line.type === 'event' && line.event === 'finished';
  } finally {
    await handle.close();
  }
}

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

export interface BatchApi {
  /** Loads the batch room on first use (tests reach it here). */
  readonly manager: BatchManager;
}

export function registerBatches(deps: BatchManagerDeps & { inputFilePattern: () => string }, logger: Logger): { disposables: vscode.Disposable[]; api: BatchApi } {
  let manager: BatchManager | undefined;
  const managerOf = (): BatchManager => (manager ??= new (rooms().batch.manager.BatchManager)(deps));
  const lens = new BatchCodeLensProvider();
  const disposables: vscode.Disposable[] = [
    { dispose: () => manager?.dispose() },
    ...registerBatchCommands(managerOf, () => manager?.sessions ?? []),
    vscode.languages.registerCodeLensProvider([{ pattern: '**/*.jsonl' }, { pattern: deps.inputFilePattern() }], lens),
  ];
  const later = setTimeout(() => {
    const roots = deps.outputs.roots().map((u) => u.fsPath);
    void mayBeUnfinished(roots)
      .then((maybe) => (maybe ? rooms().batch.resume.offerResume(managerOf(), roots, logger) : undefined))
      .catch((e: unknown) => logger.error('looking for unfinished batches failed', e));
  }, 0);
  disposables.push(new vscode.Disposable(() => clearTimeout(later)));
  return { disposables, api: { get manager() { return managerOf(); } } };
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

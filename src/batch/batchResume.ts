// Batches a window left unfinished (issue 23 "Durable"): after activation, with no network, the manifests under
// the outputs folders (`<outputs>/batches/<id>/batch.jsonl`) are read; one whose jobs are not all ended, and that
// was not finished, cancelled or set aside, is offered to resume. Resuming follows the sent jobs by id (never
// sending them again) and sends the rest.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { countPhases, endsFinished, MANIFEST_FILE, ManifestWriter, readManifest, type ManifestState } from '../core/batch';
import type { Logger } from '../core/log';
import type { BatchManager } from './batchManager';

export const RESUME_BATCH = 'Resume Batch';
export const SET_ASIDE = 'Set Aside';

export interface UnfinishedBatch {
  manifestPath: string;
  state: ManifestState;
}

/** Every unfinished batch under `roots` (missing folders are skipped). */
export async function findUnfinished(roots: readonly string[]): Promise<UnfinishedBatch[]> {
  const found: UnfinishedBatch[] = [];
  for (const root of new Set(roots)) {
    const batches = path.join(root, 'batches');
    const names = await readdir(batches).catch(() => [] as string[]);
    for (const name of names) {
      const manifestPath = path.join(batches, name, MANIFEST_FILE);
      if (await endsFinished(manifestPath).catch(() => false)) continue;
      const state = await readManifest(manifestPath).catch(() => undefined);
      if (state && isUnfinished(state)) found.push({ manifestPath, state });
    }
  }
  return found;
}

export function isUnfinished(state: ManifestState): boolean {
  if (!state.header) return false;
  const last = state.events.at(-1)?.event;
  if (last === 'finished') return false;
  const c = countPhases(state);
  return c.pending + c.submitting + c.active > 0;
}

/** Offers each unfinished batch once, after the window is ready. */
export async function offerResume(manager: BatchManager, roots: readonly string[], logger: Logger): Promise<void> {
  const unfinished = await findUnfinished(roots);
  for (const b of unfinished) {
    const h = b.state.header!;
    const c = countPhases(b.state);
    // A `submitting` row is one whose /run had left when the window stopped (its line is written at the last
    // moment, sendingLine.ts): the one undecidable case, counted apart from the jobs followed by id.
    const lost = c.submitting + c.unknown;
    const undecided = lost ? `, ${lost} whose /run answer never came (they may exist: not sent again unless you choose to)` : '';
    const text = `A batch of ${h.jobs} jobs on ${h.endpointId} was left unfinished (${c.ended} ended, ${c.active} sent and not seen ending, ${c.pending} not sent${undecided}). Resume it? Sent jobs are followed by id, never sent twice.`;
    void vscode.window.showInformationMessage(text, RESUME_BATCH, SET_ASIDE).then(async (choice) => {
      if (choice === RESUME_BATCH) await manager.resume(b.manifestPath);
      else if (choice === SET_ASIDE) await setAside(b.manifestPath);
    }, (e: unknown) => logger.error('offering to resume a batch failed', e));
  }
}

/** Marks a batch as not to be offered again (its jobs are left as they are on the service). */
export async function setAside(manifestPath: string): Promise<void> {
  const writer = await ManifestWriter.open(manifestPath);
  await writer.write({ type: 'event', at: Date.now(), event: 'finished', reason: 'set aside by the user' });
  await writer.close();
}

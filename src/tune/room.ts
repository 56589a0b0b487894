// Tune Endpoint's room: the panel and the reading of this workspace's jobs, which run only once a user asks to
// tune an endpoint. Reached only through rooms().tune (registerTune.ts), so it lives in dist/rooms.js, the
// bundle of rooms a session may never open (issue 30), and activation never parses it.
import * as vscode from 'vscode';
import type { HistoryStore } from '../history/historyStore';
import { manifestSamples, mergeSamples } from '../core/tune/manifestSamples';
import type { JobSample } from '../core/tune/traffic';

export { TunePanel, type TuneDeps } from './tunePanel';

/** The Jobs history, and every batch manifest of the workspace (read off the thread, parsed in slices). */
export async function workspaceJobs(history: HistoryStore | undefined): Promise<JobSample[]> {
  const files = await vscode.workspace.findFiles('**/batch.jsonl', '**/node_modules/**', 200);
  const rows: Awaited<ReturnType<typeof manifestSamples>> = [];
  for (const f of files) {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(f));
    rows.push(...(await manifestSamples(text)));
  }
  return mergeSamples(history?.all() ?? [], rows);
}

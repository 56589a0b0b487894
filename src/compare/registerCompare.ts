// Compare with… (issue 31), wired: the command only. The room's host code (compareHost.ts, the panel, the diff) is
// loaded by `loadCompare` on first use, the seam a lazy bundle can split at.
import * as vscode from 'vscode';
import type { CompareDeps } from './compareHost';
import { rooms } from '../rooms/rooms';

export const COMPARE_COMMAND = 'serverlessGpu.compareWith';

/** The compare room's host code, loaded once, on first use. */
export const loadCompare = async (): Promise<typeof import('./compareHost')> => rooms().compare;

export function registerCompare(deps: CompareDeps): vscode.Disposable[] {
  return [
    // From the Jobs view the argument is the job's item (its record); tests and the grid pass keys.
    vscode.commands.registerCommand(COMPARE_COMMAND, async (first?: { record?: { key: string } } | string, second?: string) => {
      const key = typeof first === 'string' ? first : first?.record?.key;
      return (await loadCompare()).compareJobs(deps, key, second);
    }),
  ];
}

// Where a job's outputs may be written, as plain data (no `vscode` import, so plain Node tests can check it).
// Issue 12: `serverlessGpu.jobs.outputsDirectory` in a cloned repository's .vscode/settings.json could make the
// extension write files anywhere on disk. So a value that came from the workspace and resolves outside the
// workspace folder is only used once the user has confirmed that folder; the user's own setting is theirs to
// choose; and in an untrusted workspace the workspace value is not read at all (src/config/settings.ts).
import * as path from 'node:path';

export const DEFAULT_OUTPUTS_DIRECTORY = '.serverless-outputs';

/** The setting's value and whether a workspace (not the user) set it. */
export interface OutputsDirectorySetting {
  value: string;
  fromWorkspace: boolean;
}

/** The setting's values by scope (`inspect()`), and whether the workspace is trusted: which one counts. */
export function pickOutputsDirectory(
  info: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
  trusted: boolean,
): OutputsDirectorySetting {
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  // An untrusted workspace's value is never read: the setting is in `restrictedConfigurations` too.
  const fromWorkspace = trusted ? text(info?.workspaceFolderValue) ?? text(info?.workspaceValue) : undefined;
  if (fromWorkspace !== undefined) return { value: fromWorkspace, fromWorkspace: true };
  return { value: text(info?.globalValue) ?? DEFAULT_OUTPUTS_DIRECTORY, fromWorkspace: false };
}

export interface OutputsRoot {
  /** The folder to write under. */
  dir: string;
  /** True when `dir` came from the workspace, lies outside it, and has not been confirmed yet. */
  needsConfirmation: boolean;
  /** Where outputs go when the user does not confirm: the default folder inside the workspace. */
  fallback: string;
}

/** True when `child` is `parent` or inside it (after resolving `..`). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The outputs root for a job whose workspace folder is `base`. `approved` holds the folders the user has
 * already confirmed. A relative value is relative to `base` (so `../../x` is outside it too).
 */
export function resolveOutputsRoot(setting: OutputsDirectorySetting, base: string, approved: readonly string[]): OutputsRoot {
  const value = setting.value.trim() || DEFAULT_OUTPUTS_DIRECTORY;
  const dir = path.resolve(base, value);
  const fallback = path.resolve(base, DEFAULT_OUTPUTS_DIRECTORY);
  const needsConfirmation = setting.fromWorkspace && !isInside(base, dir) && !approved.some((a) => path.resolve(a) === dir);
  return { dir, needsConfirmation, fallback };
}

// Where a job's outputs may be written, as plain data (no `vscode` import, so plain Node tests can check it).
// Issue 12: `serverlessGpu.jobs.outputsDirectory` in a cloned repository's .vscode/settings.json could make the
// extension write files anywhere on disk. So a value that came from the workspace and resolves outside the
// workspace folder is only used once the user has confirmed that folder; the user's own setting is theirs to
// choose; and in an untrusted workspace the workspace value is not read at all (src/config/settings.ts).
import * as fs from 'node:fs';
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
 * Where `p` really is on disk: the real path of its nearest existing ancestor (symbolic links followed) with
 * the rest appended. A cloned repository can commit `.serverless-outputs` as a link to any folder; the text of
 * the path alone would call that "inside the workspace".
 */
export function realLocation(p: string): string {
  const rest: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(p);
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/** True when `dir`, links followed, leaves the real folder of `base`. */
function leavesThroughLink(base: string, dir: string): boolean {
  return isInside(base, dir) && !isInside(realLocation(base), realLocation(dir));
}

/**
 * The outputs root for a job whose workspace folder is `base`. `approved` holds the folders the user has
 * already confirmed. A relative value is relative to `base` (so `../../x` is outside it too), and a folder
 * that leads out of the workspace through a symbolic link counts as outside, whoever chose it. `privateDir`
 * (the extension's own storage) takes the outputs when even the default folder leads out through a link.
 */
export function resolveOutputsRoot(setting: OutputsDirectorySetting, base: string, approved: readonly string[], privateDir?: string): OutputsRoot {
  const value = setting.value.trim() || DEFAULT_OUTPUTS_DIRECTORY;
  const dir = path.resolve(base, value);
  const inWorkspace = path.resolve(base, DEFAULT_OUTPUTS_DIRECTORY);
  const fallback = privateDir && leavesThroughLink(base, inWorkspace) ? path.resolve(privateDir) : inWorkspace;
  const outside = (setting.fromWorkspace && !isInside(base, dir)) || leavesThroughLink(base, dir);
  const needsConfirmation = outside && !approved.some((a) => path.resolve(a) === dir);
  return { dir, needsConfirmation, fallback };
}

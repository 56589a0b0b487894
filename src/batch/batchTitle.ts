// A batch's title from its manifest's source, the same words as when it started (BatchManager.start titles it by
// the file or folder it was run on): a sweep file, one file of kind `files`, stays its name after a reload (it
// read "1 files" in the panel, the Jobs view and the progress notification, found walking the grid by hand).
import * as vscode from 'vscode';
import type { ManifestHeader } from '../core/batch';

export function batchTitle(header: ManifestHeader): string {
  const source = header.source;
  if (!source) return header.batchId;
  if (source.kind !== 'files') return vscode.workspace.asRelativePath(source.path);
  return source.paths.length === 1 ? vscode.workspace.asRelativePath(source.paths[0]!) : `${source.paths.length} files`;
}

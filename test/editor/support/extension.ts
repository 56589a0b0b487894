// Helpers every editor suite needs: the extension under test, activated.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

// publisher.name from package.json.
export const EXTENSION_ID = 'serverless-gpu-tools.serverless-gpu-jobs';

export function getExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this editor`);
  return ext;
}

export async function activateExtension(): Promise<vscode.Extension<unknown>> {
  const ext = getExtension();
  await ext.activate();
  return ext;
}

/** The workspace folder the runner opened: a fresh copy of test/editor/fixtures/workspace for each run. */
export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the runner opens a workspace folder');
  return folder;
}

/** Polls `probe` until it returns a value other than undefined/false, for UI state that settles on its own. */
export async function eventually<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

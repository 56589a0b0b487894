// The outputs folder of a job in this window: the setting resolved against the job's workspace folder, and
// the one-time confirmation a workspace's own value needs before files are written outside the workspace
// (issue 12; the rule itself is in ./outputsLocation.ts). A confirmed folder is remembered in globalState, per
// folder, so a repository cannot reuse one folder's approval for another; a refusal holds for this window.
import * as vscode from 'vscode';
import { resolveOutputsRoot, type OutputsDirectorySetting, type OutputsRoot } from './outputsLocation';

const APPROVED_KEY = 'serverlessGpu.approvedOutputsDirectories.v1';
export const SAVE_THERE = 'Save There';

export class OutputsRootChooser {
  private readonly declined = new Set<string>();
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly settings: { outputsDirectory(): OutputsDirectorySetting },
    private readonly fallbackRoot: vscode.Uri,
    private readonly approvals: vscode.Memento | undefined,
  ) {}

  /** Where a job started from `inputFile` would write, before any question is asked. */
  resolve(inputFile?: string): OutputsRoot {
    const folder =
      (inputFile ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(inputFile)) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
    return resolveOutputsRoot(this.settings.outputsDirectory(), (folder?.uri ?? this.fallbackRoot).fsPath, this.approved());
  }

  /** The folder to write a job's outputs under; asks once about a workspace's folder outside the workspace. */
  async rootFor(inputFile?: string): Promise<vscode.Uri> {
    const root = this.resolve(inputFile);
    if (!root.needsConfirmation) return vscode.Uri.file(root.dir);
    return vscode.Uri.file((await this.confirm(root.dir)) ? root.dir : root.fallback);
  }

  /** Every folder outputs may be under now (the webview's localResourceRoots): never an unconfirmed one. */
  roots(): vscode.Uri[] {
    const bases = [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()), undefined];
    return bases.flatMap((base) => {
      const root = this.resolve(base);
      return root.needsConfirmation ? [vscode.Uri.file(root.fallback)] : [vscode.Uri.file(root.dir), vscode.Uri.file(root.fallback)];
    });
  }

  private approved(): string[] {
    const v = this.approvals?.get<unknown>(APPROVED_KEY, []);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  /** One question per folder at a time: several jobs ending together ask once. */
  private confirm(dir: string): Promise<boolean> {
    if (this.declined.has(dir)) return Promise.resolve(false);
    let pending = this.asking.get(dir);
    if (!pending) {
      pending = this.ask(dir).finally(() => this.asking.delete(dir));
      this.asking.set(dir, pending);
    }
    return pending;
  }

  private async ask(dir: string): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(
      `This workspace's settings save job outputs outside the workspace, in ${dir}. Save them there?`,
      {
        modal: true,
        detail:
          'serverlessGpu.jobs.outputsDirectory is set by this workspace (.vscode/settings.json), and a cloned repository ' +
          'should not choose where files are written on your disk. "Save There" is remembered for this folder; otherwise ' +
          'outputs are saved in the workspace\'s .serverless-outputs folder. Set the folder in your user settings to skip this question.',
      },
      SAVE_THERE,
    );
    if (choice !== SAVE_THERE) {
      this.declined.add(dir);
      return false;
    }
    await this.approvals?.update(APPROVED_KEY, [...new Set([...this.approved(), dir])]);
    return true;
  }
}

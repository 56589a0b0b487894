// The outputs folder of a job in this window: the setting resolved against the job's workspace folder, and
// the one-time confirmation a workspace's own value needs before files are written outside the workspace
// (issue 12; the rule itself is in ./outputsLocation.ts). A confirmed folder is remembered in globalState, per
// folder, so a repository cannot reuse one folder's approval for another; the question is asked once a window.
import * as vscode from 'vscode';
import { resolveOutputsRoot, type OutputsDirectorySetting, type OutputsRoot } from './outputsLocation';

const APPROVED_KEY = 'serverlessGpu.approvedOutputsDirectories.v1';
export const ALLOW_FOLDER = 'Allow This Folder';

export class OutputsRootChooser {
  /** Folders this window has already asked about: one question per folder, not one per job. */
  private readonly asked = new Set<string>();

  constructor(
    private readonly settings: { outputsDirectory(): OutputsDirectorySetting },
    private readonly fallbackRoot: vscode.Uri,
    private readonly approvals: vscode.Memento | undefined,
  ) {}

  /** Where a job started from `inputFile` would write, before any question is asked. */
  resolve(inputFile?: string): OutputsRoot {
    const folder =
      (inputFile ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(inputFile)) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
    const privateDir = vscode.Uri.joinPath(this.fallbackRoot, 'outputs').fsPath;
    return resolveOutputsRoot(this.settings.outputsDirectory(), (folder?.uri ?? this.fallbackRoot).fsPath, this.approved(), privateDir);
  }

  /**
   * The folder to write a job's outputs under. A workspace's folder outside the workspace that is not confirmed
   * yet is not used: this job's outputs go to the workspace's own folder at once (nothing waits on an answer,
   * nothing is lost), and the user is asked whether that folder may be used from then on.
   */
  rootFor(inputFile?: string): vscode.Uri {
    const root = this.resolve(inputFile);
    if (!root.needsConfirmation) return vscode.Uri.file(root.dir);
    this.ask(root.dir, root.fallback);
    return vscode.Uri.file(root.fallback);
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

  // A notification, not a modal: a modal would hold the job's outputs until answered (and VS Code refuses
  // modals under test, so the real-editor suite could not click it).
  private ask(dir: string, fallback: string): void {
    if (this.asked.has(dir)) return;
    this.asked.add(dir);
    void vscode.window
      .showWarningMessage(
        `This workspace's outputs folder (serverlessGpu.jobs.outputsDirectory, or a link in the workspace) leads outside it, to ${dir}. ` +
          `A cloned repository should not choose where files are written on your disk, so they were saved in ${fallback}. ` +
          'Allow that folder for the next jobs? (Setting it in your user settings needs no question.)',
        ALLOW_FOLDER,
      )
      .then(async (choice) => {
        if (choice === ALLOW_FOLDER) await this.approvals?.update(APPROVED_KEY, [...new Set([...this.approved(), dir])]);
      });
  }
}

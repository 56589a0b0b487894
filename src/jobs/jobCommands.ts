// The job runner's commands: run the current file (async or sync), "Run Job…", change a file's endpoint,
// run again (with a seed), stop waiting, and the history's open/remove/clear. Every run goes through
// `runFile` or `runInput`, so a bad file is always caught, marked and never sent.
import * as vscode from 'vscode';
import { BadInputError } from '../core/http/errors';
import { writeSeedIntoInputText } from '../core/input/inputFile';
import type { JobInput } from '../core/schemas';
import { RequestOptions } from '../core/runtime/schemas';
import { describeError } from '../errors/describeError';
import type { HistoryStore } from '../history/historyStore';
import type { JobItem } from '../history/jobsView';
import type { JobPanels } from '../jobPanel/jobPanel';
import { JobCommands } from './commandIds';
import type { EndpointMemory } from './endpointMemory';
import { askRememberEndpoint, type EndpointSource, pickEndpoint } from './endpointPicker';
import type { InputCodeLensProvider } from './inputCodeLens';
import type { InputDiagnostics } from './inputDiagnostics';
import { statusWords, type JobRecord } from './jobRecord';
import { jobActions, lifeLine } from '../core/jobs/jobLife';
import type { JobRunner } from './jobRunner';
import { NO_CANCEL_ROUTE_NOTE, type CancelResult } from './jobNotes';
import { refusedInputMessage } from './refusedInputMessage';

export interface JobCommandDeps {
  runner: JobRunner;
  history: HistoryStore;
  /** Opening a panel loads the job panel's room on first use (registerJobs.ts). */
  panels: Pick<JobPanels, 'open'>;
  memory: EndpointMemory;
  diagnostics: InputDiagnostics;
  codeLens: InputCodeLensProvider;
  endpointSources: EndpointSource[];
}

export class JobActions {
  constructor(private readonly d: JobCommandDeps) {}

  /** Runs a file as a job's input on its remembered endpoint (asking for one the first time). */
  async runFile(uri: vscode.Uri | undefined, mode: 'async' | 'sync', endpointId?: string): Promise<JobRecord | undefined> {
    const document = await documentFor(uri);
    if (!document) {
      void vscode.window.showWarningMessage('Open a JSON input file first (the job\'s input, or {"input": {...}}).');
      return undefined;
    }
    const parsed = this.d.diagnostics.check(document);
    if (parsed instanceof BadInputError) {
      void vscode.window.showErrorMessage(refusedInputMessage(vscode.workspace.asRelativePath(document.uri), parsed, this.d.runner.secrets()));
      return undefined;
    }
    const remembered = this.d.memory.endpointFor(document.uri);
    const endpoint = endpointId ?? remembered ?? (await this.chooseEndpoint(document.uri));
    if (!endpoint) return undefined;
    // The file's endpoint is the user's choice (issue 22): running it elsewhere asks once whether to keep the
    // new one for the file; the default leaves the file's endpoint as it was.
    if (remembered !== undefined && endpoint !== remembered) {
      const keep = await askRememberEndpoint(vscode.workspace.asRelativePath(document.uri), endpoint, remembered);
      if (keep === undefined) return undefined;
      if (keep) await this.d.memory.rememberEndpoint(document.uri, endpoint);
    } else if (remembered === undefined) {
      await this.d.memory.rememberEndpoint(document.uri, endpoint);
    }
    this.d.codeLens.refresh();
    return this.runInput(endpoint, parsed.input, mode, document.uri.scheme === 'untitled' ? undefined : document.uri, parsed.request);
  }

  async runInput(endpointId: string, input: JobInput, mode: 'async' | 'sync', inputFile?: vscode.Uri, request?: RequestOptions): Promise<JobRecord> {
    await this.d.memory.rememberInput(endpointId, input, inputFile);
    const record = await this.d.runner.start({ endpointId, input, mode, ...(inputFile ? { inputFile } : {}), ...(request ? { request } : {}) });
    this.d.panels.open(record.key, { preserveFocus: true });
    return record;
  }

  /** Asks for the endpoint of a file and remembers it. */
  async chooseEndpoint(uri: vscode.Uri): Promise<string | undefined> {
    const current = this.d.memory.endpointFor(uri);
    const chosen = await pickEndpoint({
      title: `Endpoint for ${vscode.workspace.asRelativePath(uri)}`,
      ...(current ? { current } : {}),
      used: this.d.memory.usedEndpoints(),
      sources: this.d.endpointSources,
    });
    if (chosen) {
      await this.d.memory.rememberEndpoint(uri, chosen);
      this.d.codeLens.refresh();
    }
    return chosen;
  }

  /** "Run Job…": an endpoint, then an input (this file, another JSON file, or the last input used there). */
  async runJobInteractively(): Promise<JobRecord | undefined> {
    const endpoint = await pickEndpoint({ title: 'Run Job (1/2): endpoint', used: this.d.memory.usedEndpoints(), sources: this.d.endpointSources });
    if (!endpoint) return undefined;
    type Choice = vscode.QuickPickItem & { run: () => Promise<JobRecord | undefined> };
    const choices: Choice[] = [];
    const active = vscode.window.activeTextEditor?.document;
    if (active && (active.languageId === 'json' || active.languageId === 'jsonc' || active.fileName.endsWith('.json'))) {
      choices.push({ label: '$(file) Current file', description: vscode.workspace.asRelativePath(active.uri), run: () => this.runFile(active.uri, 'async', endpoint) });
    }
    choices.push({ label: '$(files) Another JSON file of the workspace…', run: () => this.pickWorkspaceFile(endpoint) });
    const last = this.d.memory.lastInput(endpoint);
    if (last) {
      const summary = JSON.stringify(last.input).slice(0, 80);
      choices.push({ label: '$(history) Last input used on this endpoint', description: summary, run: () => this.runInput(endpoint, last.input, 'async', last.inputFile ? vscode.Uri.parse(last.inputFile) : undefined) });
    }
    const chosen = await vscode.window.showQuickPick(choices, { title: `Run Job (2/2): input for ${endpoint}`, placeHolder: 'Which input?' });
    return chosen?.run();
  }

  private async pickWorkspaceFile(endpoint: string): Promise<JobRecord | undefined> {
    const files = await vscode.workspace.findFiles('**/*.json', '{**/node_modules/**,**/.serverless-outputs/**,**/.vscode/**}', 500);
    files.sort((a, b) => Number(b.path.endsWith('.input.json')) - Number(a.path.endsWith('.input.json')) || a.path.localeCompare(b.path));
    const picked = await vscode.window.showQuickPick(
      files.map((f) => ({ label: vscode.workspace.asRelativePath(f), uri: f })),
      { title: `Input file for ${endpoint}`, matchOnDescription: true },
    );
    return picked ? this.runFile(picked.uri, 'async', endpoint) : undefined;
  }

  /** Runs the job's input again: from its file as it is now, else the input that was sent. */
  async runAgain(record: JobRecord): Promise<JobRecord | undefined> {
    if (record.inputFile) {
      const uri = vscode.Uri.parse(record.inputFile);
      if (await exists(uri)) return this.runFile(uri, record.mode, record.endpointId);
    }
    const request = record.request ? RequestOptions.safeParse(record.request) : undefined;
    return this.runInput(record.endpointId, record.input, record.mode, undefined, request?.success ? request.data : undefined);
  }

  /** "Run again with this seed": writes the seed into a COPY of the input file (never the original) and runs it. */
  async runWithSeed(record: JobRecord, seed: number): Promise<JobRecord | undefined> {
    let text = JSON.stringify({ input: record.input }, null, 2) + '\n';
    let dir: vscode.Uri | undefined;
    let base = 'job';
    if (record.inputFile) {
      const uri = vscode.Uri.parse(record.inputFile);
      if (await exists(uri)) text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      dir = vscode.Uri.joinPath(uri, '..');
      base = uri.path.slice(uri.path.lastIndexOf('/') + 1).replace(/(\.input)?\.json$/i, '');
    }
    dir ??= record.outputsFolder ? vscode.Uri.parse(record.outputsFolder) : vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!dir) {
      void vscode.window.showErrorMessage('Open a folder first: the copy of the input needs a place to live.');
      return undefined;
    }
    let copyText: string;
    try {
      copyText = writeSeedIntoInputText(text, seed);
    } catch (err) {
      void vscode.window.showErrorMessage(`The input file cannot take a seed: ${describeError(err, { secrets: this.d.runner.secrets() }).message}`);
      return undefined;
    }
    const copy = await freeName(dir, `${base}.seed-${seed}`, '.input.json');
    await vscode.workspace.fs.writeFile(copy, new TextEncoder().encode(copyText));
    await this.d.memory.rememberEndpoint(copy, record.endpointId);
    await vscode.window.showTextDocument(copy, { viewColumn: vscode.ViewColumn.One, preview: false });
    return this.runFile(copy, record.mode, record.endpointId);
  }

  /** Cancel Job, said in words: cancelled, already ended, or (no cancel route) stopped waiting instead. */
  async cancelJob(key: string): Promise<CancelResult> {
    const result = await this.d.runner.cancelJob(key);
    switch (result.kind) {
      case 'cancelled':
        void vscode.window.setStatusBarMessage('$(circle-slash) Job cancelled on the service', 5000);
        break;
      case 'alreadyEnded':
        void vscode.window.showInformationMessage(`The job had already ended (${statusWords(result.status)}): there was nothing to cancel.`);
        break;
      case 'noRoute':
        void vscode.window.showWarningMessage(NO_CANCEL_ROUTE_NOTE);
        break;
      case 'notCancellable':
        void vscode.window.showWarningMessage(result.reason);
        break;
      case 'error':
        void vscode.window.showErrorMessage(`The job could not be cancelled: ${result.message}`);
        break;
    }
    return result;
  }

  /** Retry of a failed or timed-out job: the same job, queued again and followed in its panel. */
  async retryJob(key: string): Promise<boolean> {
    const result = await this.d.runner.retry(key);
    if (!result.ok) {
      void vscode.window.showWarningMessage(result.message);
      return false;
    }
    this.d.panels.open(key, { preserveFocus: true });
    return true;
  }

  /** A running job chosen from a list (the palette's Cancel Job and Stop Waiting, with no job given). */
  async pickRunningJob(title: string): Promise<string | undefined> {
    const running = this.d.history.all().filter((r) => this.d.runner.isRunning(r.key) && jobActions(r, true).stopWaiting);
    if (!running.length) {
      void vscode.window.showInformationMessage('No jobs are running.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      running.map((r) => ({ label: r.endpointId, description: `${lifeLine(r)}${r.jobId ? ` · ${r.jobId}` : ''}`, key: r.key })),
      { title },
    );
    return picked?.key;
  }

  async showRunningJobs(): Promise<void> {
    const running = this.d.history.all().filter((r) => this.d.runner.isRunning(r.key));
    if (!running.length) {
      void vscode.window.showInformationMessage('No jobs are running.');
      return;
    }
    // createQuickPick, not showQuickPick: only it draws item buttons, and the stop button is what the status
    // bar's tooltip promises ("open or stop one").
    type Item = vscode.QuickPickItem & { key: string };
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = 'Running jobs';
    pick.placeholder = 'Open a job';
    pick.items = running.map((r) => ({
      label: r.endpointId,
      description: `${lifeLine(r)}${r.jobId ? ` · ${r.jobId}` : ''}`,
      key: r.key,
      // What the job offers is the job life's to say (a job saving its outputs offers neither).
      buttons: [
        ...(jobActions(r, true).cancel ? [{ iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: 'Cancel job' }] : []),
        ...(jobActions(r, true).stopWaiting ? [{ iconPath: new vscode.ThemeIcon('debug-stop'), tooltip: 'Stop waiting' }] : []),
      ],
    }));
    const picked = await new Promise<Item | undefined>((resolve) => {
      pick.onDidTriggerItemButton((e) => {
        const cancel = e.button.tooltip === 'Cancel job';
        void vscode.commands.executeCommand(cancel ? JobCommands.cancelJob : JobCommands.stopWaiting, e.item.key);
        pick.items = pick.items.filter((i) => i.key !== e.item.key);
        if (pick.items.length === 0) pick.hide();
      });
      pick.onDidAccept(() => {
        resolve(pick.selectedItems[0]);
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
    pick.dispose();
    if (picked) this.d.panels.open(picked.key);
  }
}

export function registerJobCommands(actions: JobActions, d: JobCommandDeps): vscode.Disposable[] {
  const keyOf = (arg: unknown): string | undefined =>
    typeof arg === 'string' ? arg : (arg as JobItem | undefined)?.record?.key;
  const reg = vscode.commands.registerCommand;
  return [
    reg(JobCommands.runCurrentFile, (uri?: vscode.Uri) => actions.runFile(asUri(uri), 'async')),
    reg(JobCommands.runCurrentFileSync, (uri?: vscode.Uri) => actions.runFile(asUri(uri), 'sync')),
    reg(JobCommands.runJob, () => actions.runJobInteractively()),
    reg(JobCommands.changeEndpointForFile, async (uri?: vscode.Uri) => {
      const target = asUri(uri) ?? vscode.window.activeTextEditor?.document.uri;
      if (target) return actions.chooseEndpoint(target);
      void vscode.window.showWarningMessage('Open an input file first.');
      return undefined;
    }),
    reg(JobCommands.stopWaiting, async (arg?: unknown) => {
      const key = keyOf(arg) ?? (await actions.pickRunningJob('Stop waiting for which job?'));
      if (key && d.runner.stopWaiting(key)) {
        void vscode.window.showInformationMessage(
          'Stopped waiting for the job. It may still run on the service (and be billed): Cancel Job ends it there. Its result stays readable for 30 minutes.',
        );
        return true;
      }
      return false;
    }),
    reg(JobCommands.cancelJob, async (arg?: unknown) => {
      const key = keyOf(arg) ?? (await actions.pickRunningJob('Cancel which job?'));
      return key ? actions.cancelJob(key) : undefined;
    }),
    reg(JobCommands.retryJob, async (arg?: unknown) => {
      const key = keyOf(arg);
      return key ? actions.retryJob(key) : undefined;
    }),
    reg(JobCommands.openJob, (arg?: unknown) => {
      const key = keyOf(arg);
      if (key) d.panels.open(key);
    }),
    reg(JobCommands.showRunningJobs, () => actions.showRunningJobs()),
    reg(JobCommands.refreshJobHistory, () => d.history.applyLimit()),
    reg(JobCommands.clearJobHistory, async () => {
      const ok = await vscode.window.showWarningMessage('Clear the job history of this workspace and its list of endpoints used here? Saved outputs stay on disk.', { modal: true }, 'Clear');
      if (ok !== 'Clear') return;
      await d.history.clearFinished((key) => d.runner.isRunning(key));
      await d.memory.forgetUsedEndpoints();
    }),
    reg(JobCommands.removeJobFromHistory, async (arg?: unknown) => {
      const key = keyOf(arg);
      if (key && !d.runner.isRunning(key)) await d.history.remove(key);
    }),
    reg(JobCommands.openJobOutputsFolder, async (arg?: unknown) => {
      const record = d.history.get(keyOf(arg) ?? '');
      if (record?.outputsFolder) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.parse(record.outputsFolder));
    }),
  ];
}

/** Commands from the explorer and editor title pass a Uri; from the palette, nothing. */
function asUri(arg: unknown): vscode.Uri | undefined {
  return arg instanceof vscode.Uri ? arg : undefined;
}

async function documentFor(uri: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  if (uri) return vscode.workspace.openTextDocument(uri);
  return vscode.window.activeTextEditor?.document;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function freeName(dir: vscode.Uri, stem: string, ext: string): Promise<vscode.Uri> {
  for (let i = 0; i < 1000; i++) {
    const candidate = vscode.Uri.joinPath(dir, `${stem}${i ? `-${i}` : ''}${ext}`);
    if (!(await exists(candidate))) return candidate;
  }
  return vscode.Uri.joinPath(dir, `${stem}-${Date.now()}${ext}`);
}

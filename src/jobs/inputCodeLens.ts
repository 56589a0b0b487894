// The CodeLens at the top of input files (`serverlessGpu.jobs.inputFilePattern`, default `**/*.input.json`):
// "Run on <endpoint>", "Run sync", "Change endpoint". The endpoint is the one remembered for the file.
import * as vscode from 'vscode';
import { JobCommands } from './commandIds';
import type { EndpointMemory } from './endpointMemory';

export class InputCodeLensProvider implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly memory: EndpointMemory) {}

  /** The remembered endpoint of a file changed. */
  refresh(): void {
    this.emitter.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const endpoint = this.memory.endpointFor(document.uri);
    const args = [document.uri];
    const change = new vscode.CodeLens(top, {
      title: 'Change endpoint',
      tooltip: endpoint ? `Runs on ${endpoint} (remembered for this file): choose another to remember` : 'Choose the endpoint this file runs on, remembered for it',
      command: JobCommands.changeEndpointForFile,
      arguments: args,
    });
    // A file with a sweep block runs as a batch, by its own CodeLens "Run sweep" (src/batch): a single-job Run on
    // it could only refuse the file.
    if (holdsSweep(document.getText())) return [change];
    return [
      new vscode.CodeLens(top, {
        title: endpoint ? `$(play) Run on ${endpoint}` : '$(play) Run… (choose an endpoint)',
        // What really happens (issue 22): the job is followed on the long poll where the service has one.
        tooltip: endpoint
          ? `The endpoint remembered for this file is ${endpoint}: sends the file as a job's input there (/run), then follows the job on /status-sync (/status where the service has none)`
          : 'Choose an endpoint, then run this file',
        command: JobCommands.runCurrentFile,
        arguments: args,
      }),
      new vscode.CodeLens(top, {
        title: 'Run sync',
        tooltip: 'Send with /runsync (a job still running when it answers is followed on /status-sync)',
        command: JobCommands.runCurrentFileSync,
        arguments: args,
      }),
      change,
    ];
  }
}

/** `{"input": ..., "sweep": ...}` at the top level (the only place a sweep is one: docs/batches.md). */
export function holdsSweep(text: string): boolean {
  if (!text.includes('"sweep"')) return false;
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'input' in parsed && 'sweep' in parsed;
  } catch {
    return false;
  }
}

/** Registers the provider for the glob of the setting, again whenever the setting changes. */
export function registerInputCodeLens(provider: InputCodeLensProvider, pattern: () => string, onPatternChange: vscode.Event<void>): vscode.Disposable {
  let registration = vscode.languages.registerCodeLensProvider({ pattern: pattern() }, provider);
  const sub = onPatternChange(() => {
    registration.dispose();
    registration = vscode.languages.registerCodeLensProvider({ pattern: pattern() }, provider);
  });
  return new vscode.Disposable(() => {
    sub.dispose();
    registration.dispose();
  });
}

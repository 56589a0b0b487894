// Bad inputs of a batch, shown before anything is sent (issue 23 "Before sending"): a diagnostic at each file's
// line and column (a JSONL line's column is within that line), and one message that names the first few and
// lets the user skip them all. Nothing is sent unless the user chose to skip.
import * as vscode from 'vscode';
import type { InputProblem } from '../core/batch';

export const SKIP_BAD = 'Skip Them and Continue';
/** The same choice for one bad input. */
export const SKIP_ONE_BAD = 'Skip It and Continue';

export class BatchProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('serverlessGpu.batch');

  dispose(): void {
    this.collection.dispose();
  }

  /** Marks every problem where it is; clears the marks of files that have none left. */
  show(files: readonly string[], problems: readonly InputProblem[]): void {
    for (const f of files) this.collection.delete(vscode.Uri.file(f));
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const p of problems) {
      const line = Math.max(0, (p.line ?? 1) - 1);
      const column = Math.max(0, (p.column ?? 1) - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, column, line, column + 1), p.message, vscode.DiagnosticSeverity.Error);
      d.source = 'batch';
      byFile.set(p.file, [...(byFile.get(p.file) ?? []), d]);
    }
    for (const [file, list] of byFile) this.collection.set(vscode.Uri.file(file), list);
  }

  /** Asks whether to go on without the bad inputs; true only when the user chose to skip them. */
  async askToSkip(problems: readonly InputProblem[], good: number): Promise<boolean> {
    const first = problems.slice(0, 3).map(problemText).join('; ');
    const more = problems.length > 3 ? ` and ${problems.length - 3} more (see Problems)` : '';
    // Each problem is a sentence with its own period: the list's end gets none of its own ("..").
    const text = `${problems.length} bad input${problems.length === 1 ? '' : 's'}, nothing sent: ${first}${more}${/[.!?]$/.test(first + more) ? '' : '.'}`;
    const skip = problems.length === 1 ? SKIP_ONE_BAD : SKIP_BAD;
    const open = problems.length === 1 ? 'Open It' : 'Open First';
    const choices = good > 0 ? [skip, open] : [open];
    const goodOnes = good === 1 ? 'the good one' : `the ${good} good ones`;
    const choice = await vscode.window.showErrorMessage(good > 0 ? `${text} Send ${goodOnes}?` : text, ...choices);
    if (choice === open && problems[0]) await openProblem(problems[0]);
    return choice === skip;
  }
}

/** "prompts.jsonl:4:12 Unexpected token" */
export function problemText(p: InputProblem): string {
  const name = vscode.workspace.asRelativePath(p.file);
  const at = p.line !== undefined ? `:${p.line}${p.column !== undefined ? `:${p.column}` : ''}` : '';
  return `${name}${at} ${p.message}`;
}

async function openProblem(p: InputProblem): Promise<void> {
  const line = Math.max(0, (p.line ?? 1) - 1);
  const column = Math.max(0, (p.column ?? 1) - 1);
  await vscode.window.showTextDocument(vscode.Uri.file(p.file), { selection: new vscode.Range(line, column, line, column) });
}

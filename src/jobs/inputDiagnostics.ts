// Problems of an input file shown where they are: a Diagnostic at the line and column parseInputFile names
// (BadInputError is 1-based; VS Code positions are 0-based). Set when a run is refused, cleared as soon as
// the file parses again, so the squiggle never outlives the problem.
import * as vscode from 'vscode';
import { BadInputError } from '../core/http/errors';
import { parseInputFile, type ParsedInputFile } from '../core/input/inputFile';

export class InputDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('serverlessGpu.input');
  private readonly subscription: vscode.Disposable;

  constructor() {
    // Re-check files that carry our diagnostic while they are edited; others are left alone.
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (this.collection.has(e.document.uri)) this.check(e.document);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }

  /** Parses the document; on a problem sets the diagnostic and returns it, else clears and returns the input. */
  check(document: vscode.TextDocument): ParsedInputFile | BadInputError {
    try {
      const parsed = parseInputFile(document.getText());
      this.collection.delete(document.uri);
      return parsed;
    } catch (err) {
      const bad = err instanceof BadInputError ? err : new BadInputError(err instanceof Error ? err.message : String(err));
      this.collection.set(document.uri, [toDiagnostic(document, bad)]);
      return bad;
    }
  }

  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }
}

function toDiagnostic(document: vscode.TextDocument, err: BadInputError): vscode.Diagnostic {
  let range: vscode.Range;
  if (err.line !== undefined && document.lineCount > 0) {
    const line = Math.min(Math.max(err.line - 1, 0), document.lineCount - 1);
    const text = document.lineAt(line).text;
    const start = Math.min(Math.max((err.column ?? 1) - 1, 0), text.length);
    // One character wide (or to the end of the word), so the squiggle is visible even at the end of a line.
    const end = Math.min(text.length, start + Math.max(1, /^[\w"]+/.exec(text.slice(start))?.[0].length ?? 1));
    range = new vscode.Range(line, start, line, Math.max(end, start));
  } else {
    range = new vscode.Range(0, 0, 0, document.lineCount > 0 ? document.lineAt(0).text.length : 0);
  }
  const d = new vscode.Diagnostic(range, `${err.message} Nothing was sent.`, vscode.DiagnosticSeverity.Error);
  d.source = 'Serverless GPU';
  return d;
}

// The words shown when a run is refused because its input file is bad (nothing is sent). No `vscode` import,
// so plain Node tests check them. The position is said by describeError, once: a JSON syntax error already
// names it in its text, and the Diagnostic (inputDiagnostics.ts) marks it in the file.
import type { BadInputError } from '../core/http/errors';
import { describeError } from '../errors/describeError';

export function refusedInputMessage(file: string, problem: BadInputError, secrets: readonly string[]): string {
  return `Not sent: ${file}: ${describeError(problem, { secrets }).message}`;
}

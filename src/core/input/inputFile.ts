// Job input files (issue 2, "Input files"; SPEC 4.2): a JSON file next to the user's code that holds either
// the bare input object or the request body {"input": {...}}, which may also carry the platform's request
// options (webhook, policy, s3Config; issue 10). Anything else is refused with a message that
// points at the line and column, before anything is sent: the caller sends nothing when this throws.
import { BadInputError } from '../http/errors';
import type { JobInput } from '../schemas';
import { RequestOptions } from '../runtime/schemas';
import { lineColumnAt, scanJson } from './jsonLocator';
import '../zodMessages';

export interface ParsedInputFile {
  input: JobInput;
  /** True when the file was {"input": {...}}: "Run again with this seed" keeps that shape. */
  wrapped: boolean;
  /** The request options written beside "input" (webhook, policy, s3Config), to be sent as given. */
  request?: RequestOptions;
  /** A sweep block beside "input" (batches only, see ../batch/sweep.ts), unchecked, with where its value starts. */
  sweep?: { value: unknown; line: number; column: number };
}

export interface ParseInputOptions {
  /** Accept a "sweep" block beside "input" (a batch expands it); without this it is refused like any other key. */
  allowSweep?: boolean;
}

const REQUEST_OPTION_KEYS: ReadonlySet<string> = new Set(['webhook', 'policy', 's3Config']);

const BOM = '\uFEFF';

/** Parses the text of an input file. Throws BadInputError (with a 1-based line and column where there is one). */
export function parseInputFile(text: string, options: ParseInputOptions = {}): ParsedInputFile {
  // Editors may save a BOM; it is invisible, so positions are counted without it.
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw syntaxError(body, e);
  }
  // Where each top-level key is, found only when an error has to point at one.
  const keyAt = (name: string): { keyOffset: number; valueOffset: number } | undefined => {
    let found: { keyOffset: number; valueOffset: number } | undefined;
    scanJson(body, (key, keyOffset, valueOffset) => { if (key === name && !found) found = { keyOffset, valueOffset }; });
    return found;
  };
  const at = (offset: number | undefined): [number?, number?] => {
    if (offset === undefined) return [];
    const { line, column } = lineColumnAt(body, offset);
    return [line, column];
  };
  const firstValueOffset = body.length - body.trimStart().length;

  if (!isPlainObject(parsed)) {
    throw new BadInputError(
      `The input file must hold a JSON object (the job's input, or {"input": {...}}), not ${describeValue(parsed)}.`,
      ...at(firstValueOffset),
    );
  }
  if (!Object.prototype.hasOwnProperty.call(parsed, 'input')) return { input: parsed, wrapped: false };

  // Beside "input", the request options the platform documents (webhook, policy, s3Config) are sent as given;
  // anything else is refused before sending, at its line.
  const sweepAllowed = options.allowSweep === true;
  const extra = Object.keys(parsed).filter((k) => k !== 'input' && !REQUEST_OPTION_KEYS.has(k) && !(sweepAllowed && k === 'sweep'));
  if (extra.length === 1 && extra[0] === 'sweep') {
    // A sweep belongs beside "input" (docs/batches.md): the fix is to run it as a batch, never to move it.
    throw new BadInputError(
      'The input file has a "sweep" block: it runs as a batch, one job per combination. Use the CodeLens "Run sweep" or Serverless GPU: Run Batch… (a single job cannot carry a sweep).',
      ...at(keyAt('sweep')?.keyOffset),
    );
  }
  if (extra.length > 0) {
    const first = extra[0]!;
    const list = extra.map((k) => JSON.stringify(k)).join(', ');
    throw new BadInputError(
      `The input file has "input" and also ${list} at the top level. Beside "input" the request body allows only ` +
        `"webhook", "policy" and "s3Config"${Object.prototype.hasOwnProperty.call(parsed, 'sweep') ? ' (a "sweep" block stays beside "input": it runs as a batch, with Run Batch…)' : ''}: move ${extra.length === 1 ? 'it' : 'them'} inside "input", or remove the "input" wrapper.`,
      ...at(keyAt(first)?.keyOffset),
    );
  }
  const requestOptions: Record<string, unknown> = {};
  for (const k of Object.keys(parsed)) if (k !== 'input' && k !== 'sweep') requestOptions[k] = parsed[k];
  const checked = RequestOptions.safeParse(requestOptions);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const top = String(issue.path[0] ?? '');
    const where = issue.path.map(String).join('.');
    throw new BadInputError(`"${where}": ${issue.message}.`, ...at(keyAt(top)?.valueOffset));
  }
  const input = (parsed as { input: unknown }).input;
  if (!isPlainObject(input)) {
    throw new BadInputError(`"input" must be a JSON object, not ${describeValue(input)}.`, ...at(keyAt('input')?.valueOffset));
  }
  let sweep: ParsedInputFile['sweep'];
  if (sweepAllowed && Object.prototype.hasOwnProperty.call(parsed, 'sweep')) {
    const [line = 1, column = 1] = at(keyAt('sweep')?.valueOffset);
    sweep = { value: (parsed as { sweep: unknown }).sweep, line, column };
  }
  return { input, wrapped: true, ...(Object.keys(requestOptions).length ? { request: checked.data } : {}), ...(sweep ? { sweep } : {}) };
}

/**
 * A copy of an input file's text with `seed` set in the input ("Run again with this seed"), keeping the
 * wrapper shape and the file's indentation. Throws BadInputError like parseInputFile for a bad file.
 */
export function writeSeedIntoInputText(text: string, seed: number): string {
  const { input, wrapped, request } = parseInputFile(text);
  const withSeed: JobInput = { ...input, seed };
  const indent = detectIndent(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const out = JSON.stringify(wrapped ? { input: withSeed, ...request } : withSeed, null, indent).replace(/\n/g, eol);
  return (text.startsWith(BOM) ? BOM : '') + out + (/\r?\n$/.test(text) ? eol : '');
}

function syntaxError(body: string, e: unknown): BadInputError {
  const problem = scanJson(body);
  let offset = problem?.offset;
  let what = problem?.message;
  if (offset === undefined) {
    // The scanner found nothing JSON.parse rejects (it should not happen): fall back on V8's own message,
    // which in Node 20 ends with "at position N" for most errors but not for "Unexpected token" or "end".
    const message = e instanceof Error ? e.message : String(e);
    const m = /at position (\d+)/.exec(message);
    offset = m ? Number(m[1]) : /Unexpected end/.test(message) ? body.length : undefined;
    what = message.replace(/,? ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
  }
  if (offset === undefined) return new BadInputError(`The input file is not valid JSON: ${what}.`);
  const { line, column } = lineColumnAt(body, offset);
  return new BadInputError(`The input file is not valid JSON: ${what} (line ${line}, column ${column}).`, line, column);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return `${v}`;
  return typeof v;
}

function detectIndent(text: string): string | number {
  const m = /\n([ \t]+)["}\]]/.exec(text);
  return m ? m[1]! : 2;
}

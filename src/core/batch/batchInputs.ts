// What a batch sends (issue 23 "Start a batch"): the inputs of a folder of `*.input.json` files, of a list of
// files, of a `.jsonl` file (one input per line), or of an input file with a sweep block, each checked with the
// single job's own reader (../input/inputFile.ts) before anything is sent. Every bad file or line is reported
// with its file, line and column; the caller sends nothing unless the user chooses to skip the bad ones.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BadInputError } from '../http/errors';
import { parseInputFile } from '../input/inputFile';
import type { JobInput } from '../schemas';
import type { RequestOptions } from '../runtime/schemas';
import { expandSweep } from './sweep';

export type BatchSource =
  | { kind: 'folder'; path: string }
  | { kind: 'files'; paths: string[] }
  | { kind: 'jsonl'; path: string };

/** Where an input came from: enough to find it again (resume) and to name it in a row. */
export interface InputRef {
  file: string;
  /** 1-based line of a `.jsonl` file. */
  line?: number;
  /** The values a sweep set for this job. */
  sweep?: Record<string, unknown>;
}

export interface BatchItem {
  /** Position in the batch, 0-based: the key of the job in the manifest. */
  index: number;
  ref: InputRef;
  input: JobInput;
  request?: RequestOptions;
  /** A short digest of what is sent, so a resume can tell an input that changed since the batch began. */
  digest: string;
}

export interface InputProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

export interface BatchPlan {
  items: BatchItem[];
  problems: InputProblem[];
}

export const INPUT_FILE_SUFFIX = '.input.json';

/** Reads and checks every input of `source`. Never throws for a bad input: it is in `problems`. */
export async function loadBatchInputs(source: BatchSource): Promise<BatchPlan> {
  const plan: BatchPlan = { items: [], problems: [] };
  const add = (ref: InputRef, input: JobInput, request: RequestOptions | undefined): void => {
    plan.items.push({ index: plan.items.length, ref, input, ...(request ? { request } : {}), digest: digestOf(input, request) });
  };
  const files = source.kind === 'folder' ? await inputFilesIn(source.path) : source.kind === 'files' ? source.paths : [];
  for (const file of files) {
    const text = await readText(file, plan.problems);
    if (text !== undefined) expandText(file, text, undefined, plan, add);
  }
  if (source.kind === 'jsonl') {
    const text = await readText(source.path, plan.problems);
    if (text !== undefined) await expandJsonl(source.path, text, plan, add);
  }
  return plan;
}

/** The plan without its bad inputs, renumbered: what is sent when the user chose to skip them. */
export function withoutProblems(plan: BatchPlan): BatchItem[] {
  return plan.items.map((item, index) => ({ ...item, index }));
}

export function digestOf(input: JobInput, request?: RequestOptions): string {
  return createHash('sha256').update(JSON.stringify({ input, request })).digest('hex').slice(0, 16);
}

/** The `*.input.json` files directly in `folder`, by name (the order a user sees in the explorer). */
async function inputFilesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(INPUT_FILE_SUFFIX))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => join(folder, name));
}

async function readText(file: string, problems: InputProblem[]): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    problems.push({ file, message: `Cannot read the file: ${e instanceof Error ? e.message : String(e)}` });
    return undefined;
  }
}

type Add = (ref: InputRef, input: JobInput, request: RequestOptions | undefined) => void;

/** One input file's text (or one line's, with `line`): one input, or a sweep's many. */
function expandText(file: string, text: string, line: number | undefined, plan: BatchPlan, add: Add): void {
  try {
    const parsed = parseInputFile(text, { allowSweep: true });
    if (!parsed.sweep) {
      add({ file, ...(line !== undefined ? { line } : {}) }, parsed.input, parsed.request);
      return;
    }
    for (const point of expandSweep(parsed.input, parsed.sweep)) add({ file, ...(line !== undefined ? { line } : {}), sweep: point.values }, point.input, parsed.request);
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    // Within a JSONL line, the reader's line is always 1: the file's line is ours, the column is the reader's.
    const at = line !== undefined ? { line, ...(e.column !== undefined ? { column: e.column } : {}) } : { ...(e.line !== undefined ? { line: e.line } : {}), ...(e.column !== undefined ? { column: e.column } : {}) };
    // The reader speaks of "the input file"; of a JSONL line, that is the line.
    const message = e.message.replace(/ \(line \d+, column \d+\)/, '');
    plan.problems.push({ file, ...at, message: line !== undefined ? message.replace(/^The input file\b/, 'This line') : message });
  }
}

/**
 * Lines read between two yields to the event loop: reading and checking a line takes ~8 us, so a 10,000-line file
 * read at one go held the extension host ~80 ms (over issue 23's 50 ms); 256 lines are ~2 ms.
 */
const LINES_PER_TURN = 256;

async function expandJsonl(file: string, text: string, plan: BatchPlan, add: Add): Promise<void> {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % LINES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const raw = lines[i]!;
    // Blank lines (a trailing newline, spacing between groups) are not inputs.
    if (raw.trim() === '') continue;
    expandText(file, i === 0 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw, i + 1, plan, add);
  }
}

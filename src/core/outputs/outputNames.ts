// The names of a job's saved files: the worker's own file name where it gave one (ComfyUI's
// "ComfyUI_00001_.png"), made safe, else the kind and a count ("image-2-seed-42"). The extension is never the
// worker's: it is added from the bytes' format. Every name is one path segment (safeFileName), so a worker's
// "../../.bashrc" lands as ".bashrc"-less "bashrc-<hash>" inside the job's folder, and names never collide.
import { safeFileName } from './safeFileName';

/** Stems saveJobOutputs writes itself (job.json, output.txt, transcript.txt): a worker's file cannot take them. */
const RESERVED_STEMS = new Set(['job', 'output', 'transcript']);
/** Longest stem kept from a worker's name, so that an extension and a "-2" always fit. */
const MAX_STEM = 60;

export class OutputNames {
  private readonly used = new Set<string>();
  private readonly counters = new Map<string, number>();

  /** A unique stem (no extension) for the next file of `kind`. */
  stem(kind: string, workerName: string | undefined, seed: number | undefined): string {
    const fromWorker = workerName !== undefined ? workerStem(workerName) : undefined;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const base = fromWorker ?? `${kind}-${n}${seed !== undefined ? `-seed-${seed}` : ''}`;
    let stem = base;
    for (let i = 2; this.used.has(stem.toLowerCase()) || RESERVED_STEMS.has(stem.toLowerCase()); i++) stem = `${base}-${i}`;
    this.used.add(stem.toLowerCase());
    return stem;
  }
}

/** The worker's file name as a safe stem: its last path segment, without its extension; undefined when nothing is left. */
export function workerStem(name: string): string | undefined {
  const last = name.split(/[/\\]/).pop() ?? '';
  const stem = last.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  if (!/[A-Za-z0-9]/.test(stem)) return undefined;
  const safe = safeFileName(stem.slice(0, MAX_STEM));
  // safeFileName keeps dots inside a name ("a.b"): a stem that still ends in a known-looking extension is fine,
  // the real one is appended after it.
  return safe.length > 0 ? safe : undefined;
}

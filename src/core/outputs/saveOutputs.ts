// Keeps a finished job's outputs on disk the moment it completes: the service deletes dedicated results after
// 30 minutes and public output URLs expire after 7 days (SPEC 8.6, 8.7), so later is too late.
// Layout: <dir>/<safe endpoint id>/<safe job id>/{image-1-seed-42.png, ComfyUI_00001_.png, audio-1.wav,
// output.txt, transcript.txt, ..., job.json}: names from ./outputNames.ts, extensions from the bytes.
// Nothing that could be saved is thrown away: a failed download is recorded in job.json and the rest is
// still written.
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { redact } from '../log';
import { join, resolve, sep } from 'node:path';
import type { Job, JobInput } from '../schemas';
import { downloadToFile, DownloadFailed } from './download';
import type { EmbeddedPart, MediaKind, OutputPart } from './outputs';
import { outputCost } from './outputCost';
import { sniffMediaFormat } from './mediaFormat';
import { OutputNames } from './outputNames';
import { safeFileName } from './safeFileName';
import { transcriptFileText } from './transcript';
import { writeTextFile } from './textFile';
import { SMALL_TEXT_CHARS, type SmallFileWriter } from './fileThread';
import type { SavedCost } from '../cost/costText';

export interface SaveJobOutputsOptions {
  /** The outputs folder; created if missing. */
  dir: string;
  endpointId: string;
  job: Job;
  /** The input that was sent (job.input is only echoed on in-progress answers, SPEC 2.7). */
  input: JobInput | undefined;
  /** Path of the input file the job was run from, recorded in job.json. */
  inputFile?: string;
  /** parseOutputs(job.output). */
  parts: OutputPart[];
  /** Download https (and loopback http) outputs; when false their URLs are only recorded. */
  download: boolean;
  maxDownloadBytes: number;
  downloadTimeoutMs: number;
  signal?: AbortSignal;
  /** Strings scrubbed from job.json by value (the API key: a worker may echo it into its output or error). */
  secrets?: readonly string[];
  /** The job life's words for the job (status and duration), as every view shows them (issue 22). */
  life?: { statusText: string; durationText: string; attempt: number };
  /** What the job cost, reported or estimated with how (issue 23), as the panel and the Jobs view say it. */
  cost?: SavedCost;
  /**
   * Writes a text-only job's files (output.txt, transcript.txt, a small job.json) and makes its folder in one
   * request (./fileThread.ts: a batch's jobs, issue 30); without it, each is written here.
   */
  files?: SmallFileWriter;
}

export interface SavedFile {
  /** File name inside `folder`. */
  name: string;
  path: string;
  kind: 'text' | 'transcript' | MediaKind;
  bytes: number;
  /** Where in the output it came from, e.g. "output[0].image_url". */
  field: string;
  seed?: number;
  /** The URL it was downloaded from. */
  url?: string;
  contentType?: string;
}
export interface FailedDownload { field: string; url: string; reason: string }
export interface LinkOnly { field: string; kind: MediaKind; url: string }
export interface RejectedOutput { field: string; reason: string }

export interface SavedJobOutputs {
  folder: string;
  jobJsonPath: string;
  files: SavedFile[];
  failedDownloads: FailedDownload[];
  /** URLs recorded but not downloaded (download was false). */
  links: LinkOnly[];
  rejected: RejectedOutput[];
  /** Decoded images that could not be written (disk full, permissions...): the rest is still saved. */
  failedWrites: RejectedOutput[];
}

export async function saveJobOutputs(options: SaveJobOutputsOptions): Promise<SavedJobOutputs> {
  const { dir, endpointId, job, parts } = options;
  const root = resolve(dir);
  const folder = join(root, safeFileName(endpointId), safeFileName(job.id));
  // safeFileName already guarantees this; the check keeps it true if that function ever changes.
  if (!folder.startsWith(root + sep)) throw new Error(`refusing to write outside ${root}`);
  // Text-only outputs (a batch's usual job) go with job.json in one request, its folder made there too.
  const writer = options.files && parts.every((p) => p.kind === 'text' || p.kind === 'transcript' || p.kind === 'json' || p.kind === 'rejected') ? options.files : undefined;
  if (!writer) await mkdir(folder, { recursive: true });
  const texts: PendingText[] = [];

  const files: SavedFile[] = [];
  const failedDownloads: FailedDownload[] = [];
  const links: LinkOnly[] = [];
  const rejected: RejectedOutput[] = [];
  const failedWrites: RejectedOutput[] = [];
  const text = async (name: string, body: string, field: string, kind: PendingText['kind']): Promise<void> => {
    if (writer) texts.push({ name, text: redact(body, options.secrets), field, kind });
    else await writeText(folder, name, body, field, kind, options.secrets, files, failedWrites);
  };
  const names = new OutputNames();
  const downloads: Array<Promise<void>> = [];

  for (const part of parts) {
    switch (part.kind) {
      case 'embedded': {
        const name = `${names.stem(part.format.kind, part.fileName, part.seed)}.${part.format.ext}`;
        const path = join(folder, name);
        try {
          await writeEmbedded(path, part);
          files.push({ name, path, kind: part.format.kind, bytes: part.byteLength, field: part.field, ...seedOf(part.seed) });
        } catch (e) {
          failedWrites.push({ field: part.field, reason: `could not write ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
        }
        break;
      }
      case 'image':
      case 'video':
      case 'audio': {
        if (!options.download) {
          links.push({ field: part.field, kind: part.kind, url: part.url });
          break;
        }
        const base = names.stem(part.kind, part.fileName, part.seed);
        const signal = options.signal;
        downloads.push(
          downloadToFile(part.url, join(folder, base), {
            maxBytes: options.maxDownloadBytes,
            timeoutMs: options.downloadTimeoutMs,
            ...(signal ? { signal } : {}),
          }).then(
            (d) => {
              const name = d.path.slice(folder.length + 1);
              files.push({ name, path: d.path, kind: d.format.kind, bytes: d.bytes, field: part.field, ...seedOf(part.seed), url: part.url, ...(d.contentType ? { contentType: d.contentType } : {}) });
            },
            (e: unknown) => {
              failedDownloads.push({ field: part.field, url: part.url, reason: e instanceof DownloadFailed ? e.message : `could not save: ${(e as Error).message}` });
            },
          ),
        );
        break;
      }
      case 'transcript':
        await text('transcript.txt', transcriptFileText(part), part.field, 'transcript');
        break;
      case 'rejected':
        rejected.push({ field: part.field, reason: part.reason });
        break;
      case 'text':
        // A model's answer as plain text beside job.json (issue 10), readable without the JSON around it.
        await text('output.txt', part.text, part.field, 'text');
        break;
      case 'json':
        break; // kept in job.json through the full job object
    }
  }
  await Promise.all(downloads);
  for (const t of texts) files.push({ name: t.name, path: join(folder, t.name), kind: t.kind, bytes: Buffer.byteLength(t.text, 'utf8'), field: t.field });
  // Downloads finish in any order; the record lists files in output order.
  const order = new Map(parts.map((p, i) => [p.field, i]));
  files.sort((a, b) => (order.get(a.field) ?? 0) - (order.get(b.field) ?? 0));

  const cost = outputCost(job.output);
  const recordText = (): string => `${redact(JSON.stringify({
    endpointId,
    jobId: job.id,
    status: job.status,
    ...(options.life ? { life: options.life } : {}),
    savedAt: new Date().toISOString(),
    ...(options.inputFile !== undefined ? { inputFile: options.inputFile } : {}),
    input: options.input ?? job.input ?? null,
    timings: { delayTimeMs: job.delayTime ?? null, executionTimeMs: job.executionTime ?? null },
    ...(cost !== undefined ? { costUsd: cost } : {}),
    ...(options.cost ? { cost: options.cost } : {}),
    files: files.map(({ path: _path, ...f }) => f),
    failedDownloads,
    links,
    rejected,
    failedWrites,
    job,
  }, null, 2), options.secrets)}\n`;
  const jobJsonPath = join(folder, 'job.json');
  const saved = (): SavedJobOutputs => ({ folder, jobJsonPath, files, failedDownloads, links, rejected, failedWrites });
  let jobText = recordText();
  if (writer) {
    const small = jobText.length <= SMALL_TEXT_CHARS;
    const written = await writer.write(folder, [...texts.map((t) => ({ name: t.name, text: t.text })), ...(small ? [{ name: 'job.json', text: jobText, atomic: true }] : [])]);
    const lost = texts.map((t, i) => ({ t, w: written[i]! })).filter(({ w }) => !w.ok);
    if (small && lost.length === 0) {
      const last = written.at(-1)!;
      if (!last.ok) throw Object.assign(new Error(`could not write ${jobJsonPath}: ${last.code}`), { code: last.code });
      return saved();
    }
    // A text file not written is said in job.json, as on this thread: the record is made again with it.
    for (const { t, w } of lost) {
      files.splice(files.findIndex((f) => f.name === t.name), 1);
      failedWrites.push({ field: t.field, reason: `could not write ${t.name}: ${w.ok ? '' : w.code}` });
    }
    if (lost.length > 0) jobText = recordText();
  }
  // job.json holds the whole output (base64 images too): written from the string, never one Buffer of it all.
  await writeTextFile(`${jobJsonPath}.part`, jobText);
  await rename(`${jobJsonPath}.part`, jobJsonPath);
  return saved();
}

/** Base64 characters decoded per write: 1 MiB of text, 768 KiB of bytes (a multiple of 4: no quad is split). */
const DECODE_CHARS = 1 << 20;

/**
 * Decodes an embedded file to `path` a slice at a time through one reused buffer: the whole decoded file is never
 * in memory, on top of the base64 text it comes from (issue 30: four 12 MB images were ~50 MB of ArrayBuffers at
 * once, the largest part of the host's growth while a job's outputs are saved).
 */
async function writeEmbedded(path: string, part: EmbeddedPart): Promise<void> {
  const text = part.base64;
  // Checked again on the decoded bytes: the parse only read the first few characters' worth.
  const head = Buffer.from(text.slice(0, 88), 'base64');
  if (sniffMediaFormat(head.subarray(0, 64))?.ext !== part.format.ext) throw new Error('the decoded bytes are not what their start said');
  const file = await open(path, 'w');
  try {
    const buffer = Buffer.allocUnsafe(Math.ceil(Math.min(DECODE_CHARS, text.length) / 4) * 3);
    for (let at = 0; at < text.length; at += DECODE_CHARS) {
      const n = buffer.write(text.slice(at, at + DECODE_CHARS), 'base64');
      await file.write(buffer, 0, n);
    }
  } finally {
    await file.close();
  }
}

async function writeText(folder: string, name: string, text: string, field: string, kind: 'text' | 'transcript', secrets: readonly string[] | undefined, files: SavedFile[], failedWrites: RejectedOutput[]): Promise<void> {
  const path = join(folder, name);
  const bytes = Buffer.from(redact(text, secrets), 'utf8');
  try {
    await writeFile(path, bytes);
    files.push({ name, path, kind, bytes: bytes.byteLength, field });
  } catch (e) {
    failedWrites.push({ field, reason: `could not write ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
  }
}

interface PendingText { name: string; text: string; field: string; kind: 'text' | 'transcript' }

function seedOf(seed: number | undefined): { seed?: number } {
  return seed !== undefined ? { seed } : {};
}

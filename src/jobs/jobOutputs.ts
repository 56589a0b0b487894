// Where and how a finished job's outputs are kept: resolves the outputs folder of the workspace (setting
// `serverlessGpu.jobs.outputsDirectory`, default `.serverless-outputs`), hands the parts to the core's
// saveJobOutputs (which downloads without the API key, with a size cap and a timeout) and turns the result
// into the record's list of outputs, in output order.
import * as vscode from 'vscode';
import { parseOutputs, type OutputPart } from '../core/outputs/outputs';
import { outputNotices } from '../core/outputs/resultNotes';
import type { SavedJobOutputs } from '../core/outputs/saveOutputs';
import { rooms } from '../rooms/rooms';
import { describeJob } from '../core/jobs/jobLife';
import type { Job } from '../core/schemas';
import type { JobRecord, SavedOutput } from './jobRecord';
import type { OutputsDirectorySetting } from './outputsLocation';
import { OutputsRootChooser } from './outputsRoot';

export interface JobOutputSettings {
  outputsDirectory(): OutputsDirectorySetting;
  downloadOutputs(): boolean;
  maxDownloadBytes(): number;
  downloadTimeoutMs(): number;
}

export interface SavedOutputs {
  /** The job's folder, as a URI string. */
  folder: string;
  outputs: SavedOutput[];
  thumbnail?: string;
}

export interface JobOutputsWriter {
  /** `streamedText`: what the job streamed, saved as output.txt when its output holds no text of its own. */
  save(record: JobRecord, job: Job, signal?: AbortSignal, secrets?: readonly string[], streamedText?: string): Promise<SavedOutputs>;
  /** Every folder outputs may be written to (the webview's localResourceRoots). */
  roots(): vscode.Uri[];
}

export class WorkspaceOutputsWriter implements JobOutputsWriter {
  /** Where outputs go, with the one-time confirmation of a workspace's folder outside the workspace (issue 12). */
  readonly location: OutputsRootChooser;

  constructor(private readonly settings: JobOutputSettings, fallbackRoot: vscode.Uri, approvals?: vscode.Memento) {
    this.location = new OutputsRootChooser(settings, fallbackRoot, approvals);
  }

  /** The outputs root for a job: under the workspace folder of its input file, else the first folder. */
  rootFor(inputFile?: string): vscode.Uri {
    return this.location.rootFor(inputFile);
  }

  roots(): vscode.Uri[] {
    return this.location.roots();
  }

  async save(record: JobRecord, job: Job, signal?: AbortSignal, secrets: readonly string[] = [], streamedText?: string): Promise<SavedOutputs> {
    const parts = parseOutputs(job.output, { secrets });
    // A streaming worker whose final output is not a model's answer we know still leaves its text behind.
    if (streamedText && !parts.some((p) => p.kind === 'text')) parts.push({ kind: 'text', field: 'stream', text: streamedText });
    const root = this.rootFor(record.inputFile);
    const { statusText, durationText, attempt } = describeJob({ ...record, status: job.status });
    // Saving (downloads, decoding, files) is in dist/rooms.js: loaded when a session's first job ends.
    const saved = await rooms().outputs.saveJobOutputs({
      dir: root.fsPath,
      endpointId: record.endpointId,
      job,
      input: record.input,
      ...(record.inputFile ? { inputFile: vscode.Uri.parse(record.inputFile).fsPath } : {}),
      parts,
      download: this.settings.downloadOutputs(),
      maxDownloadBytes: this.settings.maxDownloadBytes(),
      downloadTimeoutMs: this.settings.downloadTimeoutMs(),
      ...(signal ? { signal } : {}),
      secrets,
      life: { statusText, durationText, attempt },
      ...(record.jobCost ? { cost: record.jobCost } : {}),
    });
    // Words about the output as a whole (empty, near the size limit) come first, as notices.
    const notices = outputNotices(job, streamedText).map((text): SavedOutput => ({ kind: 'notice', field: 'output', text }));
    const outputs = [...notices, ...describeSaved(parts, saved)];
    const thumbnail = outputs.find((o) => o.kind === 'image' && o.file)?.file;
    return { folder: vscode.Uri.file(saved.folder).toString(), outputs, ...(thumbnail ? { thumbnail } : {}) };
  }
}

/** The record's view of every part, in output order: the saved file, or why there is none. */
export function describeSaved(parts: OutputPart[], saved: SavedJobOutputs): SavedOutput[] {
  return parts.map((part): SavedOutput => {
    const file = saved.files.find((f) => f.field === part.field);
    const fileUri = file ? vscode.Uri.file(file.path).toString() : undefined;
    switch (part.kind) {
      case 'embedded':
        return { kind: file?.kind === 'video' || file?.kind === 'audio' ? file.kind : 'image', field: part.field, file: fileUri, seed: part.seed, width: part.width, height: part.height, ...(file ? {} : { note: saved.failedWrites.find((f) => f.field === part.field)?.reason }) };
      case 'image':
      case 'video':
      case 'audio': {
        // The downloaded bytes decide the kind: an image_url that served a WAV plays as audio.
        const kind = file && (file.kind === 'image' || file.kind === 'video' || file.kind === 'audio') ? file.kind : part.kind;
        if (file) return { kind, field: part.field, file: fileUri, seed: part.seed, url: part.url };
        const failed = saved.failedDownloads.find((f) => f.field === part.field);
        const note = failed
          ? `Not downloaded: ${failed.reason}`
          : 'Not downloaded: downloads are off (setting serverlessGpu.jobs.downloadOutputs). The service deletes it after 7 days.';
        return { kind: part.kind, field: part.field, seed: part.seed, url: part.url, note };
      }
      case 'transcript':
        return { kind: 'transcript', field: part.field, file: fileUri, text: part.text, segments: part.segments, language: part.language };
      case 'json':
        return { kind: 'json', field: part.field, text: safeStringify(part.value) };
      case 'text':
        return { kind: 'text', field: part.field, file: fileUri, text: part.text };
      case 'rejected':
        return { kind: 'rejected', field: part.field, note: part.reason };
    }
  });
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

// Where and how a finished job's outputs are kept: resolves the outputs folder of the workspace (setting
// `serverlessGpu.jobs.outputsDirectory`, default `.serverless-outputs`) and hands the job to ./jobOutputsRoom.ts
// (in dist/rooms.js), which reads its parts, saves them through the core's saveJobOutputs (downloads without the
// API key, with a size cap and a timeout) and turns the result into the record's list of outputs, in output order.
import * as vscode from 'vscode';
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
    const root = this.rootFor(record.inputFile);
    const { statusText, durationText, attempt } = describeJob({ ...record, status: job.status });
    // Reading the output for its parts and saving them (downloads, decoding, files) is in dist/rooms.js
    // (./jobOutputsRoom.ts): loaded when a session's first job ends.
    const saved = await rooms().outputs.saveAndDescribe({
      dir: root.fsPath,
      endpointId: record.endpointId,
      job,
      input: record.input,
      ...(record.inputFile ? { inputFile: vscode.Uri.parse(record.inputFile).fsPath } : {}),
      download: this.settings.downloadOutputs(),
      maxDownloadBytes: this.settings.maxDownloadBytes(),
      downloadTimeoutMs: this.settings.downloadTimeoutMs(),
      ...(signal ? { signal } : {}),
      secrets,
      life: { statusText, durationText, attempt },
      ...(record.jobCost ? { cost: record.jobCost } : {}),
    }, streamedText);
    const { outputs } = saved;
    const thumbnail = outputs.find((o) => o.kind === 'image' && o.file)?.file;
    return { folder: vscode.Uri.file(saved.folder).toString(), outputs, ...(thumbnail ? { thumbnail } : {}) };
  }
}

// Turns a job record (and its saved job.json) into what the panel shows. Media sources are webview URIs of
// LOCAL saved files only; a part that was not saved shows its note and its URL as text, never as a source.
import * as vscode from 'vscode';
import type { ErrorAction } from '../errors/describeError';
import type { WaitLike } from '../errors/retryWaitText';
import type { JobRecord } from '../jobs/jobRecord';
import { describeJob, jobActions } from '../core/jobs/jobLife';
import type { PanelJob, PanelOutput } from './protocol';

/** Longest string kept as is in the panel's job JSON; longer ones (base64 images) are abbreviated. */
const MAX_JSON_STRING = 400;

export function toPanelJob(
  record: JobRecord,
  options: {
    webview: vscode.Webview; running: boolean; errorActions: ErrorAction[]; jobJson?: unknown; isAllowedFile: (uri: vscode.Uri) => boolean;
    /** The wait before the next retry of this job's request, while there is one (issue 12). */
    retryWait?: WaitLike;
    workerLogs?: readonly string[];
  },
): PanelJob {
  const src = (file: string | undefined): string | undefined => {
    if (!file) return undefined;
    const uri = vscode.Uri.parse(file);
    return options.isAllowedFile(uri) ? options.webview.asWebviewUri(uri).toString() : undefined;
  };
  const outputs = record.outputs.map((o, index): PanelOutput => {
    const fileName = o.file ? basename(o.file) : undefined;
    switch (o.kind) {
      case 'image':
        if (!o.file && (o.url || o.note)) {
          // A public image that was not downloaded: text only.
          return { kind: 'rejected', index, reason: o.note ?? 'Not downloaded.', value: o.url ?? '' };
        }
        return { kind: 'image', index, src: src(o.file), seed: o.seed, width: o.width, height: o.height, fileName };
      case 'video':
      case 'audio':
        return { kind: o.kind, index, src: src(o.file), fileName, note: o.file ? undefined : `${o.note ?? 'Not downloaded.'}${o.url ? ` (${o.url})` : ''}` };
      case 'json':
        return { kind: 'json', index, text: o.text ?? '' };
      case 'text':
        return { kind: 'text', index, text: o.text ?? '', fileName };
      case 'transcript':
        return { kind: 'transcript', index, text: o.text ?? '', segments: o.segments ?? [], language: o.language, fileName };
      case 'notice':
        return { kind: 'notice', index, text: o.text ?? '' };
      case 'rejected':
        return { kind: 'rejected', index, reason: o.note ?? 'Rejected.', value: o.field };
    }
  });
  const life = describeJob(record);
  const actions = jobActions(record, options.running);
  return {
    key: record.key,
    endpointId: record.endpointId,
    jobId: record.jobId,
    mode: record.mode,
    inputFileName: record.inputFile ? vscode.workspace.asRelativePath(vscode.Uri.parse(record.inputFile)) : undefined,
    status: record.status,
    running: options.running,
    retryWait: options.running && options.retryWait ? { reason: options.retryWait.reason, status: options.retryWait.status, until: options.retryWait.until } : undefined,
    canCancel: actions.cancel,
    canRetry: actions.retry,
    canStopWaiting: actions.stopWaiting,
    submittedAt: record.submittedAt,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    delayTime: record.delayTime,
    executionTime: record.executionTime,
    workerId: record.workerId,
    cost: record.cost,
    jobCost: record.jobCost,
    error: record.error,
    queueReason: record.status === 'IN_QUEUE' ? record.queueReason : undefined,
    streamText: record.streamText,
    progress: life.live ? record.progress : undefined,
    attempt: record.attempt,
    errorActions: options.errorActions.map((a, i) => ({ id: String(i), label: a.title })),
    note: record.note,
    outputsFolder: record.outputsFolder ? vscode.workspace.asRelativePath(vscode.Uri.parse(record.outputsFolder)) : undefined,
    outputs,
    workerLogs: options.workerLogs?.length ? [...options.workerLogs] : undefined,
    jobJson: options.jobJson === undefined ? undefined : JSON.stringify(abbreviate(options.jobJson), null, 2),
  };
}

/** A copy with long strings (base64 images) cut, so the JSON view stays readable and the message small. */
export function abbreviate(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_JSON_STRING ? `${value.slice(0, 80)}… (${value.length} characters, shortened here; saved in full in job.json)` : value;
  }
  if (depth > 40 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => abbreviate(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = abbreviate(v, depth + 1);
  return out;
}

function basename(uri: string): string {
  const path = vscode.Uri.parse(uri).path;
  return path.slice(path.lastIndexOf('/') + 1);
}

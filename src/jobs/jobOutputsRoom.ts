// Saving a finished job's outputs, the half that runs in dist/rooms.js (./jobOutputs.ts keeps where they go):
// the output read for its parts (src/core/outputs/outputs.ts), the parts saved (downloads, decoding, files:
// saveJobOutputs), and the record's list of outputs made from what was saved, in output order, after the
// notices about the output as a whole. A session pays for parsing all of this when its first job ends, not at
// activation.
import * as vscode from 'vscode';
import { parseOutputs, type OutputPart } from '../core/outputs/outputs';
import { outputNotices } from '../core/outputs/resultNotes';
import { saveJobOutputs, type SavedJobOutputs, type SaveJobOutputsOptions } from '../core/outputs/saveOutputs';
import type { SavedOutput } from './jobRecord';

/**
 * A job's outputs read, saved and described. `streamedText`: what the job streamed, saved as output.txt when
 * its output holds no text of its own.
 */
export async function saveAndDescribe(options: Omit<SaveJobOutputsOptions, 'parts'>, streamedText?: string): Promise<{ folder: string; outputs: SavedOutput[] }> {
  const parts = parseOutputs(options.job.output, { secrets: options.secrets ?? [] });
  // A streaming worker whose final output is not a model's answer we know still leaves its text behind.
  if (streamedText && !parts.some((p) => p.kind === 'text')) parts.push({ kind: 'text', field: 'stream', text: streamedText });
  const saved = await saveJobOutputs({ ...options, parts });
  // Words about the output as a whole (empty, near the size limit) come first, as notices.
  const notices = outputNotices(options.job, streamedText).map((text): SavedOutput => ({ kind: 'notice', field: 'output', text }));
  return { folder: saved.folder, outputs: [...notices, ...describeSaved(parts, saved)] };
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

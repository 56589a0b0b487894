// The files a job panel reads from the disk: a saved output's bytes (sent to the page, one file at a time),
// the job's job.json, and a record rebuilt from it for a panel restored after its history entry went.
import { open as openFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { readTextFile } from '../core/outputs/textFile';
import { safeFileName } from '../core/outputs/safeFileName';
import { JobRecord } from '../jobs/jobRecord';

/**
 * Larger files are left to `src` (loaded by the editor from the disk, through the webview service worker)
 * rather than copied into a message. A message costs the extension host about 5.5 bytes of ArrayBuffers per
 * byte sent (VS Code's RPC buffer, protocol writer, compression and WebSocket frames in code-server), left for
 * the garbage collector: a 512 KiB image is under 3 MB of that, a job's four 1 MB images were 24 MB (issue 11).
 * Small files keep the bytes, and with them most panels never touch the service worker's 30 s stall
 * (PanelOutput's sentAsBytes).
 */
export const MAX_FILE_BYTES_IN_MESSAGE = 512 * 1024;

/** A file's size in bytes, or undefined when it is not there. */
export async function fileSize(file: vscode.Uri): Promise<number | undefined> {
  try {
    return file.scheme === 'file' ? (await stat(file.fsPath)).size : (await vscode.workspace.fs.stat(file)).size;
  } catch {
    return undefined;
  }
}

/**
 * A whole file (up to MAX_FILE_BYTES_IN_MESSAGE) as a plain Uint8Array over an ArrayBuffer of its own, read
 * straight into it: VS Code passes only exact Uint8Arrays to a webview as binary, and sends the whole
 * ArrayBuffer under a view (a Node Buffer may be a view into a shared pool).
 */
export async function readWholeFile(file: vscode.Uri): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (file.scheme !== 'file') return readSmallFile(file);
  try {
    const handle = await openFile(file.fsPath, 'r');
    try {
      const size = (await handle.stat()).size;
      if (size > MAX_FILE_BYTES_IN_MESSAGE) return undefined;
      const bytes = new Uint8Array(size);
      for (let offset = 0; offset < size;) {
        const { bytesRead } = await handle.read(bytes, offset, size - offset, offset);
        if (bytesRead === 0) return undefined; // shorter than its size said: being rewritten
        offset += bytesRead;
      }
      return bytes;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

async function readSmallFile(file: vscode.Uri): Promise<Uint8Array<ArrayBuffer> | undefined> {
  try {
    if ((await vscode.workspace.fs.stat(file)).size > MAX_FILE_BYTES_IN_MESSAGE) return undefined;
    // A plain Uint8Array of its own (the file system may hand back a Node Buffer, a view into a shared pool):
    // VS Code passes only exact Uint8Arrays to the webview as binary.
    return new Uint8Array(await vscode.workspace.fs.readFile(file));
  } catch {
    return undefined;
  }
}

/** A saved text output (output.txt), or undefined when it cannot be read or is too big to show. */
async function readText(file: vscode.Uri): Promise<string | undefined> {
  const bytes = await readSmallFile(file);
  return bytes ? new TextDecoder().decode(bytes) : undefined;
}

export async function readJobJson(folder: string): Promise<unknown> {
  try {
    const file = vscode.Uri.joinPath(vscode.Uri.parse(folder), 'job.json');
    // It holds the whole output (base64 images too): read as text without a Buffer of the whole file.
    const text = file.scheme === 'file' ? await readTextFile(file.fsPath) : new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A record rebuilt from a job's saved job.json (written by saveJobOutputs), for a panel restored after its history entry went. */
export async function recordFromJobJson(folderPath: string | undefined, key: string): Promise<JobRecord | undefined> {
  if (!folderPath) return undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const candidates = [vscode.Uri.file(folderPath), ...folders.map((f) => vscode.Uri.joinPath(f.uri, folderPath))];
  for (const folder of candidates) {
    const saved = (await readJobJson(folder.toString())) as Record<string, unknown> | undefined;
    if (!saved || typeof saved !== 'object') continue;
    const job = (saved['job'] ?? {}) as Record<string, unknown>;
    // job.json is a file on disk anyone could edit: only names saveJobOutputs could have written are kept, so
    // a crafted "../x.sh" can never become a path that Open externally or Save as… acts on.
    const files = (Array.isArray(saved['files']) ? (saved['files'] as Array<Record<string, unknown>>) : []).filter(
      (f) => typeof f['name'] === 'string' && f['name'] !== '' && safeFileName(f['name']) === f['name'],
    );
    const parsed = JobRecord.safeParse({
      key,
      endpointId: saved['endpointId'],
      jobId: saved['jobId'],
      mode: String(saved['jobId'] ?? '').startsWith('sync-') ? 'sync' : 'async',
      ...(typeof saved['inputFile'] === 'string' ? { inputFile: vscode.Uri.file(saved['inputFile']).toString() } : {}),
      input: saved['input'] ?? {},
      status: saved['status'],
      submittedAt: Date.parse(String(saved['savedAt'])) || Date.now(),
      finishedAt: Date.parse(String(saved['savedAt'])) || Date.now(),
      delayTime: job['delayTime'],
      executionTime: job['executionTime'],
      workerId: job['workerId'],
      cost: saved['costUsd'],
      jobCost: saved['cost'],
      outputsFolder: folder.toString(),
      outputs: await Promise.all(files.map(async (f) => {
        const file = vscode.Uri.joinPath(folder, String(f['name']));
        return {
          kind: f['kind'] === 'png' ? 'image' : f['kind'],
          field: f['field'],
          file: file.toString(),
          seed: f['seed'],
          // A model's answer is shown from its saved output.txt.
          ...(f['kind'] === 'text' || f['kind'] === 'transcript' ? { text: await readText(file) } : {}),
        };
      })),
    });
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

// The file thread's entry (bundled to dist/fileWorker.js, started by ./fileThread.ts): writes a job's small text
// files (job.json, output.txt) into its folder, one request per job, with plain blocking calls. On the extension
// host's thread each of those was a trip to libuv's file threads and back: about eight per job, so a 10,000-job
// batch woke them ~80,000 times, and the host's thread waited on their shared queue whenever one of them held it
// without a core (docs/decisions.md, issue 30, tenth pass). Here a slow disk blocks only this thread. No `vscode`.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { FileThreadReply, FileThreadRequest, WrittenFile } from './fileThread';

function codeOf(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

function writeOne(folder: string, name: string, text: string, atomic: boolean): WrittenFile {
  const path = join(folder, name);
  try {
    // The whole file or none: a reader (a resume, the grid) never meets half a job.json.
    if (atomic) {
      writeFileSync(`${path}.part`, text);
      renameSync(`${path}.part`, path);
    } else writeFileSync(path, text);
    return { ok: true, bytes: Buffer.byteLength(text, 'utf8') };
  } catch (e) {
    return { ok: false, code: codeOf(e) };
  }
}

parentPort!.on('message', (request: FileThreadRequest) => {
  let reply: FileThreadReply;
  try {
    mkdirSync(request.folder, { recursive: true });
    reply = { id: request.id, files: request.files.map((f) => writeOne(request.folder, f.name, f.text, f.atomic === true)) };
  } catch (e) {
    reply = { id: request.id, files: request.files.map(() => ({ ok: false, code: codeOf(e) })) };
  }
  parentPort!.postMessage(reply);
});

// A job's small text files written by one thread of ours (./fileWorker.ts), one request per job, instead of about
// eight trips of the extension host's thread to libuv's file threads (issue 30, tenth pass). Only small texts come
// here: a message copies its strings, and a job.json holding base64 images stays on ./textFile.ts's sliced writes.
// The thread starts on the first write and stops after a while idle; a missing worker file (a broken install)
// writes on this thread instead, the same files the same way. No `vscode` import.
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Texts up to this many characters go through the thread (an echo's job.json is ~1 KB; an image's, megabytes). */
export const SMALL_TEXT_CHARS = 256 * 1024;
const IDLE_MS = 30_000;

export interface TextFile {
  name: string;
  text: string;
  /** Written as `<name>.part` and renamed: the whole file or none. */
  atomic?: boolean;
}
export type WrittenFile = { ok: true; bytes: number } | { ok: false; code: string };
export interface FileThreadRequest { id: number; folder: string; files: TextFile[] }
export interface FileThreadReply { id: number; files: WrittenFile[] }

export interface SmallFileWriter {
  /** Creates `folder` (and its parents) and writes each file in order; one result per file, in order. */
  write(folder: string, files: TextFile[]): Promise<WrittenFile[]>;
}

/** The same writes on the caller's thread: the fallback, and what a caller without a thread does. */
export const inThreadWriter: SmallFileWriter = {
  async write(folder, files) {
    try {
      await mkdir(folder, { recursive: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? String(e);
      return files.map(() => ({ ok: false, code }));
    }
    const results: WrittenFile[] = [];
    for (const f of files) {
      const path = join(folder, f.name);
      try {
        await writeFile(f.atomic ? `${path}.part` : path, f.text);
        if (f.atomic) await rename(`${path}.part`, path);
        results.push({ ok: true, bytes: Buffer.byteLength(f.text, 'utf8') });
      } catch (e) {
        results.push({ ok: false, code: (e as NodeJS.ErrnoException).code ?? String(e) });
      }
    }
    return results;
  },
};

export function createFileThread(workerFile: string, warn: (message: string) => void = () => undefined): SmallFileWriter & { stop(): void } {
  let worker: Worker | undefined;
  let nextId = 1;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let missing: boolean | undefined;
  const pending = new Map<number, { resolve(files: WrittenFile[]): void; reject(e: Error): void }>();

  function stop(): void {
    clearTimeout(idleTimer);
    const w = worker;
    worker = undefined;
    void w?.terminate();
  }

  function failAll(e: Error): void {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  }

  function started(): Worker {
    if (worker) return worker;
    const w = new Worker(workerFile);
    w.on('message', (reply: FileThreadReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      p.resolve(reply.files);
      if (pending.size === 0 && worker === w) {
        w.unref(); // an idle thread never keeps a process (a test run, a bench) alive
        idleTimer = setTimeout(stop, IDLE_MS);
        idleTimer.unref();
      }
    });
    w.on('error', (e) => {
      if (worker === w) worker = undefined;
      failAll(new Error(`The file thread failed: ${e.message}`));
    });
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      if (pending.size > 0) failAll(new Error(`The file thread stopped (exit code ${code}) before it answered.`));
    });
    worker = w;
    return w;
  }

  return {
    stop,
    write(folder, files) {
      // Looked for once: a blocking stat per job is what this thread is here to take off the host's.
      if (missing === undefined) {
        missing = !existsSync(workerFile);
        if (missing) warn(`file thread ${workerFile} is missing; writing job files on this thread`);
      }
      if (missing) return inThreadWriter.write(folder, files);
      clearTimeout(idleTimer);
      const w = started();
      w.ref();
      const id = nextId++;
      const result = new Promise<WrittenFile[]>((resolve, reject) => pending.set(id, { resolve, reject }));
      const request: FileThreadRequest = { id, folder, files };
      w.postMessage(request);
      return result;
    },
  };
}

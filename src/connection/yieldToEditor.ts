// The emulator we start on the user's machine (the demo's service, a local worker's runtime) stands for a service
// that is elsewhere: it must not take a core from the editor (issue 30). Two things see to that on Linux, where
// the scheduler shares the cores first between groups of processes (a session each, "autogroup") and only then
// between the threads of a group:
// - a session of its own (`detached`), so its CPU is not charged to the group of the extension host (shared with
//   every extension, code-server's server and its file watcher); measured: when that group had used its share, the
//   host's collector threads waited 10-27 ms for a core while the host's main thread waited for them;
// - below-normal priority for that group and for each of its threads, so under contention a core goes to the
//   editor first; with cores to spare the emulator is as fast as before.
// Worker processes it starts later (a user's handler.py) inherit the threads' priority; each runs in a session of
// its own, whose group its watchdog sets to the emulator's priority (src/emulator/workers/process/workerProcess.ts).
// Elsewhere (macOS, Windows) the priority call covers the whole process and no session is made (on Windows
// `detached` would open a console window).
import { readdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';

const BELOW_NORMAL = os.constants.priority.PRIORITY_BELOW_NORMAL;

/** `detached` for spawn: a session (and so a scheduling group) of its own, on Linux only. */
export const SESSION_OF_ITS_OWN = process.platform === 'linux';

function threadsOf(pid: number): number[] {
  if (process.platform !== 'linux') return [pid];
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number).filter((id) => Number.isInteger(id) && id > 0);
  } catch {
    return [pid];
  }
}

/**
 * Lowers `pid`'s priority: its scheduling group's (Linux with autogroup) and each of its threads' (on Linux a nice
 * value is a thread's, and node makes its helper threads before any script runs). Best effort: a process that is
 * gone or a system that refuses leaves it as it was, and the emulator works the same, only less politely. Call it
 * once the process is spawned and again when it is ready, so threads it made meanwhile are lowered too.
 */
export function yieldCoresToEditor(pid: number | undefined): void {
  if (pid === undefined) return;
  if (SESSION_OF_ITS_OWN) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(BELOW_NORMAL));
    } catch {
      // no autogroup in this kernel, or the process ended
    }
  }
  for (const id of threadsOf(pid)) {
    try {
      if (os.getPriority(id) < BELOW_NORMAL) os.setPriority(id, BELOW_NORMAL);
    } catch {
      // the thread ended meanwhile, or the system does not allow it
    }
  }
}

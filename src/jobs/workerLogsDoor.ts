// The door to hosted worker logs (issue 28): the follower itself (./hostedWorkerLogs.ts, with the SSE reader of
// src/core/serverless/workerLogs.ts) is a room of dist/rooms.js, loaded when a job first runs with a job id in
// this window. Until then the door answers for it (no lines, nothing followed), and its one event stays the
// same for whoever subscribed early (the job panels).
import * as vscode from 'vscode';
import type { HostedWorkerLogs, HostedWorkerLogsDeps } from './hostedWorkerLogs';

export class WorkerLogsDoor implements vscode.Disposable {
  private room: HostedWorkerLogs | undefined;
  private readonly emitter = new vscode.EventEmitter<string>();
  /** A job's lines changed (its key). */
  readonly onDidAppend = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(deps: HostedWorkerLogsDeps, load: () => typeof import('./hostedWorkerLogs')) {
    this.subscriptions.push(deps.history.onDidChange((record) => {
      // Only a running job that the service knows (it has an id) has a worker to follow: the same test the
      // follower makes first, so nothing is loaded for a window that only looks at its history.
      if (this.room || !record || record.finishedAt !== undefined || !record.jobId || !deps.isRunning(record.key)) return;
      const room = new (load().HostedWorkerLogs)(deps);
      this.room = room;
      this.subscriptions.push(room, room.onDidAppend((key) => this.emitter.fire(key)));
      room.look(record);
    }));
  }

  /** The lines of a job's worker seen so far (the panel shows them). */
  linesOf(key: string): readonly string[] | undefined {
    return this.room?.linesOf(key);
  }

  /** Whether the worker of `key` is being followed now. */
  isFollowing(key: string): boolean {
    return this.room?.isFollowing(key) ?? false;
  }

  /** Whether the follower's room is loaded (tests). */
  get loaded(): boolean {
    return this.room !== undefined;
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.emitter.dispose();
  }
}

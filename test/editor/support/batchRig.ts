// What the batch suites share (test/editor/batch.test.ts, batchRows.test.ts): the emulator in its own process with
// the suite's endpoints, behind the recording proxy so what was sent is counted on the wire, the extension's
// client pointed at it, and a few verbs (start a batch, wait for its end, count its /run).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { BatchSource } from '../../../src/core/batch';
import type { ServiceClient } from '../../../src/core/service';
import type { JobRunnerApi } from '../../../src/jobs/registerJobs';
import type { BatchSession } from '../../../src/batch/batchSession';
import type { BatchRowView } from '../../../src/batch/batchProtocol';
import type { StartOptions } from '../../../src/batch/batchManager';
import { modalConfirm } from '../../../src/batch/batchQuestions';
import { activateExtension, eventually, workspaceFolder } from './extension';
import { startEmulatorWith, type RunningEmulator } from './emulator';
import { startRecordingProxy } from './recordingProxy';

export interface BatchRig {
  readonly api: JobRunnerApi;
  readonly client: ServiceClient;
  readonly proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  start(source: BatchSource, endpointId: string, options?: StartOptions): Promise<BatchSession>;
  toEnd(session: BatchSession, timeoutMs?: number): Promise<true>;
  /** How many POST /run reached the emulator for that endpoint. */
  runsOn(endpointId: string): number;
  /** Waits until the batch's panel has `n` rows on the page as they now are, each passing `ok`; returns them by index. */
  rowsShown(session: BatchSession, n: number, ok: (v: BatchRowView) => unknown, what: string): Promise<BatchRowView[]>;
  /**
   * The modal questions (Send, Cancel Batch) asked so far, as [message, detail, action]: VS Code refuses modals to
   * an extension under test, so the rig answers them with `answer` (true: the action) and keeps them.
   */
  readonly asked: string[][];
  answer: boolean;
}

/**
 * Sets up the suite (suiteSetup / suiteTeardown) with these emulator endpoints and one key of every scope a batch
 * uses; the returned rig is usable from the tests on.
 */
export function useBatchRig(key: string, endpoints: object[]): BatchRig {
  let api: JobRunnerApi | undefined;
  let emulator: RunningEmulator | undefined;
  let proxy: BatchRig['proxy'] | undefined;
  let client: ServiceClient | undefined;
  const asked: string[][] = [];
  let answer = true;
  const need = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the batch rig is used before suiteSetup ran');
    return v;
  };

  suiteSetup(async () => {
    const ext = await activateExtension();
    api = (ext.exports as { jobs: JobRunnerApi }).jobs;
    emulator = await startEmulatorWith(ext.extensionPath, { users: [{ id: 'u', keys: [{ key, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }], endpoints }] });
    proxy = await startRecordingProxy(emulator.url);
    const c = api.createClient({ billingBaseUrl: proxy.url, jobsBaseUrl: proxy.url, apiKey: key });
    client = c;
    api.useClientSource({ getClient: async () => c, secrets: () => [key] });
    api.batches.manager.ui.confirm = async (...question) => {
      asked.push(question);
      return answer;
    };
  });

  suiteTeardown(async () => {
    if (api) api.batches.manager.ui.confirm = modalConfirm;
    api?.useClientSource(undefined);
    await proxy?.close();
    await emulator?.close();
  });

  return {
    asked,
    get answer() {
      return answer;
    },
    set answer(v: boolean) {
      answer = v;
    },
    get api() {
      return need(api);
    },
    get client() {
      return need(client);
    },
    get proxy() {
      return need(proxy);
    },
    async start(source, endpointId, options = {}) {
      const anchor = vscode.Uri.file(source.kind === 'files' ? source.paths[0]! : source.path);
      const session = await need(api).batches.manager.start(source, anchor, { endpointId, confirmed: true, ...options });
      assert.ok(session, 'the batch started');
      return session;
    },
    toEnd: (session, timeoutMs = 90_000) => eventually(() => (session.finished && !session.running) || undefined, `the batch ${session.o.title} to end`, timeoutMs),
    runsOn: (endpointId) => need(proxy).requests.filter((r) => r.method === 'POST' && r.url === `/v2/${endpointId}/run`).length,
    rowsShown: (session, n, ok, what) =>
      eventually(() => {
        const views = need(api).batches.manager.panelOf(session)?.shownRows() ?? [];
        return views.length === n && views.every(ok) ? views.sort((a, b) => a.index - b.index) : undefined;
      }, what),
  };
}

/** Writes a file into the test workspace (JSON unless a string is given); returns its path. */
export function writeWorkspaceFile(rel: string, value: unknown): string {
  const file = path.join(workspaceFolder().uri.fsPath, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

/** A folder of `n` image input files (64x64, seeds 1..n); returns the folder's path. */
export function imageInputs(folder: string, n: number): string {
  for (let i = 1; i <= n; i++) writeWorkspaceFile(`${folder}/img-${i}.input.json`, { input: { prompt: `a lighthouse ${i}`, width: 64, height: 64, seed: i } });
  return path.join(workspaceFolder().uri.fsPath, folder);
}

// Serve Worker Locally in the real editor (issue 14 "Done when"): a workspace with a handler.py and an input file;
// Serve Worker Locally; run the input file; the PNG is saved and shown in the panel, and Worker Logs show what the
// handler printed; change the handler, restart, run again, see the new output. The worker runs on the platform's
// Python SDK from the project's venv (scripts/python-env.mjs), named by the pythonPath setting.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { JobCommands } from '../../src/jobs/commandIds';
import type { JobRecord } from '../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import { LOCAL_WORKER_PROFILE_NAME, LocalWorkerCommands, type LocalWorkerApi } from '../../src/localWorker/registerLocalWorker';
import { driverAvailable, screenshot } from './support/driver';
import { activateExtension, eventually, workspaceFolder } from './support/extension';

const HANDLER = (version: string) => `import base64, struct, zlib
import runpod

def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

def handler(job):
    w, h = int(job["input"]["width"]), int(job["input"]["height"])
    print("handler ${version} drawing", w, h, flush=True)
    rows = b"".join(b"\\x00" + bytes((${version === 'v1' ? 200 : 20}, 100, 50)) * w for _ in range(h))
    png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return [{"image_url": "data:image/png;base64," + base64.b64encode(png).decode(), "seed": ${version === 'v1' ? 1 : 2}}]

if __name__ == "__main__":
    runpod.serverless.start({"handler": handler})
`;

function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

suite('local worker', () => {
  let venvPython = '';
  let jobs: JobRunnerApi;
  let worker: LocalWorkerApi;
  let connection: { profile: { name: string } };

  suiteSetup(async function () {
    const ext = await activateExtension();
    // The extension runs from the source tree, where the project's venv lives.
    venvPython = path.join(ext.extensionPath, '.venv-worker', 'bin', 'python');
    if (!fs.existsSync(venvPython)) {
      if (process.env.CI === 'true') throw new Error(`no ${venvPython}: with CI=true the local worker suite must run`);
      this.skip();
    }
    const exported = ext.exports as { jobs?: JobRunnerApi; localWorker?: LocalWorkerApi; sidebar: { connection: { profile: { name: string } } } };
    connection = exported.sidebar.connection;
    assert.ok(exported.jobs && exported.localWorker, 'the extension exposes the job runner and the local worker to tests');
    jobs = exported.jobs;
    worker = exported.localWorker;
    await vscode.workspace.getConfiguration('serverlessGpu').update('localWorker.pythonPath', venvPython, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand(LocalWorkerCommands.stop);
    await vscode.workspace.getConfiguration('serverlessGpu').update('localWorker.pythonPath', undefined, vscode.ConfigurationTarget.Global);
  });

  test('Serve Worker Locally, run an input file, see the PNG and the logs; change the handler, restart, see the new output', async () => {
    const folder = workspaceFolder().uri;
    const handler = vscode.Uri.joinPath(folder, 'handler.py');
    await vscode.workspace.fs.writeFile(handler, new TextEncoder().encode(HANDLER('v1')));
    const input = vscode.Uri.joinPath(folder, 'square.input.json');
    await vscode.workspace.fs.writeFile(input, new TextEncoder().encode(JSON.stringify({ input: { width: 24, height: 16 } })));

    // The CodeLens on the start call offers it.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(handler));
    const lenses = await eventually(async () => {
      const l = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', handler)) as vscode.CodeLens[];
      return l.some((x) => x.command?.command === LocalWorkerCommands.serve) && l;
    }, 'the Serve Worker Locally CodeLens');
    assert.ok(lenses);

    const served = (await vscode.commands.executeCommand(LocalWorkerCommands.serve, handler)) as { endpointId: string; origin: string };
    assert.equal(served.endpointId, 'handler');
    assert.equal(connection.profile.name, LOCAL_WORKER_PROFILE_NAME, 'the Local worker connection is selected');
    assert.equal(worker.server.served?.file, handler.fsPath);

    const run = async (): Promise<JobRecord> => {
      await jobs.memory.rememberEndpoint(input, 'handler');
      const started = (await vscode.commands.executeCommand(JobCommands.runCurrentFile, input)) as JobRecord;
      return eventually(() => {
        const r = jobs.history.get(started.key);
        return r && r.finishedAt !== undefined && !jobs.runner.isRunning(started.key) ? r : undefined;
      }, 'the job to finish', 90_000);
    };
    const first = await run();
    assert.equal(first.status, 'COMPLETED', first.error);
    const image = first.outputs.find((o) => o.kind === 'image');
    assert.ok(image?.file, JSON.stringify(first.outputs));
    assert.deepEqual(pngSize(fs.readFileSync(vscode.Uri.parse(image.file).fsPath)), { width: 24, height: 16 });
    jobs.panels.open(first.key);
    const shown = await eventually(() => {
      const sent = jobs.panels.lastSent(first.key);
      return sent?.status === 'COMPLETED' && sent;
    }, 'the panel to show the job');
    assert.ok(shown.outputs.some((o) => o.kind === 'image' && o.width === 24 && o.height === 16), 'the panel shows the PNG');
    await eventually(() => worker.logs.shown.some((l) => l.includes('handler v1 drawing 24 16')), 'Worker Logs to show what the handler printed');
    if (driverAvailable()) {
      // The README's picture: the handler with its CodeLens (now Restart / Stop / Worker Logs), the logs below.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(handler));
      await vscode.commands.executeCommand(LocalWorkerCommands.showLogs);
      await new Promise((r) => setTimeout(r, 1500));
      await screenshot('local-worker', { docs: true });
    }

    // A new handler, a restart, a new output.
    await vscode.workspace.fs.writeFile(handler, new TextEncoder().encode(HANDLER('v2')));
    await vscode.commands.executeCommand(LocalWorkerCommands.restart);
    const second = await run();
    assert.equal(second.status, 'COMPLETED', second.error);
    assert.deepEqual(second.outputs.filter((o) => o.kind === 'image').map((o) => o.seed), [2], 'the new handler answered');
    await eventually(() => worker.logs.shown.some((l) => l.includes('handler v2 drawing 24 16')), 'Worker Logs to show the new handler');

    await vscode.commands.executeCommand(LocalWorkerCommands.stop);
    assert.equal(worker.server.served, undefined);
    assert.notEqual(connection.profile.name, LOCAL_WORKER_PROFILE_NAME, 'the Local worker connection is gone with it');
  });

  test('an emulator that dies on its own: Worker Logs stop following it, and keep only the recent lines', async () => {
    const handler = vscode.Uri.joinPath(workspaceFolder().uri, 'handler.py');
    await vscode.workspace.fs.writeFile(handler, new TextEncoder().encode(HANDLER('v1')));
    await vscode.commands.executeCommand(LocalWorkerCommands.serve, handler);
    assert.ok(worker.logs.following, 'Worker Logs follow the served worker');
    const pid = worker.server.pid;
    assert.ok(pid, 'the emulator runs');
    process.kill(pid, 'SIGKILL');
    await eventually(() => worker.server.served === undefined, 'the editor to see the emulator gone');
    await eventually(() => worker.logs.shown.some((l) => l.includes('emulator stopped')), 'Worker Logs to say so');
    assert.equal(worker.logs.following, false, 'no follower left polling a dead port');

    for (let i = 0; i < 1500; i++) worker.logs.append(`line ${i}`);
    assert.ok(worker.logs.shown.length <= 1000, `${worker.logs.shown.length} lines kept`);
    assert.equal(worker.logs.shown.at(-1), 'line 1499');
  });
});

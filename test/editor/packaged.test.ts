// The packaged extension works on its own (issue 6): what the .vsix ships (dist/extension.js, dist/emulator.js,
// the webview bundles) is enough to start the bundled emulator and run a job from an input file, with nothing
// from the source tree. Runs only in the runner's --vsix mode (npm test's "packaged" step); the same flow on the
// source tree is the job runner suite's.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { driverAvailable, pickQuickPickItem } from './support/driver';
import { eventually, getExtension, workspaceFolder } from './support/extension';
import { ENV } from './support/protocol';

suite('packaged extension @packaged', () => {
  suiteSetup(function () {
    if (!process.env[ENV.packaged] || !driverAvailable()) this.skip();
  });

  test('is the installed .vsix, not the source tree', () => {
    const ext = getExtension();
    assert.equal(ext.extensionKind, vscode.ExtensionKind.Workspace);
    assert.ok(!ext.extensionPath.startsWith(workspaceFolder().uri.fsPath), ext.extensionPath);
    assert.match(ext.extensionPath, /serverless-gpu-tools\.serverless-gpu-jobs-\d+\.\d+\.\d+$/, 'installed under the extensions folder');
  });

  test('Use Local Emulator starts the bundled emulator, and an input file runs on it with its outputs saved', async () => {
    const origin = await vscode.commands.executeCommand<string | undefined>('serverlessGpu.useLocalEmulator');
    assert.match(String(origin), /^http:\/\/127\.0\.0\.1:\d+$/, 'the emulator shipped in the .vsix started');

    const file = vscode.Uri.joinPath(workspaceFolder().uri, 'packaged.input.json');
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ input: { prompt: 'from the packaged extension' } }, null, 2)));
    const started = vscode.commands.executeCommand<{ endpointId: string; jobId?: string } | undefined>('serverlessGpu.runCurrentFile', file);
    // The first run of a file asks for its endpoint; the picker lists it by the name the endpoint list gives it.
    await pickQuickPickItem('Echo');
    const record = await started;
    assert.equal(record?.endpointId, 'echo');

    // Every finished job is saved at once as <outputs>/<endpoint>/<job id>/job.json (serverlessGpu.jobs.outputsDirectory).
    const endpointDir = vscode.Uri.joinPath(workspaceFolder().uri, '.serverless-outputs', 'echo');
    const saved = await eventually(async () => {
      const entries = await vscode.workspace.fs.readDirectory(endpointDir).then((e) => e, () => []);
      for (const [name] of entries) {
        const text = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(endpointDir, name, 'job.json')).then((b) => Buffer.from(b).toString('utf8'), () => undefined);
        if (text?.includes('COMPLETED')) return text;
      }
      return undefined;
    }, 'the finished job saved as job.json', 60_000);
    assert.ok(saved.includes('from the packaged extension'), 'the echo endpoint returned our input');
  });
});

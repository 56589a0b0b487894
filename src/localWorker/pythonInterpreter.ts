// Which Python runs a local worker (issue 14 item 3): the Python extension's active environment for the file when
// that extension is installed, else the `serverlessGpu.localWorker.pythonPath` setting, else `python3`. And the
// check that `runpod` imports with it, before anything is started.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import type { Settings } from '../config/settings';

interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
    resolveEnvironment?(env: { path: string }): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
  };
}

export async function pickInterpreter(settings: Settings, file: vscode.Uri): Promise<{ python: string; source: string }> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (ext) {
    try {
      const api = ext.isActive ? ext.exports : await ext.activate();
      const active = api?.environments?.getActiveEnvironmentPath(file);
      if (active?.path) {
        const resolved = await api.environments?.resolveEnvironment?.(active);
        return { python: resolved?.executable?.uri?.fsPath ?? active.path, source: "the Python extension's active environment" };
      }
    } catch {
      // fall through to python3
    }
  }
  const configured = settings.localWorkerPythonPath();
  if (configured) return { python: configured, source: 'the serverlessGpu.localWorker.pythonPath setting' };
  return { python: 'python3', source: 'the default' };
}

/** The runpod version importable with `python`, or the error text. */
export function checkRunpod(python: string): Promise<{ ok: true; version: string } | { ok: false; detail: string }> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import runpod; print(runpod.__version__)'], { timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) resolve({ ok: false, detail: stderr || err.message });
      else resolve({ ok: true, version: stdout.trim() });
    });
  });
}

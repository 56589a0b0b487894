// The built emulator (dist/emulator.js, demo data) as a child process of the extension host, on a free port,
// for editor suites that need a service to talk to (the job runner's suite and the memory bench).
import { spawn } from 'node:child_process';
import * as path from 'node:path';

export interface RunningEmulator {
  url: string;
  close(): Promise<void>;
}

/** `configFile`: an emulator config (JSON) instead of the demo data. */
export async function startEmulator(extensionPath: string, options: { configFile?: string } = {}): Promise<RunningEmulator> {
  const config = options.configFile ? ['--config', options.configFile] : [];
  // --exit-with-stdin: an extension host that is killed (a timed-out run) takes the emulator with it.
  const child = spawn(process.execPath, [path.join(extensionPath, 'dist', 'emulator.js'), '--host', '127.0.0.1', '--port', '0', '--exit-with-stdin', ...config], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // The extension host's node is Electron's (or code-server's): make sure it runs as plain node.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited (${code}): ${output}`));
    });
  });
  return {
    url,
    close: () => new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGTERM');
    }),
  };
}

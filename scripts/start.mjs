// `npm start`: the extension in a real VS Code on the local emulator, in a browser, within two minutes of a clone.
// Installs what is missing (npm ci; code-server via test/editor-host/setup.sh), builds, starts the emulator with
// its demo data, starts code-server 4.100.3 on 127.0.0.1 with the extension and the demo/ workspace, and prints
// the URL to open. Ctrl-C stops all of it; nothing is left running and the editor's profile is thrown away.
//
// usage: node scripts/start.mjs [--port N] [--workspace DIR] [--vsix FILE] [--desktop] [--service URL] [--settings FILE]
//   --port N     the editor's port (default: a free one)
//   --workspace DIR  open DIR instead of demo/ (the smoke test opens a copy, so demo/ gets no outputs)
//   --service URL    connect to this emulator (already running, on 127.0.0.1, taking the demo key) instead of
//                    starting one: the resume test's emulator must outlive the editor it kills
//   --settings FILE  more user settings (a JSON object) merged over these (the resume test's batch settings)
//   --vsix FILE  install this packaged extension instead of loading the source tree
//   --desktop    open desktop VS Code (`code` on PATH) with the extension under development instead
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CODE_SERVER = path.join(REPO, 'test/editor-host/node_modules/code-server/out/node/entry.js');
const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    workspace: { type: 'string' },
    vsix: { type: 'string' },
    desktop: { type: 'boolean', default: false },
    service: { type: 'string' },
    settings: { type: 'string' },
  },
});
const DEMO_PROFILE = 'Demo emulator (npm start)';
const DEMO = opts.workspace ? path.resolve(opts.workspace) : path.join(REPO, 'demo');

const children = [];
let stopping = false;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children.reverse()) {
    try {
      // Each child leads its own process group: this also stops what it forked (code-server's extension host).
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  for (const fn of onExit) fn();
  process.exit(code);
}
const onExit = [];
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

function step(what, cmd, args) {
  console.log(`start: ${what}`);
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`start: ${what} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/** Starts a long-running child in its own process group; resolves with the first match of `ready` in its output. */
function startChild(name, cmd, args, ready, env = process.env) {
  const child = spawn(cmd, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let seen = '';
  return new Promise((resolve, reject) => {
    const onData = (d) => {
      seen += d;
      const m = ready.exec(seen);
      if (m) {
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        // Keep draining its output, or a chatty child would block on a full pipe.
        child.stdout.resume();
        child.stderr.resume();
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      if (stopping) return;
      reject(new Error(`${name} stopped (${code ?? signal}):\n${seen.slice(-2000)}`));
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = http.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function main() {
  if (!fs.existsSync(path.join(REPO, 'node_modules/esbuild'))) step('installing the extension\'s packages (npm ci)', 'npm', ['ci', '--no-audit', '--no-fund']);
  if (!opts.desktop) step('checking the editor (test/editor-host/setup.sh)', 'bash', ['test/editor-host/setup.sh']);
  step('building', 'node', ['scripts/build.mjs']);

  const emulatorUrl = opts.service ?? (await startChild('the emulator', process.execPath, ['dist/emulator.js', '--host', '127.0.0.1', '--port', '0'], /(http:\/\/127\.0\.0\.1:\d+)/))[1];
  console.log(opts.service ? `start: connecting to ${emulatorUrl} (--service)` : `start: emulator with its demo data on ${emulatorUrl}`);

  if (opts.desktop) {
    const r = spawnSync('code', ['--extensionDevelopmentPath', REPO, DEMO], { stdio: 'inherit' });
    if (r.error) throw new Error('`code` (desktop VS Code) is not on PATH; run npm start without --desktop for the browser editor');
    // Your own VS Code keeps your own settings: nothing is written into them, so connect from the sidebar.
    console.log(`start: desktop VS Code opened with the extension under development. In its Serverless GPU sidebar
  choose "Try the Local Emulator" (or add a profile for ${emulatorUrl}, key demo-key-full). Ctrl-C stops the emulator.`);
    return;
  }

  // The demo's own worker (demo/worker/handler.py, issue 14) needs a Python with runpod: the project's venv, or a
  // python3 that has it. Without one, the demo still works and says how to enable the worker.
  const workerPython = [path.join(REPO, '.venv-worker', 'bin', 'python'), 'python3'].find(
    (py) => spawnSync(py, ['-c', 'import runpod'], { stdio: 'ignore', timeout: 60_000 }).status === 0,
  );
  const workerNote = workerPython
    ? `The demo's own worker, worker/handler.py, runs with ${workerPython}: open it and use Serve Worker Locally.`
    : 'The demo\'s own worker (worker/handler.py) needs Python 3 with runpod: run `node scripts/python-env.mjs` once, then npm start again.';

  // A fresh profile per start: no state of an earlier run (or of the person's own editor) leaks in.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'serverless-gpu-start-'));
  onExit.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const userData = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'security.workspace.trust.enabled': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        'workbench.tips.enabled': false,
        'chat.commandCenter.enabled': false,
        'git.openRepositoryInParentFolders': 'never',
        // The emulator this script started, as a connection profile of its own (user settings are where
        // profiles may live: a workspace can never add one). SERVERLESS_GPU_DEMO_PROFILE below makes the
        // extension switch to it and give it the emulator's demo key (src/demo/demoConnection.ts).
        'serverlessGpu.profiles': [{ name: DEMO_PROFILE, billingBaseUrl: emulatorUrl, jobsBaseUrl: emulatorUrl }],
        ...(workerPython ? { 'serverlessGpu.localWorker.pythonPath': workerPython } : {}),
        ...(opts.settings ? JSON.parse(fs.readFileSync(opts.settings, 'utf8')) : {}),
      },
      null,
      2,
    ),
  );
  const xdg = { XDG_DATA_HOME: path.join(tmp, 'xdg-data'), XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), XDG_CACHE_HOME: path.join(tmp, 'xdg-cache') };
  const baseArgs = ['--user-data-dir', userData, '--extensions-dir', path.join(tmp, 'extensions'), '--config', path.join(tmp, 'config.yaml')];
  const env = { ...process.env, ...xdg, SERVERLESS_GPU_DEMO_PROFILE: DEMO_PROFILE };
  if (opts.vsix) {
    const r = spawnSync(process.execPath, [CODE_SERVER, ...baseArgs, '--install-extension', path.resolve(opts.vsix)], { env, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`installing ${opts.vsix} failed`);
  }

  const port = Number(opts.port) || (await freePort());
  await startChild(
    'code-server',
    process.execPath,
    [CODE_SERVER, ...baseArgs, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
      '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened'],
    /HTTP server listening/,
    env,
  );

  // code-server has no flag for an extension under development; the workbench takes it from the URL's payload.
  const authority = `127.0.0.1:${port}`;
  const query = new URLSearchParams({ folder: DEMO });
  if (!opts.vsix) query.set('payload', JSON.stringify([['extensionDevelopmentPath', `vscode-remote://${authority}${REPO}`]]));
  const url = `http://${authority}/?${query}`;
  console.log(`
start: ready. Open this in a browser:

  ${url}

  The extension is ${opts.vsix ? `installed from ${path.basename(opts.vsix)}` : 'loaded from this folder (rebuild with npm run build, then reload the page)'}.
  It is connected to the emulator started here, ${emulatorUrl} (profile "${DEMO_PROFILE}",
  demo key demo-key-full; try it with curl too). Open the Serverless GPU sidebar, then an *.input.json file of
  the demo workspace, and run it.
  ${workerNote}

Ctrl-C stops the editor and the emulator.`);
}

main().catch((err) => {
  console.error(`start: ${err instanceof Error ? err.message : String(err)}`);
  stopAll(1);
});

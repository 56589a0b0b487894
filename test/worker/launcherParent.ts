// A stand-in for the extension host in the parent-death test (localWorkerServer.test.ts): starts the emulator
// exactly as the extension does, with `local-worker FILE PYTHON` (LocalWorkerServer, "Serve Worker Locally") or
// `emulator` (EmulatorLauncher, "Use Local Emulator"), prints one JSON line {origin, endpointId?}, and then waits
// to be killed.
import { resolve } from 'node:path';
import { EmulatorLauncher } from '../../src/connection/emulatorLauncher';
import { startEmulatorProcess } from '../../src/connection/emulatorProcess';
import { silentLogger } from '../../src/core/log';
import { LocalWorkerServer } from '../../src/localWorker/localWorkerServer';

const ROOT = resolve(__dirname, '../..');

async function main(): Promise<void> {
  const [what, file, python] = process.argv.slice(2);
  if (what === 'local-worker') {
    const served = await new LocalWorkerServer(ROOT, silentLogger, () => {}).start(file!, python!);
    console.log(JSON.stringify({ origin: served.origin, endpointId: served.endpointId }));
  } else {
    const origin = await new EmulatorLauncher(ROOT, silentLogger, startEmulatorProcess).start();
    console.log(JSON.stringify({ origin }));
  }
  setInterval(() => {}, 1 << 30);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

// `node dist/emulator.js [--host 127.0.0.1] [--port N] [--config FILE] [--admin] [--verbose] [--exit-with-stdin]`:
// runs the emulator until SIGINT/SIGTERM (or, with --exit-with-stdin, until its stdin ends: the editor that
// started it holds the other end of that pipe, so the emulator and its worker processes go when the editor does,
// even when it was SIGKILLed or crashed and sent no signal). Prints exactly one line on stdout when ready,
// containing http://HOST:PORT.
// A bad config (or a bad flag) exits with code 2 and names the bad field; a port in use exits 1.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFile, startEmulator, type EmulatorConfig, type RunningEmulator } from './index';
import { DEMO_KEYS } from './demo/demo';

const USAGE = 'usage: emulator [--host 127.0.0.1] [--port N] [--config FILE] [--admin] [--verbose] [--exit-with-stdin]';

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '0' },
        config: { type: 'string' },
        admin: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        'exit-with-stdin': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    console.error(`emulator: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(args.port);
  if (!/^\d+$/.test(args.port ?? '') || port > 65535) {
    console.error(`emulator: --port must be an integer from 0 to 65535 (got "${args.port}")\n${USAGE}`);
    process.exit(2);
  }

  let config: EmulatorConfig | undefined;
  if (args.config !== undefined) {
    try {
      config = loadConfigFile(args.config);
    } catch (err) {
      if (err instanceof ConfigError) {
        console.error(`emulator: ${err.message}`);
        process.exit(2);
      }
      throw err;
    }
  }

  // Handlers before anything listens: a supervisor may send SIGTERM the moment it sees the ready line.
  let emulator: RunningEmulator | undefined;
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    if (args.verbose) console.error(`emulator: ${signal}, stopping`);
    if (!emulator) process.exit(0);
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (args['exit-with-stdin']) {
    // The parent's end of the pipe closes when the parent dies, however it dies: that is the only signal a
    // SIGKILLed editor sends. What arrives on stdin is read and dropped.
    process.stdin.on('end', () => stop('stdin ended'));
    process.stdin.on('error', () => stop('stdin failed'));
    process.stdin.resume();
  }

  const log = args.verbose ? (line: string) => console.error(`${new Date().toISOString()} ${line}`) : undefined;
  try {
    emulator = await startEmulator({ host: args.host, port, config, admin: args.admin, log });
  } catch (err) {
    console.error(`emulator: cannot listen on ${args.host}:${port}: ${(err as Error).message}`);
    process.exit(1);
  }

  const what = config
    ? `config ${args.config}: ${config.users.length} user(s)`
    : `demo data; keys ${DEMO_KEYS.full} (all scopes), ${DEMO_KEYS.billing} (billing only), ${DEMO_KEYS.sdxl} (jobs on sdxl-turbo)`;
  console.log(`Serverless emulator listening on ${emulator.url} (${what}${args.admin ? '; admin routes on' : ''})`);
}

void main().catch((err: unknown) => {
  console.error(`emulator: ${(err as Error)?.stack ?? String(err)}`);
  process.exit(1);
});

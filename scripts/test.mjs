// The one test command (README, .ci/run): type-check, build, then every suite in turn.
import { spawnSync } from 'node:child_process';

const steps = [
  ['type-check', 'npx', ['tsc', '-p', '.', '--noEmit']],
  ['build', 'node', ['scripts/build.mjs']],
  ['unit tests', 'node', ['scripts/run-node-tests.mjs', 'test/unit']],
];
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n${name} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

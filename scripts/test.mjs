// The one test command (README, .ci/run): type-check, build, then every suite in turn, the real-editor suite
// last (its editor is installed by test/editor-host/setup.sh, a no-op once installed). Every suite runs even
// when an earlier one failed, so one run shows everything that is broken; the last line printed is the total
// over all suites, `N passed, N failed`, and the exit code is 1 if anything failed.
//
// usage: node scripts/test.mjs [--no-editor]   (--no-editor: skip the editor host, for a quick local loop)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const skipEditor = process.argv.includes('--no-editor');
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const vsix = `${manifest.name}-${manifest.version}.vsix`;

// kind: 'step' passes or fails as a whole; 'node-test', 'pytest' and 'editor' are suites whose counts are read
// from their output (node's spec reporter prints `ℹ pass N` / `ℹ fail N`; pytest ends with `N failed, N passed in
// 1.2s`; the editor runner ends with `N passed, N failed`). `gate`: when it fails, nothing after it can mean anything, so the run stops.
const steps = [
  { name: 'type-check', cmd: 'npx', args: ['tsc', '-p', '.', '--noEmit'], kind: 'step' },
  { name: 'build', cmd: 'node', args: ['scripts/build.mjs'], kind: 'step', gate: true },
  { name: 'docs/settings.md table matches package.json', cmd: 'node', args: ['scripts/settings-table.mjs', '--check'], kind: 'step' },
  { name: 'unit tests', cmd: 'node', args: ['scripts/run-node-tests.mjs', 'test/unit'], kind: 'node-test' },
  // The emulator as a separate process (dist/emulator.js from the build above), over real HTTP (issue 3).
  { name: 'emulator conformance', cmd: 'node', args: ['scripts/run-node-tests.mjs', 'test/emulator'], kind: 'node-test' },
  // The platform's own JS client (npm runpod-sdk, pinned) against the emulator CLI (issue 9), and its MCP server
  // (npm @runpod/mcp-server, pinned) managing endpoints and templates through the REST v2 routes (issue 28).
  { name: 'runpod-sdk and the MCP server against the emulator', cmd: 'node', args: ['scripts/run-node-tests.mjs', 'test/sdk'], kind: 'node-test' },
  // Issue 14: the project's Python venv (.venv-worker, runpod pinned), then the suites that need it. Exit 3 means
  // no python3 on this machine: those suites are skipped with that reason (with CI=true the script fails instead).
  { name: 'Python venv (runpod 1.12.0)', cmd: 'node', args: ['scripts/python-env.mjs'], kind: 'step', skipsPythonOn: 3 },
  { name: 'worker processes on the real worker SDK', cmd: 'node', args: ['scripts/run-node-tests.mjs', 'test/worker'], kind: 'node-test', needsPython: true },
  { name: 'runpod (Python client) against the emulator', cmd: '.venv-worker/bin/python', args: ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test/pyclient'], kind: 'pytest', needsPython: true },
  ...(skipEditor
    ? []
    : [
        { name: 'editor host setup', cmd: 'bash', args: ['test/editor-host/setup.sh'], kind: 'step', gate: true },
        { name: 'real-editor suites', cmd: 'node', args: ['test/editor-host/run.mjs'], kind: 'editor' },
        { name: 'npm start, driven in Chromium', cmd: 'node', args: ['test/editor-host/start-smoke.mjs'], kind: 'editor' },
        // Issue 23: the extension host SIGKILLed mid-batch twice (the second with a /run answer on its way), each
        // time the window reloaded and the batch resumed (~45 s).
        { name: 'batch resume after a real kill of the extension host', cmd: 'node', args: ['test/editor-host/resume-kill.mjs', '--kills', '2', '--in-flight'], kind: 'editor' },
        // Issue 27 item 12: 10 more kills, each in the first 500 ms of a resume's sending: a row killed before its
        // /run left is sent by the next resume, one whose /run left is never sent twice (~2.5 min).
        { name: 'batch resume killed as it starts sending, 10 times', cmd: 'node', args: ['test/editor-host/resume-kill.mjs', '--jobs', '100', '--kills', '1', '--resume-kills', '10'], kind: 'editor' },
        // Issue 32: after Reload Window the status bar's total and a .jsonl CodeLens are back within 2 s, and
        // activate() sends nothing (~30 s).
        { name: 'a window reload keeps its state', cmd: 'node', args: ['test/editor-host/reload-state.mjs'], kind: 'editor' },
        // Issue 31: a Batch panel showing its grid at a reload comes back by itself, in Grid mode, with its batch, axes and size (~30 s).
        { name: 'a window reload reopens its grid', cmd: 'node', args: ['test/editor-host/reload-grid.mjs'], kind: 'editor' },
        // Packaging builds in a staging folder and checks what ships (vsce ls); the runner then installs it.
        { name: 'package (.vsix)', cmd: 'node', args: ['scripts/package.mjs', '--out', vsix], kind: 'step', gate: true },
        { name: 'real-editor suites, packaged', cmd: 'node', args: ['test/editor-host/run.mjs', '--vsix', vsix], kind: 'editor' },
      ]),
];

/** Runs a command with its output shown as it comes and also kept, for the counts. */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('error', (err) => {
      out += String(err);
      resolve({ code: 1, out });
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

function countsOf(kind, out) {
  const last = (re) => {
    const all = [...out.matchAll(re)];
    return all.length ? Number(all[all.length - 1][1]) : undefined;
  };
  if (kind === 'node-test') return { passed: last(/^ℹ pass (\d+)/gm), failed: last(/^ℹ fail (\d+)/gm) };
  if (kind === 'pytest') {
    const line = out.trim().split('\n').filter((l) => / in [\d.]+s/.test(l)).pop() ?? '';
    const n = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? (line ? 0 : Number.NaN));
    const errors = n('error');
    return line ? { passed: n('passed'), failed: n('failed') + (Number.isNaN(errors) ? 0 : errors) } : { passed: undefined, failed: undefined };
  }
  if (kind === 'editor') {
    const m = /(\d+) passed, (\d+) failed\s*$/.exec(out);
    return { passed: m ? Number(m[1]) : undefined, failed: m ? Number(m[2]) : undefined };
  }
  return { passed: undefined, failed: undefined };
}

/**
 * The titles of the tests a step failed, for the summary: CI keeps only the end of a run's output, and a red run
 * must name what failed there, not 300 lines above it (a flaky real-editor test once failed CI unnamed).
 */
function failedTitles(kind, out) {
  // An editor suite prints its error under the title (run.mjs, scriptChecks.mjs): its first line goes with the
  // title, so a red run says why as well as what (a resume-kill run once failed CI with only its title left).
  const re = kind === 'node-test' ? /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/gm : kind === 'editor' ? /^\s*✗ (.+)\n\s*(.*)/gm : kind === 'pytest' ? /^FAILED (.+)$/gm : undefined;
  if (!re) return [];
  const titled = (m) => (m[2] ? `${m[1].trim().slice(0, 200)}\n         why: ${m[2].trim().slice(0, 400)}` : m[1].trim());
  const titles = [...new Set([...out.matchAll(re)].map(titled))].filter((t) => t !== 'failing tests:');
  return titles.length > 8 ? [...titles.slice(0, 8), `... and ${titles.length - 8} more (above)`] : titles;
}

const total = { passed: 0, failed: 0 };
const summary = [];
let noPython;
for (const step of steps) {
  if (step.needsPython && noPython) {
    console.log(`\n=== ${step.name}\nskipped: ${noPython}`);
    summary.push(`skip ${step.name} (${noPython})`);
    continue;
  }
  console.log(`\n=== ${step.name}`);
  const started = Date.now();
  const { code: exit, out } = await run(step.cmd, step.args);
  let code = exit;
  if (step.skipsPythonOn !== undefined && exit === step.skipsPythonOn) {
    noPython = 'no python3 on this machine (scripts/python-env.mjs)';
    code = 0;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const { passed, failed } = countsOf(step.kind, out);
  total.passed += passed ?? 0;
  // A step that fails without saying how many tests failed (a type error, a crash) still counts as one failure,
  // so the closing line can never read "0 failed" on a failing run.
  const failures = code !== 0 ? Math.max(failed ?? 0, 1) : (failed ?? 0);
  total.failed += failures;
  const counted = passed === undefined ? '' : `: ${passed} passed, ${failures} failed`;
  summary.push(`${code === 0 ? 'ok  ' : 'FAIL'} ${step.name}${counted} (${seconds} s)`);
  if (failures) summary.push(...failedTitles(step.kind, out).map((t) => `       ✗ ${t.includes('\n') ? t : t.slice(0, 200)}`));
  // Real-editor tests that passed only on their second try (test/editor/index.ts): green, but said.
  for (const m of out.matchAll(/^\s*↻ passed on its second try \(the first failure is above\): (.+)$/gm)) summary.push(`       ↻ passed on a second try: ${m[1].slice(0, 200)}`);
  if (code !== 0 && step.gate) {
    summary.push(`     stopped: nothing after "${step.name}" can run`);
    break;
  }
}

console.log(`\n=== summary\n${summary.join('\n')}`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 ? 1 : 0);

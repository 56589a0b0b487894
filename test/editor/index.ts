// The mocha entry that VS Code runs inside the real extension host (the @vscode/test-electron contract:
// `run()` resolves when every test passed, rejects otherwise). Bundled by scripts/build.mjs to
// dist/test/editor/index.js with `vscode` and `mocha` external, so tests can import src/ modules directly.
// UI: mocha's `tdd` (suite / test / suiteSetup / suiteTeardown / setup / teardown), as VS Code's own tests.
import Mocha from 'mocha';
import { editorTestFiles } from 'virtual:editor-test-files';
import { emitEvent, ENV } from './support/protocol';

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_TEST_RETRY, EVENT_RUN_END } = Mocha.Runner.constants;

/** Reports each test to the runner, which counts them and prints the closing `N passed, N failed`. */
class RunnerReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    let pending = 0;
    runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => {
      passed++;
      emitEvent({ event: 'pass', title: t.fullTitle(), durationMs: t.duration ?? 0 });
    });
    // Also fires for a failing hook (suiteSetup…), whose "test" is the hook: it counts as a failure.
    runner.on(EVENT_TEST_FAIL, (t: Mocha.Test, err: Error) => {
      failed++;
      emitEvent({ event: 'fail', title: t.fullTitle(), error: err?.stack ?? String(err) });
    });
    runner.on(EVENT_TEST_RETRY, (t: Mocha.Test, err: Error) => {
      emitEvent({ event: 'retry', title: t.fullTitle(), error: err?.stack ?? String(err) });
    });
    runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => {
      pending++;
      emitEvent({ event: 'pending', title: t.fullTitle() });
    });
    runner.once(EVENT_RUN_END, () => emitEvent({ event: 'end', passed, failed, pending }));
  }
}

export function run(): Promise<void> {
  const grep = process.env[ENV.grep];
  const mocha = new Mocha({
    ui: 'tdd',
    // Generous: two cores shared by several people, and a real workbench behind every UI step.
    timeout: 60_000,
    // One second try for a failed test: several suites assert timings ("In progress within about 2 s") in a real
    // workbench on two shared cores, and one late beat must not turn a whole CI run red. It is never silent: the
    // runner prints each retried test with its first failure and lists them again beside the closing count. A
    // test that fails twice fails.
    retries: 1,
    color: false,
    reporter: RunnerReporter,
    ...(grep ? { grep } : {}),
  });
  // The files are already in this bundle: load each one the way mocha's own loader would, so `suite`/`test`
  // exist as globals while it registers its suites.
  for (const file of editorTestFiles) {
    mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_PRE_REQUIRE, globalThis, file.name, mocha);
    const exported = file.load();
    mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_REQUIRE, exported, file.name, mocha);
    mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_POST_REQUIRE, globalThis, file.name, mocha);
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} editor test(s) failed`)) : resolve()));
  });
}

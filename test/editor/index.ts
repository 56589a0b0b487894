// The mocha entry that VS Code runs inside the real extension host (the @vscode/test-electron contract:
// `run()` resolves when every test passed, rejects otherwise). Bundled by scripts/build.mjs to
// dist/test/editor/index.js with `vscode` and `mocha` external, so tests can import src/ modules directly.
// UI: mocha's `tdd` (suite / test / suiteSetup / suiteTeardown / setup / teardown), as VS Code's own tests.
import Mocha from 'mocha';
import { editorTestFiles } from 'virtual:editor-test-files';
import { emitEvent, ENV } from './support/protocol';

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

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

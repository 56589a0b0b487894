// The line protocol between the mocha suite inside the extension host and the runner (test/editor-host/run.mjs).
// Everything the extension host prints reaches the runner through the workbench's `codeAutomationLog`, possibly
// with a prefix, so each event is one line that holds MARKER followed by JSON. run.mjs repeats MARKER: keep both.
export const EVENT_MARKER = '@@serverless-gpu-editor-test@@';

export type SuiteEvent =
  | { event: 'pass'; title: string; durationMs: number }
  | { event: 'fail'; title: string; error: string }
  | { event: 'pending'; title: string }
  /** A test failed once and runs again (mocha's retries): the runner lists it at the end, never silently. */
  | { event: 'retry'; title: string; error: string }
  | { event: 'end'; passed: number; failed: number; pending: number };

export function emitEvent(event: SuiteEvent): void {
  console.log(`${EVENT_MARKER}${JSON.stringify(event)}`);
}

/** Environment variables the runner sets for the extension host (code-server passes its env on). */
export const ENV = {
  /** Base URL of the runner's control server: the driver's endpoint. Unset when no runner drives the page. */
  driverUrl: 'SERVERLESS_GPU_TEST_DRIVER_URL',
  /** A mocha grep pattern (`npm run test:editor -- --grep X`). */
  grep: 'SERVERLESS_GPU_TEST_GREP',
  /** Set by the runner in its packaged mode (`--vsix`): the extension under test is an installed .vsix. */
  packaged: 'SERVERLESS_GPU_TEST_PACKAGED',
} as const;

// Made by scripts/build.mjs at bundle time: every test/editor/**/*.test.ts, activation.test.ts first (it must
// see the extension before anything else activates it). `load` evaluates the file, registering its suites.
declare module 'virtual:editor-test-files' {
  export const editorTestFiles: ReadonlyArray<{ readonly name: string; readonly load: () => unknown }>;
}

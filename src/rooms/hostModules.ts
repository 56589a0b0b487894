// Inside dist/rooms.js only: the modules it shares with dist/extension.js, as the host's own instances. The build
// (scripts/build.mjs) answers every such import with `hostModule(path)`, so an error class, the rate-limit store
// or a logger is one object in both bundles: `instanceof` holds across them and state is never split in two.
let modules: Readonly<Record<string, object>> | undefined;

/** Called by `load` before any room's module runs. */
export function provideHostModules(host: Readonly<Record<string, object>>): void {
  modules = host;
}

/** The host's instance of the module at `path` (relative to the repository, as the build names it). */
export function hostModule(path: string): object {
  if (!modules) throw new Error(`rooms.js: ${path} was imported before load() was given the host's modules`);
  const m = modules[path];
  if (!m) throw new Error(`rooms.js: the host did not pass ${path} (rebuild: dist/extension.js and dist/rooms.js come from one build)`);
  return m;
}

// What scripts/build.mjs generates for dist/extension.js: this bundle's instance of every module dist/rooms.js
// also uses, keyed by its path in the repository.
declare module 'virtual:host-modules' {
  export const hostModules: Readonly<Record<string, object>>;
}

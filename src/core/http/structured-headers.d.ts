// Types for `structured-headers`: the package declares them only through `exports`, which this project's
// moduleResolution ("node") does not read. At run time tsx and esbuild resolve the package's CJS build
// through `exports` as usual; this file only tells the type-checker where the (identical) typings are.
declare module 'structured-headers' {
  export * from 'structured-headers/dist/index';
}

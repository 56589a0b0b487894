// `z.catch(schema, value)` as zod/mini itself builds it, minus one line: mini's `z.catch` wraps a constant in
// `core.util.constantCatch(value)`, and esbuild cannot tree-shake through that two-level namespace access, so
// the one call brings all of zod's util module along (7 KB of extension.js, issue 11). The thunk here is what
// constantCatch returns, without the tag only `z.compile` reads. Same schema class, same def, same behaviour.
import * as z from 'zod/mini';

/** A schema that parses like `schema` and yields `value` wherever `schema` would fail (zod's `catch`). */
export function zCatch<T extends z.core.SomeType>(schema: T, value: z.core.output<T>): z.ZodMiniCatch<T> {
  // The casts are zod's own (mini's `_catch`): the class constructor is not generic in the inner type.
  return new z.ZodMiniCatch({ type: 'catch', innerType: schema as unknown as z.core.$ZodType, catchValue: () => value }) as unknown as z.ZodMiniCatch<T>;
}

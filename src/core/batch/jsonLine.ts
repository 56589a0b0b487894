// One line of a JSONL file read against a zod schema, as a result rather than an exception: a reader of a file
// we wrote ourselves reports a bad line and goes on (a crash may have cut the last one short).
import type * as z from 'zod/mini';

export type LineResult<T> = { ok: true; value: T } | { ok: false; message: string };

export function parseJsonLine<T>(raw: string, schema: z.ZodMiniType<T>): LineResult<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { ok: false, message: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const checked = schema.safeParse(json);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { ok: false, message: `unexpected line${issue ? ` at ${issue.path.map(String).join('.') || 'the top'}: ${issue.message}` : ''}` };
  }
  return { ok: true, value: checked.data };
}

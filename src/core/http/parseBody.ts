// A response body, as text, through a schema: the one place a body that is not JSON, or not the expected
// shape, becomes a SchemaError naming the first offending field. Its own module (not request.ts) so the billing
// worker's bundle takes it without the transport. No `vscode` import.
import type * as z from 'zod/mini';
// The issue's message becomes the SchemaError's words: zod's English messages, also in the billing worker.
import '../zodMessages';
import { SchemaError } from './errors';

/** A parsed body that is not a plain `schema.safeParse` (see billingBody.ts). */
export type BodyParser<T> = (json: unknown) => { success: true; data: T } | { success: false; error: z.core.$ZodError };

export function parseBody<T>(body: string, parse: z.ZodMiniType<T> | BodyParser<T>, status: number, contentType: string | null): T {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    const what = body.trim() === '' ? 'the body is empty' : `the body is not JSON (${e instanceof Error ? e.message : String(e)})`;
    throw new SchemaError('', contentType ? `${what}; content-type ${contentType}` : what, status);
  }
  const result = typeof parse === 'function' ? parse(json) : parse.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? issue.path.map(String).join('.') : '';
  throw new SchemaError(path, issue?.message ?? 'does not match the expected shape', status);
}

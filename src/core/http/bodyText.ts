// Reading a response body as text, and a fetch failure in words: the transport's two ways of turning what came
// off the wire (or did not) into something it can parse or show.
import { BodyTooLargeError } from './errors';
import type { WireAnswer } from './wireAnswer';

/** Why a fetch failed, in words: undici hides the useful part (ECONNREFUSED, "other side closed") in `cause`. */
export function describeFailure(e: unknown): string {
  const parts: string[] = [];
  let current: unknown = e;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      const text = typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
      if (text && !parts.includes(text)) parts.push(text);
      current = (current as { cause?: unknown }).cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  // "fetch failed" says nothing a user can act on when a cause follows.
  const useful = parts.length > 1 ? parts.filter((p) => p !== 'fetch failed') : parts;
  return useful.join(': ') || 'connection failed';
}

/**
 * The body as text, decoded chunk by chunk as it arrives. `response.text()` holds every chunk, then one
 * concatenated copy of them all, then the text: about three times the body at once, which for a job of four
 * big base64 images (6 MB of JSON) was most of the extension host's peak (issue 11). Each chunk here is
 * dropped once decoded. Decodes as text() does (UTF-8, a leading BOM dropped, bad bytes replaced).
 */
export async function readText(answer: WireAnswer, maxBytes = Infinity): Promise<string> {
  // A declared length over the limit is refused before a byte of the body is read.
  if (Number(answer.headers.get('content-length') ?? 0) > maxBytes) {
    await answer.discard();
    throw new BodyTooLargeError(maxBytes, answer.status);
  }
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  let bytes = 0;
  for await (const chunk of answer.chunks) {
    bytes += chunk.byteLength;
    // Leaving the loop closes the body: the rest is not downloaded.
    if (bytes > maxBytes) throw new BodyTooLargeError(maxBytes, answer.status);
    pieces.push(decoder.decode(chunk, { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces.join('');
}

// A 2xx body read as bytes by the caller's own reader instead of as text here (the billing worker's).
/**
 * A body read as bytes, not text, by the caller's own reader (the billing worker, ../billing/billingReader.ts),
 * which decodes, scrubs the key from and parses it off the extension host's thread. Only for 2xx answers; any
 * other status is read as text and becomes a typed error here, as always. The body is handed over chunk by
 * chunk as it arrives, so this thread never holds (or copies) the whole of a big body at once.
 */
export interface BytesBodyReader<T> {
  /**
   * `secrets` must be removed from the body (as `scrubSecrets(unescapePrintableAscii(text))` does) before it is
   * parsed. `sizeHint` is the body's content-length when it arrives unencoded (fetch decodes a gzip body, so the
   * header then says nothing of what is written): a hint to hold the body in one buffer of that size, never a promise.
   */
  open(meta: { status: number; contentType: string | null; secrets: string[]; sizeHint?: number }): BodySink<T>;
}

export interface BodySink<T> {
  /** `chunk` is lent for this call only: it may share its ArrayBuffer with other data, so copy it, never transfer it. */
  write(chunk: Uint8Array): void;
  /** The whole body was written: its value, or the reader's error (SchemaError for a bad body). */
  finish(): Promise<T>;
  /** The body will not be finished (cancelled, timed out, connection lost): drop what was written. */
  abort(): void;
}

export function isBytesReader<T>(parse: unknown): parse is BytesBodyReader<T> {
  return typeof parse === 'object' && parse !== null && typeof (parse as BytesBodyReader<T>).open === 'function';
}

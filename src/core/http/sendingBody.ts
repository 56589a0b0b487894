// A request body that is sent only after its caller wrote down that it is being sent (HttpRequest.onSending):
// what a batch needs so that a crash never leaves a row `submitting` whose request had not left.

/**
 * A body whose bytes are handed over only after `before` resolved, and `before` is called only once the
 * connection is open: whatever `before` writes down precedes the request on the wire, and a connection that
 * fails never calls it. fetch (undici) reads a streamed body only from a connected socket and writes the
 * headers with the first non-empty chunk; but it clones the request's body (a tee), which pulls one chunk at
 * once, before connecting. That eager pull gets an empty chunk (nothing is written for it); the pull after it
 * is the socket's.
 */
export function bodyAfter(before: () => Promise<void>, bytes: Uint8Array): ReadableStream<Uint8Array> {
  let pulls = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulls++ === 0) {
        controller.enqueue(new Uint8Array(0));
        return;
      }
      await before();
      controller.enqueue(bytes);
      controller.close();
    },
  }, { highWaterMark: 0 });
}

// A row's `submitting` line, written at the last moment before its /run leaves (docs/batches.md "What is safe to
// resend"): after every gate of the batch and once the connection is open (HttpRequest.onSending), so that a row
// is `submitting` only while its request can really be on its way. A crash before leaves it `pending`.

export class SendingLine {
  /** The line was written: from here the request may have reached the service. */
  sent = false;
  /** Why it was held back at the last moment (a cancel, a pause, the manifest could not be written). */
  stopped: unknown;

  constructor(
    private readonly write: () => Promise<unknown>,
    private readonly holdBack: () => boolean,
  ) {}

  /** The request's `onSending`. */
  readonly hook = async (): Promise<void> => {
    if (this.holdBack()) throw (this.stopped = new Error('Not sent: the batch was cancelled or paused.'));
    await this.write().catch((e: unknown) => {
      throw (this.stopped = e);
    });
    this.sent = true;
  };

  /** Held back before the line was written: no byte of the request left. */
  get heldBack(): boolean {
    return this.stopped !== undefined && !this.sent;
  }
}

// A row's `submitting` line, written at the last moment before its /run leaves (docs/batches.md "What is safe to
// resend"): after every gate of the batch and once the connection is open (HttpRequest.onSending), in the same
// synchronous step as the write of the request's last byte (the rest left before: no job is made of a body not
// received whole), so that a row is `submitting` only while its request can really be on its way. A crash before
// leaves it `pending`.
import type { BatchRows } from './batchRows';
import type { JobRow } from './manifestFormat';

export class SendingLine {
  /** The line was written: from here the request may have reached the service. */
  sent = false;
  /** Why it was held back at the last moment (a cancel, a pause, the manifest could not be written). */
  stopped: unknown;

  constructor(
    private readonly rows: BatchRows,
    private readonly index: number,
    /** The row's change, asked for at the moment it is written. */
    private readonly change: () => Partial<Omit<JobRow, 'type' | 'index' | 'at'>>,
    private readonly holdBack: () => boolean,
  ) {}

  /** The request's `onSending`: waits until the lines before this one are written, then hands over `commit`. */
  readonly hook = async (): Promise<() => boolean> => {
    this.check();
    await this.rows.settled();
    return this.commit;
  };

  /** Run by the transport in one synchronous step with the write of the request's bytes. */
  private readonly commit = (): boolean => {
    this.check(); // a cancel or a pause that came while the lines before were written
    try {
      if (!this.rows.updateNow(this.index, this.change())) return false;
    } catch (e) {
      throw (this.stopped = e);
    }
    this.sent = true;
    return true;
  };

  private check(): void {
    if (this.holdBack()) throw (this.stopped = new Error('Not sent: the batch was cancelled or paused.'));
  }

  /** Held back before the line was written: no byte of the request left. */
  get heldBack(): boolean {
    return this.stopped !== undefined && !this.sent;
  }
}

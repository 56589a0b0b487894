// Message-protocol helpers shared by every webview host: each feature defines its messages both ways as a zod
// discriminated union in one module; these helpers validate what arrives and hold back what is sent until
// the page has said `ready` (the handshake of STYLE.md "Webviews").
import type * as vscode from 'vscode';
import type { Logger } from '../core/log';
import '../core/zodMessages';

/** Any zod schema (`zod/mini`, as every protocol module uses, or classic `zod`) that parses `T`. */
export interface MessageSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } };
}

/**
 * Wires a webview to a host-side handler: messages from the page are parsed with `fromWebview` (anything
 * else is logged and dropped), messages to the page are queued until a message of type 'ready' arrived and,
 * given `toWebview`, checked before they leave, so a host bug shows in our log rather than as a message the
 * page refuses.
 */
export class WebviewChannel<In extends { type: string }, Out extends { type: string }> implements vscode.Disposable {
  private ready = false;
  private queue: Out[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly webview: vscode.Webview,
    fromWebview: MessageSchema<In>,
    onMessage: (message: In) => void | Promise<void>,
    private readonly logger: Logger,
    private readonly toWebview?: MessageSchema<Out>,
  ) {
    this.subscription = webview.onDidReceiveMessage(async (raw: unknown) => {
      const parsed = fromWebview.safeParse(raw);
      if (!parsed.success) {
        logger.warn(`Dropped an invalid message from a webview: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
        return;
      }
      if (parsed.data.type === 'ready') {
        this.ready = true;
        const pending = this.queue;
        this.queue = [];
        for (const m of pending) void this.webview.postMessage(m);
      }
      try {
        await onMessage(parsed.data);
      } catch (e) {
        logger.error(e instanceof Error ? e : String(e));
      }
    });
  }

  /** The page reloaded (html replaced): wait for its next `ready`. */
  reset(): void {
    this.ready = false;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Sends now if the page is ready, otherwise after its `ready`. Only the latest message of a type is kept. */
  post(message: Out): void {
    if (!this.valid(message)) return;
    if (this.ready) {
      void this.webview.postMessage(message);
      return;
    }
    this.queue = [...this.queue.filter((m) => m.type !== message.type), message];
  }

  /**
   * Sends now, or not at all (false) when the page has not said `ready`: for messages that must not be
   * coalesced with others of their type, each sent after the last was handed over (the promise).
   */
  async postNow(message: Out): Promise<boolean> {
    if (!this.valid(message) || !this.ready) return false;
    return this.webview.postMessage(message);
  }

  /** Whether `message` passes the outgoing schema (when there is one); an invalid one is logged, never sent. */
  private valid(message: Out): boolean {
    if (!this.toWebview) return true;
    const checked = this.toWebview.safeParse(message);
    if (!checked.success) this.logger.error(`Not sent to a webview, an invalid "${message.type}" message: ${checked.error.issues[0]?.message ?? 'invalid'}`);
    return checked.success;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

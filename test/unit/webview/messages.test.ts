// The host side of every webview's message protocol (src/webview/messages.ts): what the page sends is parsed
// with its zod schema and dropped when it does not fit; nothing goes to the page before it says `ready`; what
// the host sends is checked against the page's schema. Driven through a stand-in for vscode.Webview that
// records what was posted and delivers what "the page" sends, in plain Node.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { Logger } from '../../../src/core/log';
import { WebviewChannel } from '../../../src/webview/messages';

const FromPage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('clicked'), id: z.string() }),
]);
type FromPage = z.infer<typeof FromPage>;
const ToPage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('show'), text: z.string() }),
  z.strictObject({ type: z.literal('clear') }),
]);
type ToPage = z.infer<typeof ToPage>;

class PageStandIn {
  readonly posted: unknown[] = [];
  private listener: ((m: unknown) => unknown) | undefined;
  readonly webview = {
    postMessage: async (m: unknown) => { this.posted.push(m); return true; },
    onDidReceiveMessage: (l: (m: unknown) => unknown) => {
      this.listener = l;
      return { dispose: () => { this.listener = undefined; } };
    },
  } as unknown as vscode.Webview;

  /** The page sends `m`; resolves once the channel has handled it. */
  async send(m: unknown): Promise<void> {
    await this.listener?.(m);
  }

  get listening(): boolean {
    return this.listener !== undefined;
  }
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const add = (level: string) => (m: string | Error) => { lines.push(`${level}: ${m instanceof Error ? m.message : m}`); };
  return { lines, trace: add('trace'), debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error') };
}

function setUp(toPage?: typeof ToPage) {
  const page = new PageStandIn();
  const logger = recordingLogger();
  const received: FromPage[] = [];
  const channel = new WebviewChannel<FromPage, ToPage>(page.webview, FromPage, (m) => { received.push(m); }, logger, toPage);
  return { page, logger, received, channel };
}

describe('webview message channel', () => {
  test('nothing reaches the page before it says ready; then the latest message of each type, in order', async () => {
    const { page, channel } = setUp(ToPage);
    channel.post({ type: 'show', text: 'first' });
    channel.post({ type: 'clear' });
    channel.post({ type: 'show', text: 'second' });
    assert.deepEqual(page.posted, []);
    assert.equal(channel.isReady, false);
    await page.send({ type: 'ready' });
    assert.equal(channel.isReady, true);
    assert.deepEqual(page.posted, [{ type: 'clear' }, { type: 'show', text: 'second' }]);
    channel.post({ type: 'show', text: 'third' });
    assert.deepEqual(page.posted.at(-1), { type: 'show', text: 'third' });
  });

  test('after reset (the page reloaded) messages wait for the next ready', async () => {
    const { page, channel } = setUp(ToPage);
    await page.send({ type: 'ready' });
    channel.reset();
    channel.post({ type: 'clear' });
    assert.deepEqual(page.posted, []);
    await page.send({ type: 'ready' });
    assert.deepEqual(page.posted, [{ type: 'clear' }]);
  });

  test('a message from the page that breaks its schema is logged and never handled', async () => {
    const { page, logger, received } = setUp(ToPage);
    await page.send({ type: 'clicked' }); // no id
    await page.send({ type: 'clicked', id: 'a', extra: '<img src=x onerror=alert(1)>' }); // strict: no extra fields
    await page.send('ready');
    assert.deepEqual(received, []);
    assert.equal(logger.lines.filter((l) => l.startsWith('warn: Dropped an invalid message')).length, 3);
    // What was wrong, in zod's English words (src/core/zodMessages.ts), not zod/mini's bare "Invalid input".
    assert.match(logger.lines[0]!, /expected string, received undefined/);
    assert.match(logger.lines[1]!, /Unrecognized key: "extra"/);
    await page.send({ type: 'clicked', id: 'a' });
    assert.deepEqual(received, [{ type: 'clicked', id: 'a' }]);
  });

  test('a message the host sends that breaks the page\'s schema is logged and not sent', async () => {
    const { page, logger, channel } = setUp(ToPage);
    await page.send({ type: 'ready' });
    channel.post({ type: 'show', text: 42 } as unknown as ToPage);
    assert.deepEqual(page.posted, []);
    assert.match(logger.lines.join('\n'), /error: Not sent to a webview, an invalid "show" message/);
  });

  test('a handler that throws is logged, and the channel keeps working', async () => {
    const page = new PageStandIn();
    const logger = recordingLogger();
    const channel = new WebviewChannel<FromPage, ToPage>(page.webview, FromPage, (m) => {
      if (m.type === 'clicked') throw new Error('handler failed');
    }, logger, ToPage);
    await page.send({ type: 'clicked', id: 'a' });
    assert.match(logger.lines.join('\n'), /error: handler failed/);
    await page.send({ type: 'ready' });
    channel.post({ type: 'clear' });
    assert.deepEqual(page.posted, [{ type: 'clear' }]);
  });

  test('dispose stops listening to the page', () => {
    const { page, channel } = setUp();
    assert.equal(page.listening, true);
    channel.dispose();
    assert.equal(page.listening, false);
  });
});

// The extension comes up in a real VS Code: activation succeeds without touching the network, every command
// in package.json is registered under our category, and "Show Logs" opens the log channel.
// Runs first (scripts/build.mjs orders it so), before any other suite can activate the extension.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as vscode from 'vscode';
import { count, driverAvailable, screenshot, waitForSelector } from './support/driver';
import type { Logger } from '../../src/core/log';
import { createFeatureActivator } from '../../src/log/featureActivation';
import { levelGated } from '../../src/log/outputChannelLogger';
import { getExtension } from './support/extension';

interface ContributedCommand {
  command: string;
  title: string;
  category?: string;
}

/** A Logger that keeps what it is given, to see what reached the sink. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (m: string | Error, ...a: unknown[]) => void lines.push(`${level} ${[m, ...a].map(String).join(' ')}`);
  return { lines, trace: keep('trace'), debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

suite('activation', () => {
  test('activates without error and without any network request', async () => {
    const ext = getExtension();
    assert.equal(ext.isActive, false, 'nothing should have activated the extension before this suite');

    // Every TCP connection (fetch, http, https, net all end in Socket#connect) and every fetch made while
    // activate() runs, plus a settling second for work it deferred (no event marks "deferred work done").
    const attempts: string[] = [];
    const originalConnect = net.Socket.prototype.connect;
    const originalFetch = globalThis.fetch;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      const stack = new Error().stack ?? '';
      if (stack.includes(ext.extensionPath)) attempts.push(`socket connect ${JSON.stringify(args[0])}`);
      return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof net.Socket.prototype.connect;
    globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      attempts.push(`fetch ${String(input instanceof Request ? input.url : input)}`);
      return originalFetch(input, init);
    }) as typeof fetch;
    try {
      await ext.activate();
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      net.Socket.prototype.connect = originalConnect;
      globalThis.fetch = originalFetch;
    }
    assert.equal(ext.isActive, true);
    assert.deepEqual(attempts, [], 'activate() must not touch the network');
    // The rooms a session may never open (dist/rooms.js: batches, job panels, the cost chart, serving a worker)
    // are not loaded by activation nor the work it defers (issues 28, 30).
    const jobs = (ext.exports as { jobs?: { rooms: { loaded(): boolean } } } | undefined)?.jobs;
    if (jobs) assert.equal(jobs.rooms.loaded(), false, 'activation loaded dist/rooms.js');
  });

  test('registers every contributed command, all under the "Serverless GPU" category', async () => {
    const ext = getExtension();
    await ext.activate();
    const contributed = (ext.packageJSON.contributes?.commands ?? []) as ContributedCommand[];
    assert.ok(contributed.length > 0, 'package.json contributes commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const c of contributed) {
      assert.match(c.command, /^serverlessGpu\.[A-Za-z]+$/, `${c.command}: ids start with serverlessGpu.`);
      assert.equal(c.category, 'Serverless GPU', `${c.command}: category`);
      assert.ok(registered.has(c.command), `${c.command} is contributed but not registered by activate()`);
    }
    const events = (ext.packageJSON.activationEvents ?? []) as string[];
    assert.ok(!events.includes('*'), 'never activate on startup for everything ("*")');
  });

  test('every command: link (walkthrough, welcome views) names a registered command, and walkthrough media ship', async () => {
    const ext = getExtension();
    await ext.activate();
    const contributes = ext.packageJSON.contributes ?? {};
    const texts: string[] = [
      ...((contributes.viewsWelcome ?? []) as { contents: string }[]).map((w) => w.contents),
      ...((contributes.walkthroughs ?? []) as { steps: { description: string }[] }[]).flatMap((w) => w.steps.map((s) => s.description)),
    ];
    const linked = texts.flatMap((t) => [...t.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]!));
    assert.ok(linked.length > 0, 'the welcome views and the walkthrough link commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of linked) assert.ok(registered.has(id), `a link runs ${id}, which is not registered`);
    const media = ((contributes.walkthroughs ?? []) as { steps: { media: { markdown?: string; image?: string } }[] }[])
      .flatMap((w) => w.steps.map((s) => s.media.markdown ?? s.media.image))
      .filter((m): m is string => typeof m === 'string');
    for (const file of media) await vscode.workspace.fs.stat(vscode.Uri.joinPath(ext.extensionUri, file));
  });

  test('the Getting Started walkthrough opens', async function () {
    if (!driverAvailable()) this.skip();
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${getExtension().id}#gettingStarted`, false);
    await waitForSelector('.gettingStartedContainer :text("Set a key, or try the local emulator")');
    await screenshot('walkthrough', { docs: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a feature that throws while registering is reported to the user and the log; the others still register', async () => {
    const context = { subscriptions: [] as vscode.Disposable[] } as unknown as vscode.ExtensionContext;
    const logger = recordingLogger();
    const activateFeature = createFeatureActivator(context, logger);
    let disposed = 0;
    activateFeature('Healthy feature', () => new vscode.Disposable(() => disposed++));
    activateFeature('Broken feature', () => {
      throw new Error('the frobnicator is missing');
    });
    activateFeature('Another healthy feature', () => [new vscode.Disposable(() => disposed++), new vscode.Disposable(() => disposed++)]);
    assert.equal(context.subscriptions.length, 3, 'what the healthy features created is kept for disposal');
    for (const d of context.subscriptions) d.dispose();
    assert.equal(disposed, 3);
    assert.ok(logger.lines.some((l) => l.startsWith('error Broken feature could not start') && l.includes('the frobnicator is missing')), logger.lines.join('\n'));
    if (driverAvailable()) {
      await waitForSelector('.notifications-toasts :text("Serverless GPU: Broken feature could not start: the frobnicator is missing")');
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  test('the log follows VS Code\'s log level: messages below it are dropped before they are formatted', () => {
    const sink = recordingLogger();
    let level = vscode.LogLevel.Info;
    const logger = levelGated(sink, () => level);
    let formatted = 0;
    const expensive = { toString: () => String(++formatted) };
    logger.debug('hidden', expensive);
    logger.info('shown');
    // Wrappers (the service client's redacting logger) ask first, and drop a line before formatting it.
    assert.deepEqual([logger.enabled?.('debug'), logger.enabled?.('info')], [false, true]);
    level = vscode.LogLevel.Trace;
    logger.trace('now shown');
    level = vscode.LogLevel.Off;
    logger.error('off means off');
    assert.deepEqual(sink.lines, ['info shown', 'trace now shown']);
    assert.equal(formatted, 0, 'a dropped message is never turned into text');
  });

  test('"Show Logs" opens the Serverless GPU log channel', async () => {
    await getExtension().activate();
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('serverlessGpu.showLogs');
    if (!driverAvailable()) return;
    // The panel's Output view showing our channel: the line activate() logged, which no other channel has.
    await waitForSelector('.part.panel .view-lines:has-text("activated serverless-gpu-tools.serverless-gpu-jobs")');
    assert.equal(await count('.part.panel .view-lines:has-text("Bearer")'), 0);
  });
});

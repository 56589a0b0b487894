// Proves the driver that other suites use to work the real UI (test/editor/support/driver.ts): the runner's
// control server is reachable from the extension host, a password input box is answered by typing, a quick
// pick by clicking, a webview's own DOM is clicked and read, and screenshots land where they should.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { answerQuickInput, click, count, driverAvailable, pickQuickPickItem, press, QUICK_INPUT, quickPickItem, screenshot, textContent, typeText, waitForSelector } from './support/driver';
import { ENV } from './support/protocol';

suite('driver', () => {
  suiteSetup(function () {
    // Only meaningful under test/editor-host/run.mjs, which always sets it; anywhere else these tests say so.
    if (!driverAvailable()) this.skip();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the runner hands its control server to the extension host through the environment', () => {
    assert.match(process.env[ENV.driverUrl] ?? '', /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/);
  });

  test('answers a password input box by typing', async () => {
    const answer = vscode.window.showInputBox({ prompt: 'driver test', password: true, ignoreFocusOut: true });
    await waitForSelector(QUICK_INPUT);
    assert.equal(await count('.quick-input-widget input[type="password"]'), 1, 'the box masks what is typed');
    await typeText('typed-secret-1');
    await press('Enter');
    assert.equal(await answer, 'typed-secret-1');
    await waitForSelector(QUICK_INPUT, { state: 'hidden' });
  });

  test('answers a two-step input flow in order, each box by its title', async () => {
    const flow = (async () => {
      const first = await vscode.window.showInputBox({ title: 'Driver flow (1/2)', ignoreFocusOut: true });
      const second = await vscode.window.showInputBox({ title: 'Driver flow (2/2)', password: true, ignoreFocusOut: true });
      return [first, second];
    })();
    await answerQuickInput('first answer', { title: 'Driver flow (1/2)' });
    await answerQuickInput('Second Answer', { title: 'Driver flow (2/2)' });
    assert.deepEqual(await flow, ['first answer', 'Second Answer']);
  });

  test('picks a quick pick item by clicking it', async () => {
    const picked = vscode.window.showQuickPick(['first choice', 'second choice', 'third choice'], { ignoreFocusOut: true });
    await click(quickPickItem('second choice'));
    assert.equal(await picked, 'second choice');
  });

  test('picks a quick pick item by its exact label with the keyboard, even when others contain it', async () => {
    const items = ['echo-large', 'not echo', 'echo', 'echo-small'].map((label) => ({ label, description: label === 'echo-small' ? 'echo' : '' }));
    const picked = vscode.window.showQuickPick(items, { ignoreFocusOut: true, title: 'Driver pick', matchOnDescription: true });
    await pickQuickPickItem('echo', { title: 'Driver pick' });
    assert.equal((await picked)?.label, 'echo');
  });

  test('clicks and reads inside a webview', async () => {
    const panel = vscode.window.createWebviewPanel('serverlessGpu.driverTest', 'Driver test', vscode.ViewColumn.One, { enableScripts: true });
    try {
      const nonce = randomBytes(16).toString('hex');
      const word = `word-${nonce.slice(0, 8)}`;
      panel.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}';">
        </head><body><p id="word">${word}</p><button id="go">Go</button>
        <script nonce="${nonce}">
          const vscode = acquireVsCodeApi();
          document.getElementById('go').addEventListener('click', () => vscode.postMessage({ clicked: document.getElementById('word').textContent }));
        </script></body></html>`;
      const message = new Promise<unknown>((resolve) => panel.webview.onDidReceiveMessage(resolve));
      assert.equal(await textContent('#word', { inWebview: true }), word);
      await click('#go', { inWebview: true });
      assert.deepEqual(await message, { clicked: word });
      assert.equal(await count('#go'), 0, 'without inWebview the selector is looked for in the workbench only');
    } finally {
      panel.dispose();
    }
  });

  test('takes a screenshot of the page and of one part of it', async () => {
    const whole = await screenshot('driver-whole-page');
    const sidebar = await screenshot('driver-sidebar', { selector: '.part.sidebar' });
    for (const file of [whole, sidebar]) {
      const bytes = fs.readFileSync(file);
      assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', `${file} is a PNG`);
    }
    assert.ok(fs.statSync(sidebar).size < fs.statSync(whole).size, 'the sidebar alone is smaller than the page');
    await assert.rejects(screenshot('Bad Name'), /lowercase/);
  });
});

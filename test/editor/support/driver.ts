// Drives the real workbench from a test running inside the extension host: the test asks, the runner
// (test/editor-host/run.mjs) acts on the page with Playwright and answers. This is how a test answers an
// input box by typing (e.g. "Set API Key", password: true), clicks in a webview, or takes a screenshot.
//
//   const pending = vscode.commands.executeCommand('serverlessGpu.setApiKey');
//   await waitForSelector(QUICK_INPUT);
//   await typeText('demo-key'); await press('Enter');
//   await pending;
//
// Selectors are Playwright selectors (CSS, `text=…`, `:has-text()`). With `{ inWebview: true }` the selector
// is looked for inside every webview's nested iframes (the workbench keeps each webview's content two
// frames deep) and the first frame that has it is used: pick selectors that only the intended webview has.
import { ENV } from './protocol';

/** The workbench's quick input (input boxes and quick picks). */
export const QUICK_INPUT = '.quick-input-widget:not([style*="display: none"]) input';
/**
 * A row of the visible quick pick whose text CONTAINS `label` (label, description or detail). To choose an
 * item, `pickQuickPickItem(label)` is sturdier than clicking this: it matches the whole label, and the list
 * recycles its row elements while it filters, so a row found for one item can show another when clicked.
 */
export const quickPickItem = (label: string): string => `.quick-input-widget .monaco-list-row:has-text(${JSON.stringify(label)})`;

export interface FrameOptions {
  /** Look inside webview frames instead of the workbench itself. */
  inWebview?: boolean;
  /** How long the runner keeps trying (default 30 s). */
  timeoutMs?: number;
}

export interface WaitOptions extends FrameOptions {
  state?: 'attached' | 'detached' | 'visible' | 'hidden';
}

export interface ScreenshotOptions {
  /** Only this element (a workbench selector, e.g. '.part.sidebar'); default the whole page. */
  selector?: string;
  /**
   * Also write docs/images/<name>.png, but only when the runner was started with UPDATE_SCREENSHOTS=1:
   * CI never rewrites tracked files, a person refreshes the README's pictures on purpose.
   */
  docs?: boolean;
}

export function driverAvailable(): boolean {
  return Boolean(process.env[ENV.driverUrl]);
}

async function call<T>(action: string, body: object): Promise<T> {
  const base = process.env[ENV.driverUrl];
  if (!base) throw new Error(`no driver: ${ENV.driverUrl} is not set (run the suite with test/editor-host/run.mjs)`);
  const res = await fetch(`${base}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { ok: boolean; value?: T; error?: string };
  if (!answer.ok) throw new Error(`driver ${action} failed: ${answer.error ?? res.status}`);
  return answer.value as T;
}

/**
 * Types into whatever has keyboard focus (the editor, a webview…). While a quick input is open it first waits
 * for the quick input to have the focus. To answer an input box, `answerQuickInput` is the sturdier choice.
 */
export function typeText(text: string): Promise<void> {
  return call('type', { text });
}

export interface QuickInputAnswer {
  /** Wait until the box shows this title first (e.g. 'Add Endpoint (2/2)'), so a multi-step flow is answered in order. */
  title?: string;
  /** Press Enter once the value is in (default true). */
  submit?: boolean;
  timeoutMs?: number;
}

/**
 * Answers the open input box (or types a quick pick's filter): sets its whole value, checks that it kept it,
 * then presses Enter. Works for `password: true` boxes too.
 *
 *   const pending = vscode.commands.executeCommand('serverlessGpu.addEndpoint');
 *   await answerQuickInput('my-endpoint', { title: 'Add Endpoint (1/2)' });
 *   await answerQuickInput('My endpoint', { title: 'Add Endpoint (2/2)' });
 *   await pending;
 */
export function answerQuickInput(text: string, options: QuickInputAnswer = {}): Promise<void> {
  return call('answerQuickInput', { text, ...options });
}

/**
 * Chooses the quick pick item labelled exactly `label`: filters the list by the label, moves the focus to that
 * item with the keyboard and presses Enter. `title` waits for the right step of a multi-step pick first.
 */
export function pickQuickPickItem(label: string, options: { title?: string; timeoutMs?: number } = {}): Promise<void> {
  return call('pickQuickPickItem', { label, ...options });
}

/** Presses a key or chord, Playwright names: 'Enter', 'Escape', 'ArrowDown', 'Control+Shift+P'. */
export function press(key: string): Promise<void> {
  return call('press', { key });
}

/** `modifiers`: keys held during the click (Ctrl-click to select, Shift-click…). */
export function click(selector: string, options: FrameOptions & { modifiers?: ('Control' | 'Meta' | 'Shift' | 'Alt')[] } = {}): Promise<void> {
  return call('click', { selector, ...options });
}

export function waitForSelector(selector: string, options: WaitOptions = {}): Promise<void> {
  return call('waitForSelector', { selector, ...options });
}

/** The text of the first element matching `selector` (after waiting for it to be attached). */
export function textContent(selector: string, options: FrameOptions = {}): Promise<string> {
  return call('textContent', { selector, ...options });
}

/** How many elements match `selector` right now (0 when none; no waiting). */
export function count(selector: string, options: FrameOptions = {}): Promise<number> {
  return call('count', { selector, ...options });
}

/**
 * A DOM property of the first element matching `selector` (waiting for it to be attached), e.g. an img's
 * `naturalWidth` (0 until its bytes decoded) or `currentSrc`. Only strings, numbers and booleans come back.
 */
export function property(selector: string, name: string, options: FrameOptions = {}): Promise<string | number | boolean | null> {
  return call('property', { selector, name, ...options });
}

/** Saves test/editor-host/artifacts/<name>.png (and docs/images/<name>.png, see `docs`); returns the artifact path. */
export async function screenshot(name: string, options: ScreenshotOptions = {}): Promise<string> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`screenshot name "${name}": use lowercase letters, digits and dashes`);
  return call('screenshot', { name, ...options });
}

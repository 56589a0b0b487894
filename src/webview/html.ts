// The one HTML template of every webview (STYLE.md "Webviews"): CSP `default-src 'none'` plus exactly what the
// page needs, a fresh nonce per render, the script and styles from the extension's own folders through
// asWebviewUri. Feature code passes names, never markup from a server or a file.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPageOptions {
  webview: vscode.Webview;
  extensionUri: vscode.Uri;
  title: string;
  /** Path of the bundled script under the extension, e.g. ['dist', 'webview', 'costChart.js']. */
  script: string[];
  /** Stylesheets under the extension, e.g. [['media', 'costChart', 'style.css']]. */
  styles?: string[][];
  /** Extra CSP img-src sources (e.g. `data:`); the webview's own resources are always allowed. */
  imgSrc?: string[];
  /** Extra CSP media-src sources. */
  mediaSrc?: string[];
  /** Static body markup written by us (no data from a server or file). Default: an empty <main>. */
  body?: string;
  /**
   * The page's first state, so its first paint is not blank while `ready` makes its round trip: written as an
   * escaped `data-job` attribute of the default <main> (never as markup or script), validated by the page.
   */
  initialState?: unknown;
}

/** A nonce for the CSP: random per render, so a stale page cannot run a script of another. */
export function createNonce(): string {
  return randomUUID().replace(/-/g, '');
}

/** The folders a webview may load from: the bundled scripts and the media folder (plus any extra). */
export function localResourceRoots(extensionUri: vscode.Uri, ...extra: vscode.Uri[]): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media'), ...extra];
}

/** Options for createWebviewPanel / webview.options: scripts on, nothing else reachable. */
export function webviewOptions(extensionUri: vscode.Uri, ...extraRoots: vscode.Uri[]): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, localResourceRoots: localResourceRoots(extensionUri, ...extraRoots) };
}

function escapeAttr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderWebviewHtml(o: WebviewPageOptions): string {
  const nonce = createNonce();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // Styles only from our files; scripts may still set element.style through the CSSOM (Chart.js does).
    `style-src ${o.webview.cspSource}`,
    `img-src ${[o.webview.cspSource, ...(o.imgSrc ?? [])].join(' ')}`,
    `media-src ${[o.webview.cspSource, ...(o.mediaSrc ?? [])].join(' ')}`,
    `font-src ${o.webview.cspSource}`,
  ].join('; ');
  const uri = (parts: string[]): string => o.webview.asWebviewUri(vscode.Uri.joinPath(o.extensionUri, ...parts)).toString();
  const styles = (o.styles ?? []).map((s) => `<link rel="stylesheet" href="${escapeAttr(uri(s))}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeAttr(o.title)}</title>
  </head>
  <body>
    ${o.body ?? `<main id="root"${o.initialState === undefined ? '' : ` data-job="${escapeAttr(JSON.stringify(o.initialState))}"`}></main>`}
    <script nonce="${nonce}" src="${escapeAttr(uri(o.script))}"></script>
  </body>
</html>`;
}

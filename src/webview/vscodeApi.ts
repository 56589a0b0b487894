// The page side of every webview: the API VS Code gives a webview script (acquireVsCodeApi, callable once per
// page). Imported by the scripts under media/ (bundled for the browser), never by the extension host.

/** What acquireVsCodeApi returns: messages to the host and the state kept while the page is hidden. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The page's one VS Code API object (acquireVsCodeApi throws if called a second time). */
export const vscode: VsCodeApi = acquireVsCodeApi();

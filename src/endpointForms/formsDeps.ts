// What the forms' room needs from the rest of the extension (wired in registerEndpointForms.ts).
import type * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import type { Logger } from '../core/log';
import type { Confirm } from '../endpoints/endpointCommands';

export interface FormsDeps {
  connection: Connection;
  /** The Endpoints view's confirm (tests answer it: VS Code refuses modals to an extension under test). */
  confirm(): Confirm;
  /** The Endpoints view, where a rollout is shown (its message line). */
  view(): vscode.TreeView<unknown> | undefined;
  refreshTree(): Promise<void>;
  logger: Logger;
  extensionUri: vscode.Uri;
}


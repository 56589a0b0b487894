// The Endpoints view's line above its items while the billing refresh waits before a retry (issue 12): "Rate
// limited by the service: retrying in 5 s", counting down, instead of old numbers and no sign of life. Its own
// room so the tree keeps one job (src/endpoints/endpointsTree.ts sets the view's message after each load, which
// replaces this line once the retried request has answered).
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { WaitCountdown } from '../connection/waitCountdown';
import { retryWaitText } from '../errors/retryWaitText';

const BILLING = 'billing';

export function showBillingWaits(view: vscode.TreeView<unknown>, connection: Connection): vscode.Disposable {
  const waits = new WaitCountdown<string>();
  let shown: string | undefined;
  const update = (): void => {
    const wait = waits.get(BILLING);
    if (wait) {
      // Plain text: a tree view message does not draw codicons.
      shown = retryWaitText(wait);
      view.message = shown;
    } else if (shown !== undefined) {
      // Only our own words are taken back: the tree may have set its message meanwhile.
      if (view.message === shown) view.message = undefined;
      shown = undefined;
    }
  };
  return vscode.Disposable.from(
    waits,
    connection.onRetryWait((wait) => {
      // The view shows the billing window and the endpoint list; a job's waits are shown on the job.
      if (wait.route.kind === 'billing' || wait.route.kind === 'endpointList') waits.set(BILLING, wait);
    }),
    waits.onDidTick(update),
  );
}

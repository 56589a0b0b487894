// One line in the Serverless GPU log per step of a job of this window: sent, each new status, its end with the
// error the service gave. A user who sees something wrong opens Show Logs first, and a log that said nothing of
// jobs (a reviewer's finding) could not tell them what happened, nor when. The history is the one place every
// job's record changes, so this listens there instead of adding lines to the runner's paths.
import type * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { HistoryStore } from '../history/historyStore';
import { statusWords } from './jobRecord';

export function logJobSteps(history: HistoryStore, logger: Logger): vscode.Disposable {
  // The last step logged per record: the history also fires for the same status (outputs, timings, a tick).
  const logged = new Map<string, string>();
  return history.onDidChange((r) => {
    if (!r) return;
    const step = `${r.jobId ?? ''} ${r.status}`;
    if (logged.get(r.key) === step) return;
    logged.set(r.key, step);
    if (logged.size > 500) logged.delete(logged.keys().next().value!);
    const error = r.error ? `: ${r.error.slice(0, 300)}` : '';
    logger.info(`job ${r.jobId ?? '(sending)'} on ${r.endpointId}: ${statusWords(r.status)}${error}`);
  });
}

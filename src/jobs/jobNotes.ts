// What the runner tells the user about a job it stopped following, and what Cancel Job did: words shared by
// the runner, the commands and the panel, kept apart so the runner holds only the following of jobs.
import { Commands } from '../connection/commandIds';
import type { RetryWait } from '../core/http/request';
import type { ErrorAction } from '../errors/describeError';
import type { JobRecord } from './jobRecord';

/** Stop Waiting: the lesser action, which leaves the job to the service. */
export const STOPPED_WAITING_NOTE =
  'Stopped waiting. The job may still run on the service and be billed (Cancel Job ends it there); its result ' +
  'stays readable through /status for 30 minutes.';

/** Cancel Job on a service without the platform's cancel route (SPEC 4 lists only run, runsync and status). */
export const NO_CANCEL_ROUTE_NOTE =
  'Not cancelled: this service has no cancel route (it answered /cancel with "not found" for a job its /status ' +
  'still knows), so the job may still run and be billed. Stopped waiting; its result stays readable through ' +
  '/status for 30 minutes.';

/** What Cancel Job did, for the command to say. */
export type CancelResult =
  | { kind: 'cancelled' }
  | { kind: 'alreadyEnded'; status: string }
  | { kind: 'noRoute' }
  | { kind: 'notCancellable'; reason: string }
  | { kind: 'error'; message: string };

/** Whether a transport's wait is this job's: its status poll, or its submission before the job has an id. */
export function isWaitOf(record: JobRecord, wait: RetryWait): boolean {
  const { kind, endpointId, jobId } = wait.route;
  if (endpointId !== record.endpointId) return false;
  if (kind === 'status') return jobId !== undefined && jobId === record.jobId;
  return (kind === 'run' || kind === 'runsync') && record.jobId === undefined;
}

/** A job started with no API key for the active connection: nothing was sent. */
export const NO_KEY_ERROR = 'No API key is set for the active connection, so nothing was sent. Set a key, or try the local emulator.';
export const NO_KEY_ACTIONS: ErrorAction[] = [
  { title: 'Set API Key', command: Commands.setApiKey },
  { title: 'Use Local Emulator', command: Commands.useLocalEmulator },
];

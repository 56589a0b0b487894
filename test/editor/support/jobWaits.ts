// What the job suites wait for, through the job runner's test API: a job at its end (finished and no longer
// followed: its outputs are on disk by then), and a job's panel in front with its webview loaded.
import type { JobRecord } from '../../../src/jobs/jobRecord';
import type { JobRunnerApi } from '../../../src/jobs/registerJobs';
import { eventually } from './extension';

export function jobWaits(api: () => JobRunnerApi) {
  const finished = (key: string, timeoutMs = 60_000): Promise<JobRecord> =>
    eventually(() => {
      const r = api().history.get(key);
      return r && r.finishedAt !== undefined && !api().runner.isRunning(key) ? r : undefined;
    }, `job ${key} to finish`, timeoutMs);

  /** Brings a job's panel to the front (as a click in the Jobs view would) before its DOM is read. */
  const showPanel = async (key: string): Promise<void> => {
    api().panels.open(key);
    await eventually(() => api().panels.isVisible(key), `the panel of ${key} to be visible`);
    await eventually(() => api().panels.isReady(key), `the webview of ${key} to say ready`);
  };
  return { finished, showPanel };
}

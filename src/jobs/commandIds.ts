// The ids of the job runner's commands, in one place, so the manifest, the CodeLens, the panel, the Jobs view
// and the tests cannot disagree.
export const JobCommands = {
  runCurrentFile: 'serverlessGpu.runCurrentFile',
  runCurrentFileSync: 'serverlessGpu.runCurrentFileSync',
  runJob: 'serverlessGpu.runJob',
  changeEndpointForFile: 'serverlessGpu.changeEndpointForFile',
  /** Cancel Job: POST /cancel, the job ends CANCELLED on the service. */
  cancelJob: 'serverlessGpu.cancelJob',
  /** Stop Waiting: the lesser action, stops following the job and leaves it to the service. */
  stopWaiting: 'serverlessGpu.stopWaiting',
  /** Retry: a FAILED or TIMED_OUT job is queued again under the same id. */
  retryJob: 'serverlessGpu.retryJob',
  openJob: 'serverlessGpu.openJob',
  showRunningJobs: 'serverlessGpu.showRunningJobs',
  refreshJobHistory: 'serverlessGpu.refreshJobHistory',
  clearJobHistory: 'serverlessGpu.clearJobHistory',
  removeJobFromHistory: 'serverlessGpu.removeJobFromHistory',
  openJobOutputsFolder: 'serverlessGpu.openJobOutputsFolder',
} as const;

/** The view type of the job panel: also the serializer's key, so it must never change. */
export const JOB_PANEL_VIEW_TYPE = 'serverlessGpu.jobPanel';
/** The Jobs view inside the sidebar's container. */
export const JOBS_VIEW_ID = 'serverlessGpu.jobs';

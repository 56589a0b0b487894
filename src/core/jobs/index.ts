// Jobs of the core: submit, follow, learn how long they take. The editor layer imports from here.
export { runJob, type RunJobOptions, type RunMode } from './runJob';
export { waitForJob, RESULT_RETENTION_MINUTES, type WaitOptions } from './waitForJob';
export { JobDurationModel, sharedDurationModel, durationKey, type DurationEstimate } from './durationModel';
export { nextPollDelayMs, predictEnd, type PollState, type Prediction } from './pollPlan';
export { cancelJob, endedJob, retryJob, type CancelOutcome, type RetryOutcome, type JobControlOptions } from './jobControl';
export { explainQueue, watchQueue, type QueueReason, type QueueReasonKind } from './queueReason';
export { followStream, shouldStream, StreamingEndpoints, sharedStreamingEndpoints, type StreamResult } from './followStream';

// Batches of the core (issue 23, docs/batches.md): inputs, sweeps, the cost range before sending, the manifest
// and the runner. The editor layer imports from here; what a job costs is ../cost's.
export { loadBatchInputs, withoutProblems, digestOf, INPUT_FILE_SUFFIX, type BatchSource, type BatchItem, type BatchPlan, type InputProblem, type InputRef } from './batchInputs';
export { expandSweep, MAX_SWEEP_JOBS, type SweepPoint } from './sweep';
export { estimateBatchCost, type CostRange, type CostRangeInput } from './costRange';
export { ManifestWriter, readManifest, readManifestText, endsFinished, countPhases, changedInputs, type ManifestState, type ManifestProblem } from './manifestFile';
export { MANIFEST_FILE, MANIFEST_VERSION, ROW_PHASES, type JobRow, type ManifestHeader, type RowPhase, type BatchEventLine } from './manifestFormat';
export { rowsToCsv } from './manifestCsv';
export { countRow, emptyTally, tally, type BatchTally } from './batchTally';
export { BatchRunner, type BatchEvent, type BatchRunnerOptions } from './batchRunner';
export { BatchLife, type BatchState, type BatchStateKind } from './batchLife';
export { rowCost, rowUsd } from './rowCost';
export { type SavedBatchOutputs } from './jobEnd';
export { type PauseReason, type WaitReason } from './batchGate';
export { type GuardLimits, type GuardTrip } from './guards';
export { defaultConcurrency } from './concurrency';
export { batchName, batchNameFromId, startedWords } from './batchName';

// The Batch panel's view type, and the standalone grid panel's of before (issue 31 moved the grid into the Batch
// panel), on their own so the wiring (registerGrid.ts: the serializers) names them without loading the batch room.
// They are also the keys VS Code restores a panel by after a reload: they must never change.
export const BATCH_PANEL_VIEW_TYPE = 'serverlessGpu.batchPanel';
/** A grid panel left open by an earlier version: reopened as its batch's Batch panel, in Grid mode. */
export const OLD_GRID_VIEW_TYPE = 'serverlessGpu.batchGrid';

// The grid panel's view type, on its own so the wiring (registerGrid.ts: the serializer) names it without loading
// the grid room. It is also the key VS Code restores the panel by after a reload: it must never change.
export const GRID_VIEW_TYPE = 'serverlessGpu.batchGrid';

// The forms' room: everything of Edit / New / Delete Endpoint and New Template that runs only once a user asks
// for one of them. Reached only through formsRoom() (registerEndpointForms.ts), so it can live in the bundle of
// rooms a session may never open (dist/rooms.js) without any other file changing.
export { EditEndpointPanel, EDIT_ENDPOINT_VIEW_TYPE } from './editEndpointPanel';
export { applyEndpointChange, type ChangeOutcome, type FormsDeps } from './endpointChange';
export { deleteEndpoint, newEndpoint, newTemplate, type DeleteOutcome, type NewEndpointArgs } from './endpointLifecycle';
export { rolloutLines, stopRolloutWatches } from './rolloutWatch';

// How long an idle worker of an endpoint stays before it stops, from the endpoint as the service shows it. On a
// queue endpoint scaling on REQUEST_COUNT the REST v2 reference makes `workers.idleTimeout` "not applicable"
// (refused on create/update, omitted from responses): the delay there is the platform's own, taken as its
// default idle timeout, 5 s (docs "Endpoint settings"). The emulator's engine uses the same value for that
// combination (src/emulator/serverless/scaling.ts), so a replay or an estimate made from it matches the bill.
import type { ServerlessEndpoint } from './schemas';

/** The platform's scale-down delay of a REQUEST_COUNT queue endpoint (its default idle timeout), ms. */
export const REQUEST_COUNT_SCALE_DOWN_MS = 5_000;

/** Ms an idle worker of `e` stays up: its idle timeout, or the platform's delay where that does not apply. */
export function scaleDownMsOf(e: Pick<ServerlessEndpoint, 'workers' | 'scaling'>): number {
  if (e.scaling.type === 'REQUEST_COUNT') return REQUEST_COUNT_SCALE_DOWN_MS;
  return (e.workers.idleTimeout ?? 5) * 1000;
}

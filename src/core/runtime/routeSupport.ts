// Which optional routes a service offers, learned once per service (its jobs base URL) and kept for the
// process: the platform has status-sync, a SPEC-only service may not. Learning is by a fallback, never by a
// probe request: the first call that finds no route (404 / 405 / 501 for a job the service does know) marks
// it missing, and callers go back to what SPEC guarantees.
import { NotFoundError, ServerError, type ServiceError } from '../http/errors';

export type OptionalRoute = 'statusSync' | 'cancel' | 'retry' | 'stream' | 'health' | 'purgeQueue' | 'endpointList';
export type Support = 'yes' | 'no' | 'unknown';

export class RouteSupport {
  private readonly known = new Map<string, Support>();

  /** `assumed`: what to take for a route of any service until learned (tests and benches of a SPEC-only service). */
  constructor(private readonly assumed: Partial<Record<OptionalRoute, Exclude<Support, 'unknown'>>> = {}) {}

  get(service: string, route: OptionalRoute): Support {
    return this.known.get(`${service} ${route}`) ?? this.assumed[route] ?? 'unknown';
  }

  set(service: string, route: OptionalRoute, support: Exclude<Support, 'unknown'>): void {
    this.known.set(`${service} ${route}`, support);
  }
}

/** The one instance of this process (the extension host, or a test), like the shared duration model. */
export const sharedRouteSupport = new RouteSupport();

/**
 * True when an error may mean "this service has no such route": 404 (also what an unknown job gives, so the
 * caller checks the job with a SPEC route before concluding), 405 or 501.
 */
export function mayBeMissingRoute(e: unknown): e is ServiceError {
  if (e instanceof NotFoundError) return true;
  return e instanceof ServerError && (e.status === 405 || e.status === 501);
}

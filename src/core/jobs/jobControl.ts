// Ending and restarting a job on the service: POST /cancel (a queued or running job becomes CANCELLED) and
// POST /retry (a FAILED or TIMED_OUT job is queued again under the same id). Both routes are the platform's,
// not SPEC 4's, so a service may not have them: a 404/405/501 is only read as "no such route" once the
// SPEC route /status still knows the job (a 404 is also what an unknown job gives), and that is remembered
// per service (runtime/routeSupport.ts) so the next attempt says so without a request.
import { isTerminalStatus, type Job } from '../schemas';
import type { CallOptions, ServiceClient } from '../service';
import { mayBeMissingRoute, sharedRouteSupport, type OptionalRoute, type RouteSupport } from '../runtime/routeSupport';
import type { JobActionResponse } from '../runtime/schemas';

export interface JobControlOptions extends CallOptions {
  /** Which services have which routes; defaults to the one shared by this process. */
  routeSupport?: RouteSupport;
}

export type CancelOutcome =
  /** The service took the cancel: `status` is what it answered (CANCELLED, or the state it kept). */
  | { kind: 'cancelled'; response: JobActionResponse }
  /** The job had already ended (found out by the check /status made): there is nothing to cancel. */
  | { kind: 'alreadyEnded'; job: Job }
  /** The service has no cancel route; `job` is what /status said (undefined when known from before). */
  | { kind: 'noRoute'; job?: Job };

export type RetryOutcome =
  | { kind: 'retried'; response: JobActionResponse }
  /** The service has no retry route. */
  | { kind: 'noRoute'; job?: Job };

/** Cancels a queued or running job. Errors other than a missing route are thrown as the client's typed errors. */
export async function cancelJob(client: ServiceClient, endpointId: string, jobId: string, options: JobControlOptions = {}): Promise<CancelOutcome> {
  const outcome = await callOptionalRoute(client, 'cancel', endpointId, jobId, options, (call) => client.cancel(endpointId, jobId, call));
  if (outcome.kind === 'done') return { kind: 'cancelled', response: outcome.response };
  if (outcome.job && isTerminalStatus(outcome.job.status) && outcome.kind === 'jobEnded') return { kind: 'alreadyEnded', job: outcome.job };
  return outcome.job ? { kind: 'noRoute', job: outcome.job } : { kind: 'noRoute' };
}

/** Queues a FAILED or TIMED_OUT job again under the same id (the service refuses other states with a 400). */
export async function retryJob(client: ServiceClient, endpointId: string, jobId: string, options: JobControlOptions = {}): Promise<RetryOutcome> {
  const outcome = await callOptionalRoute(client, 'retry', endpointId, jobId, options, (call) => client.retry(endpointId, jobId, call));
  if (outcome.kind === 'done') return { kind: 'retried', response: outcome.response };
  return outcome.job ? { kind: 'noRoute', job: outcome.job } : { kind: 'noRoute' };
}

type RouteOutcome =
  | { kind: 'done'; response: JobActionResponse }
  | { kind: 'noRoute'; job?: Job }
  /** The route answered 404 for a job /status shows as already ended: a service may forget finished jobs there. */
  | { kind: 'jobEnded'; job: Job };

async function callOptionalRoute(
  client: ServiceClient,
  route: Extract<OptionalRoute, 'cancel' | 'retry'>,
  endpointId: string,
  jobId: string,
  options: JobControlOptions,
  send: (call: CallOptions) => Promise<JobActionResponse>,
): Promise<RouteOutcome> {
  const routes = options.routeSupport ?? sharedRouteSupport;
  const service = client.settings.jobsBaseUrl;
  const { routeSupport: _routes, ...call } = options;
  if (routes.get(service, route) === 'no') return { kind: 'noRoute' };
  try {
    const response = await send(call);
    routes.set(service, route, 'yes');
    return { kind: 'done', response };
  } catch (e) {
    if (routes.get(service, route) === 'yes' || !mayBeMissingRoute(e)) throw e;
    // A 404 is also what an unknown job gives: /status tells which. If it does not know the job either, the
    // first error is the answer (thrown); if it does, the service has no such route.
    let job: Job;
    try {
      job = await client.status(endpointId, jobId, call);
    } catch {
      throw e;
    }
    if (route === 'cancel' && isTerminalStatus(job.status) && e.status === 404) {
      // A 404 for a job that has ended may be a service that forgets ended jobs on /cancel: not proof of a
      // missing route, so nothing is learned.
      return { kind: 'jobEnded', job };
    }
    routes.set(service, route, 'no');
    return { kind: 'noRoute', job };
  }
}

/**
 * The service's own record of a job it ended on our request (the cancel's answer), for its times; the answer's
 * status alone when /status cannot say (the end is already known, so nothing is thrown).
 */
export async function endedJob(client: ServiceClient, endpointId: string, jobId: string, status: string): Promise<Job> {
  const fallback = { id: jobId, status } as Job;
  try {
    const job = await client.status(endpointId, jobId);
    return isTerminalStatus(job.status) ? job : fallback;
  } catch {
    return fallback;
  }
}

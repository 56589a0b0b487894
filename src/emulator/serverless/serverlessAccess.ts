// What every REST v2 serverless route shares (issue 28): the route type, its context, and the door to one
// endpoint (404 for what is not the caller's, 403 for a key restricted to other endpoints).
import type { IncomingMessage } from 'node:http';
import type { Principal } from '../http/auth';
import type { EndpointConfig } from '../config';
import type { JobQueue } from '../jobs/jobQueue';
import { HttpProblem } from '../http/respond';
import { isListed } from './endpointView';

export type ServerlessRoute = { rest: true } & (
  | { name: 'endpoints'; allow: 'GET, POST' }
  | { name: 'endpoint'; allow: 'GET, PATCH, DELETE'; endpointId: string }
  | { name: 'workers' | 'releases'; allow: 'GET'; endpointId: string }
  | { name: 'workerLogs'; allow: 'GET'; endpointId: string; workerId: string }
  | { name: 'templates'; allow: 'GET, POST' }
  | { name: 'template'; allow: 'GET, PATCH, DELETE'; templateId: string }
  | { name: 'gpuCatalog'; allow: 'GET' }
);

export interface ServerlessRouteContext {
  nowMs: number;
  jobs: JobQueue;
  stopping: AbortSignal;
}

export function listedEndpoint(p: Principal, endpointId: string): EndpointConfig {
  const e = p.account.endpoints.get(endpointId);
  // The reference's 404 is "not found or not accessible to the caller": another account's id, no one's id
  // and a public model id look the same, so ids of other accounts are not revealed.
  if (!e || !isListed(e)) throw new HttpProblem(404, `There is no serverless endpoint "${endpointId}" in this account.`);
  if (p.key.endpoints && !p.key.endpoints.includes(endpointId)) {
    throw new HttpProblem(403, `The API key is restricted to the endpoints ${p.key.endpoints.join(', ')}; it may not use "${endpointId}".`);
  }
  return e;
}

/** The origin the client reached us on, for the job URLs in `requestUrls` (the same host serves both areas). */
export function originOf(req: IncomingMessage): string {
  const host = req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`;
  return `http://${host}`;
}

// The REST v2 "Serverless" read routes on the billing base URL (issue 9): GET /v2/serverless (the user's
// endpoints), GET /v2/serverless/<id> (one), GET /v2/serverless/<id>/workers (its active workers). Paths and
// shapes from the REST v2 reference (operations listEndpoints, getEndpoint, listEndpointWorkers). The server
// has already done route, fault, 401 and 429; here: scope (403), query (400), the endpoint (403/404).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireScope, type Principal } from '../http/auth';
import type { EndpointConfig } from '../config';
import { readQueryParams } from '../http/queryParams';
import { HttpProblem, sendJson } from '../http/respond';
import { endpointView, isListed } from './endpointView';
import { workersView, type WorkerSnapshot } from './workersView';

export type ServerlessRoute =
  | { name: 'endpoints'; allow: 'GET' }
  | { name: 'endpoint' | 'workers'; allow: 'GET'; endpointId: string };

export interface ServerlessRouteContext {
  nowMs: number;
  /** The active workers of an endpoint, from the queue model. */
  workersOf: (endpoint: EndpointConfig) => readonly WorkerSnapshot[];
}

/** Matches by path alone (the method is checked after, for a 405). The read routes only: the emulator cannot create, change or delete endpoints. */
export function matchServerlessRoute(path: string): ServerlessRoute | undefined {
  const s = path.split('/'); // ['', 'v2', 'serverless', id?, 'workers'?]
  if (s[1] !== 'v2' || s[2] !== 'serverless' || s[0] !== '') return undefined;
  if (s.length === 3) return { name: 'endpoints', allow: 'GET' };
  let endpointId: string;
  try {
    endpointId = decodeURIComponent(s[3]!);
  } catch {
    return undefined;
  }
  if (endpointId === '') return undefined;
  if (s.length === 4) return { name: 'endpoint', allow: 'GET', endpointId };
  if (s.length === 5 && s[4] === 'workers') return { name: 'workers', allow: 'GET', endpointId };
  return undefined;
}

/** The endpoints this key may see: the user's own (not public models), narrowed by the key's `endpoints`. */
function visible(p: Principal, e: EndpointConfig): boolean {
  return isListed(e) && (!p.key.endpoints || p.key.endpoints.includes(e.id));
}

function listedEndpoint(p: Principal, endpointId: string): EndpointConfig {
  const e = p.account.endpoints.get(endpointId);
  // The reference's 404 is "not found or not accessible to the caller": another account's id, no one's id
  // and a public model id look the same, so ids of other accounts are not revealed.
  if (!e || !isListed(e)) throw new HttpProblem(404, `There is no serverless endpoint "${endpointId}" in this account.`);
  if (p.key.endpoints && !p.key.endpoints.includes(endpointId)) {
    throw new HttpProblem(403, `The API key is restricted to the endpoints ${p.key.endpoints.join(', ')}; it may not read "${endpointId}".`);
  }
  return e;
}

/** The origin the client reached us on, for the job URLs in `requestUrls` (the same host serves both areas). */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`;
  return `http://${host}`;
}

export function handleServerless(
  ctx: ServerlessRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, route: ServerlessRoute, search: URLSearchParams,
): void {
  requireScope(p, 'endpoints:read');
  // The reference lists no query parameters for these operations: anything given is a mistake worth a 400.
  const { errors } = readQueryParams(search, []);
  if (errors.length) throw new HttpProblem(400, `The query string is invalid: ${errors.join('; ')}.`, errors);
  const { account } = p;
  if (route.name === 'endpoints') {
    const endpoints = [...account.endpoints.values()].filter((e) => visible(p, e));
    sendJson(res, 200, { endpoints: endpoints.map((e) => endpointView(e, account.usage, originOf(req), ctx.nowMs)) });
    return;
  }
  const endpoint = listedEndpoint(p, route.endpointId);
  if (route.name === 'endpoint') {
    sendJson(res, 200, endpointView(endpoint, account.usage, originOf(req), ctx.nowMs));
    return;
  }
  sendJson(res, 200, workersView(endpoint, ctx.workersOf(endpoint), ctx.nowMs));
}
